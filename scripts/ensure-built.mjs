// `npm start` builds first when dist/ (or its store snapshot) is missing or older than any source file.
import { execSync } from "node:child_process"
import { existsSync, readdirSync, statSync } from "node:fs"
import { join } from "node:path"

const out = "dist/hosts/node.js"
const newest = (dir) => {
  let t = 0
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs)
  }
  return t
}
const sources = Math.max(...["core", "ports", "adapters", "hosts"].map(newest), statSync("mod.ts").mtimeMs)
if (!existsSync(out) || !existsSync("dist/store-snapshot/manifest.json") || statSync(out).mtimeMs < sources) {
  execSync("npx tsup", { stdio: ["ignore", "ignore", "inherit"] })
}
