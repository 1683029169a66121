/**
 * What every fence test checks first: the dependency whose internals a module reaches is pinned exactly in
 * package.json at the version the module was checked against, and that version is the one installed.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { expect } from "vitest"

const root = fileURLToPath(new URL("../..", import.meta.url))

const json = (path: string) => JSON.parse(readFileSync(join(root, path), "utf8"))

/** `name`'s version in package.json (dependencies or devDependencies), as written. */
export const pinnedVersion = (name: string): string | undefined => {
  const pkg = json("package.json")
  return pkg.dependencies?.[name] ?? pkg.devDependencies?.[name]
}

/** The version of `name` installed in node_modules. */
export const installedVersion = (name: string): string => json(`node_modules/${name}/package.json`).version

/** `name` is pinned and installed at `checked`, the version `module` was checked against. */
export const expectPinned = (name: string, checked: string, module: string): void => {
  const pinned = pinnedVersion(name)
  expect(
    pinned,
    `package.json must pin ${name} exactly (no ^ or ~) at ${checked}, the version ${module} reaches the ` +
      `internals of: change both together, after this fence test passes on the new version`,
  ).toBe(checked)
  const installed = installedVersion(name)
  expect(
    installed,
    `${name} ${installed} is installed, but ${module} was checked against ${name} ${checked}: ` +
      `reinstall (npm ci), or check the module against ${installed} and update its version and package.json`,
  ).toBe(checked)
}
