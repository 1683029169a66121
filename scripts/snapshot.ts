// `npm run snapshot`: makes adapters/sql/store-snapshot/ (the migrated empty store every new PGlite store
// starts from; adapters/sql/snapshot.ts) when it is missing or stale: made from other migration sources or
// another PGlite. `--check` makes nothing and exits 1 with the reason when it would. `--out DIR` also copies
// it to DIR (the build: dist/store-snapshot/). `SNAPSHOT_DIR` names another folder to check or make (tests).
import { createHash } from "node:crypto"
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { products } from "../adapters/products.ts"
import { makeSnapshot, planNames, type SnapshotManifest } from "../adapters/sql/snapshot.ts"
import { PgliteSettings } from "../adapters/sql/pglite-client.ts"

const root = fileURLToPath(new URL("..", import.meta.url))
const folder = process.env.SNAPSHOT_DIR ?? join(root, "adapters/sql/store-snapshot")
const migrations = join(root, "adapters/sql/migrations")

/** A hash of every migration source file (and the migrator's), by path and content. */
const sourcesHash = (): string => {
  const hash = createHash("sha256")
  const walk = (directory: string): void => {
    for (const entry of readdirSync(directory, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(directory, entry.name)
      if (entry.isDirectory()) walk(path)
      else hash.update(path.slice(root.length)).update("\0").update(readFileSync(path)).update("\0")
    }
  }
  walk(migrations)
  hash.update(readFileSync(join(root, "adapters/sql/migrate.ts")))
  // …and how a snapshot is made from them (what it drops and compacts).
  hash.update(readFileSync(join(root, "adapters/sql/snapshot.ts")))
  // initdb's arguments make the data directory too (its WAL segment size).
  hash.update(JSON.stringify(PgliteSettings.initdb))
  return hash.digest("hex")
}

const pglite = (JSON.parse(readFileSync(join(root, "node_modules/@electric-sql/pglite/package.json"), "utf8")) as {
  version: string
}).version

/** Why the snapshot on disk is not the one these sources make, or undefined when it is. */
const staleness = (sources: string): string | undefined => {
  const manifestPath = join(folder, "manifest.json")
  if (!existsSync(manifestPath) || !existsSync(join(folder, "store.tar.gz"))) return "there is none"
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as SnapshotManifest
  if (manifest.pglite !== pglite) return `it was made by PGlite ${manifest.pglite}, this is ${pglite}`
  if (manifest.sources !== sources) return "the migrations' sources changed since it was made"
  if (JSON.stringify(manifest.plan) !== JSON.stringify(planNames(products))) return "the migrations' plan changed"
  return undefined
}

const args = process.argv.slice(2)
const out = args.includes("--out") ? args[args.indexOf("--out") + 1] : undefined
const sources = sourcesHash()
const stale = staleness(sources)
if (args.includes("--check")) {
  if (stale !== undefined) {
    console.error(`store snapshot is stale: ${stale}. Run \`npm run snapshot\`.`)
    process.exit(1)
  }
  console.log("store snapshot: up to date")
} else if (stale === undefined) {
  console.log("store snapshot: up to date")
} else {
  const started = performance.now()
  const { tar, manifest } = await Effect.runPromise(makeSnapshot(products, { pglite, sources }))
  mkdirSync(folder, { recursive: true })
  writeFileSync(join(folder, "store.tar.gz"), tar)
  writeFileSync(join(folder, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`)
  console.log(
    `store snapshot: made (${stale}): ${manifest.plan.length} migrations, ${(tar.byteLength / 1e6).toFixed(1)} MB, ${
      Math.round(performance.now() - started)
    } ms`,
  )
}
if (out !== undefined) {
  mkdirSync(out, { recursive: true })
  cpSync(folder, out, { recursive: true })
}
