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
// The build's own configuration too: a bundling choice changed in tsup.config.ts is a new build.
const sources = Math.max(
  ...["core", "ports", "adapters", "hosts"].map(newest),
  ...["mod.ts", "tsup.config.ts", "package.json"].map((f) => statSync(f).mtimeMs),
)
if (!existsSync(out) || !existsSync("dist/store-snapshot/manifest.json") || statSync(out).mtimeMs < sources) {
  // The build takes about 20 s and says nothing of its own: a first `npm start` must not look hung.
  const why = existsSync(out) ? "the sources changed since the last build" : "first start"
  process.stderr.write(`building the server into dist/ (${why}; about 20 s)…\n`)
  const started = Date.now()
  execSync("npx tsup", { stdio: ["ignore", "ignore", "inherit"] })
  process.stderr.write(`built in ${((Date.now() - started) / 1000).toFixed(1)} s; starting\n`)
}
