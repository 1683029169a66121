// `npm run bench -- <name> [args…]`: runs bench/<name>.ts under Node (through tsx). Benchmarks print figures.
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
// Short names for benchmarks whose file says more: `cap-scale` runs bench/verify-cap-scale.ts.
const aliases = { "cap-scale": "verify-cap-scale" }
const available = [
  ...readdirSync(join(root, "bench"))
    .filter((f) => f.endsWith(".ts"))
    .map((f) => f.slice(0, -3)),
  ...Object.keys(aliases),
]
  .sort()
const [given, ...args] = process.argv.slice(2)
const name = aliases[given] ?? given

if (!given || given === "--help" || given === "-h") {
  console.log(`usage: npm run bench -- <${available.join("|")}> [args…]`)
  process.exit(given ? 0 : 1)
}
const file = join(root, "bench", `${name}.ts`)
if (!/^[\w-]+$/.test(name) || !existsSync(file)) {
  console.error(`no benchmark "${given}" (bench/${name}.ts); available: ${available.join(", ") || "none"}`)
  process.exit(1)
}
const r = spawnSync(process.execPath, ["--import", "tsx", file, ...args], { cwd: root, stdio: "inherit" })
process.exit(r.status ?? 1)
