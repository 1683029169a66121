/**
 * A new PGlite store as initdb leaves it, before any migration: for the tests of the migrations themselves and of
 * the PGlite client. initdb runs once per worker (2.8 s of CPU each time on this kind of machine, against about 1 s
 * to load its files: issue 28), and each such store of the worker starts from its files, through PgliteClient's
 * `seed` as a new store starts from the migrated snapshot. A worker keeps it from file to file (`isolate: false`).
 */
import { Effect } from "effect"
import * as PgliteClient from "../../adapters/sql/pglite-client.ts"

const kept = Symbol.for("test-support.initdbSeed")

/** initdb's files, gzipped as PGlite's `dumpDataDir` writes them (after a checkpoint: nothing to replay). */
export const initdbSeed = (): Promise<Blob> =>
  ((globalThis as Record<symbol, unknown>)[kept] ??= Effect.runPromise(
    Effect.scoped(
      Effect.flatMap(PgliteClient.makePgliteInstance({ dataDir: "memory://" }), ({ pg }) =>
        Effect.promise(async () => {
          await pg.exec("CHECKPOINT")
          return pg.dumpDataDir("gzip")
        })),
    ).pipe(Effect.orDie),
  )) as Promise<Blob>

/** PgliteClient's options for a new, unmigrated store at `dataDir` (a directory, or in memory). */
export const unmigrated = (dataDir = "memory://"): PgliteClient.PgliteClientOptions => ({ dataDir, seed: initdbSeed })
