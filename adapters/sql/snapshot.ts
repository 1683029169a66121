/**
 * The migrated empty store, as a PGlite data directory: made once by the build (`npm run snapshot`, run by
 * `npm run build` and by the test command's global setup), shipped in the package, and loaded by every NEW
 * PGlite store (`memory://`, or a directory without a database) instead of running initdb and every
 * product's migrations. The migrator still runs after the load: it finds the snapshot's migrations recorded
 * in `schema_migrations` and applies only those the snapshot lacks (a product added to the list, a store of
 * a test's own list), so a snapshot can make a start slower, never wrong.
 *
 * A snapshot is used only when every migration it holds is one of the list's (same product, number and name):
 * anything else (a migration renamed or taken out) is a stale snapshot, refused with a logged reason, and the
 * store is made by initdb and the migrations as before. Files beside the snapshot: `store.tar.gz` (PGlite's
 * `dumpDataDir("gzip")`) and `manifest.json` ({ pglite, plan, sources }).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import { migrate, type Migrating, planOf } from "./migrate.ts"
import { makePgliteInstance } from "./pglite-client.ts"

export interface SnapshotManifest {
  /** The PGlite version that wrote the data directory (a directory is read only by the same major version). */
  readonly pglite: string
  /** Every migration the snapshot holds, as `product/number/name`, in the order they ran. */
  readonly plan: ReadonlyArray<string>
  /** A hash of the migrations' source files when the snapshot was made (the build's staleness check). */
  readonly sources: string
}

/** The list's migrations as the manifest names them. */
export const planNames = (list: ReadonlyArray<Migrating>): ReadonlyArray<string> =>
  planOf(list).map((step) => `${step.product}/${step.migration.number}/${step.migration.name}`)

/** Why a snapshot cannot seed a store of `list`, or undefined when it can. */
export const staleReason = (manifest: SnapshotManifest, list: ReadonlyArray<Migrating>): string | undefined => {
  const wanted = new Set(planNames(list))
  const foreign = manifest.plan.filter((name) => !wanted.has(name))
  return foreign.length === 0
    ? undefined
    : `it holds migrations the products list does not (${foreign.slice(0, 3).join(", ")}${
      foreign.length > 3 ? ", …" : ""
    }); run \`npm run snapshot\``
}

/**
 * The folders a snapshot may sit in, relative to this module: `store-snapshot/` beside it in the sources
 * (adapters/sql/store-snapshot/), and `dist/store-snapshot/` in the package, whether this code was bundled
 * into a chunk at dist/ or into an entry under dist/hosts/.
 */
const folders = ["./store-snapshot/", "../store-snapshot/"]

interface Found {
  readonly manifest: SnapshotManifest
  readonly tar: Uint8Array
  readonly folder: string
}

/** The shipped snapshot's files, or undefined where there is none or no file system to read it from. */
const readFiles = async (): Promise<Found | undefined> => {
  if (!import.meta.url.startsWith("file:")) return undefined
  const fs = await import("node:fs")
  const { fileURLToPath } = await import("node:url")
  for (const folder of folders) {
    const directory = fileURLToPath(new URL(folder, import.meta.url))
    const manifestPath = `${directory}manifest.json`
    if (!fs.existsSync(manifestPath)) continue
    const manifest = JSON.parse(await fs.promises.readFile(manifestPath, "utf8")) as SnapshotManifest
    const tar = new Uint8Array(await fs.promises.readFile(`${directory}store.tar.gz`))
    return { manifest, tar, folder: directory }
  }
  return undefined
}

/**
 * The seed of a new PGlite store of `list`: the shipped snapshot when there is one that fits, else undefined
 * (initdb and the migrations). A snapshot that does not fit, or cannot be read, is reported once on stderr.
 */
export const seedFor = (list: ReadonlyArray<Migrating>) => async (): Promise<Blob | undefined> => {
  let found: Found | undefined
  try {
    found = await readFiles()
  } catch (cause) {
    warnOnce(`the store snapshot cannot be read (${cause instanceof Error ? cause.message : String(cause)})`)
    return undefined
  }
  if (found === undefined) return undefined
  const stale = staleReason(found.manifest, list)
  if (stale !== undefined) {
    warnOnce(`the store snapshot in ${found.folder} is stale: ${stale}; making the store by its migrations`)
    return undefined
  }
  return new Blob([found.tar as Uint8Array<ArrayBuffer>])
}

let warned = false
const warnOnce = (message: string): void => {
  if (warned) return
  warned = true
  console.warn(`store snapshot: ${message}`)
}

/** A new in-memory store of `list`, migrated, dumped as PGlite's gzip tarball with its manifest. */
export const makeSnapshot = (
  list: ReadonlyArray<Migrating>,
  made: { readonly pglite: string; readonly sources: string },
): Effect.Effect<{ readonly tar: Uint8Array; readonly manifest: SnapshotManifest }> =>
  Effect.scoped(Effect.gen(function* () {
    const { client, pg } = yield* makePgliteInstance({ dataDir: "memory://" })
    yield* migrate(list).pipe(Effect.provideService(SqlClient.SqlClient, client))
    // Only the database PGlite opens (`postgres`) is kept: initdb's template0 and template1, 14 of the 29 MB every new
    // store unpacked (and a `memory://` store holds), are never opened. VACUUM FULL then compacts the catalogs the
    // migrations rewrote. The gzipped snapshot 4.1 → 1.9 MB; a new in-memory store opened in 179-258 ms instead of
    // 239-320 (issue 28).
    for (const database of ["template0", "template1"]) {
      // One statement a call: DROP DATABASE refuses to run inside the implicit transaction of several.
      yield* Effect.promise(() => pg.exec(`ALTER DATABASE ${database} IS_TEMPLATE false`))
      yield* Effect.promise(() => pg.exec(`DROP DATABASE ${database}`))
    }
    yield* Effect.promise(() => pg.exec("VACUUM FULL"))
    // A checkpoint first: PGlite tars the files of the running instance, so a store opened from them replays the
    // WAL after the last checkpoint (330 ms of a new directory's first open without it).
    yield* Effect.promise(() => pg.exec("CHECKPOINT"))
    const blob = yield* Effect.promise(() => pg.dumpDataDir("gzip"))
    const tar = new Uint8Array(yield* Effect.promise(() => blob.arrayBuffer()))
    return { tar, manifest: { pglite: made.pglite, plan: planNames(list), sources: made.sources } }
  })).pipe(Effect.orDie)
