/**
 * A PGlite store per test, from ONE warm PGlite instance per test file (issue 28): a new instance cost 0.7-1.7 s of
 * CPU even from the snapshot (the WebAssembly instance, PostgreSQL's start, its shutdown), and test/verify made one
 * for each of its ~100 `platformTest`s. The warm instance is handed to one test at a time (a permit held for the
 * test's scope) and put back to the migrated empty store before each: every table that holds a row is emptied
 * (foreign keys set aside), the rows the migrations put in are written back, and every sequence starts again. A test
 * thus sees what a new store shows (the same tables, rows and sequence values), at a few milliseconds a test.
 *
 * What it does not reset, and no test of the harness relies on: session settings a test changes with SET, and
 * the statistics and dead tuples earlier tests left (the planner's estimates may differ from a new store's).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import type { AnyProduct } from "../../adapters/product.ts"
import { products } from "../../adapters/products.ts"
import * as PgliteClient from "../../adapters/sql/pglite-client.ts"
import { seedFor } from "../../adapters/sql/snapshot.ts"
import { storeOver } from "../../adapters/sql/store.ts"
import { afterAll } from "vitest"

interface Warm {
  readonly client: Context.Context<SqlClient.SqlClient>
  readonly permit: Effect.Semaphore
  readonly reset: Effect.Effect<void>
  readonly scope: Scope.CloseableScope
  used: boolean
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`

/** The migrated empty store as the instance holds it when new: its tables, the rows of those not empty, the sequences. */
const resetOf = (sql: SqlClient.SqlClient) =>
  Effect.gen(function* () {
    const tables = (yield* sql<{ name: string }>`SELECT format('%I.%I', schemaname, tablename) AS name
      FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`).map((t) => t.name)
    const sequences = yield* sql<{ name: string; start: string }>`SELECT format('%I.%I', schemaname, sequencename)
      AS name, start_value::text AS start FROM pg_sequences WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`
    const nonEmpty = `SELECT name FROM (${
      tables.map((t) => `SELECT ${sqlString(t)} AS name WHERE EXISTS (SELECT FROM ${t})`).join(" UNION ALL ")
    }) AS t`
    // The rows a new store holds (the migrations' own: schema_migrations, a routing cursor), as JSON.
    const seeds = new Map<string, string>()
    for (const { name } of yield* sql.unsafe<{ name: string }>(nonEmpty)) {
      const [{ rows }] = yield* sql.unsafe<{ rows: string }>(`SELECT json_agg(t)::text AS rows FROM ${name} AS t`)
      seeds.set(name, rows)
    }
    return Effect.gen(function* () {
      const dirty = (yield* sql.unsafe<{ name: string }>(nonEmpty)).map((r) => r.name)
      const statements = [
        "SET session_replication_role = replica",
        ...dirty.map((t) => `DELETE FROM ${t}`),
        ...[...seeds].map(([t, rows]) =>
          `INSERT INTO ${t} SELECT * FROM json_populate_recordset(NULL::${t}, ${sqlString(rows)})`
        ),
        ...sequences.map((s) => `SELECT setval(${sqlString(s.name)}, ${s.start}, false)`),
        "SET session_replication_role = DEFAULT",
        "SELECT pg_advisory_unlock_all()",
      ]
      yield* sql.unsafe(statements.join(";\n"))
    }).pipe(Effect.orDie)
  }).pipe(Effect.orDie)

const sqlString = (text: string) => `'${text.replaceAll("'", "''")}'`

const warm = new Map<string, Promise<Warm>>()

afterAll(async () => {
  const all = [...warm.values()]
  warm.clear()
  for (const w of all) await Effect.runPromise(Scope.close((await w).scope, Exit.void))
})

const open = (list: ReadonlyArray<AnyProduct>): Promise<Warm> =>
  Effect.runPromise(Effect.gen(function* () {
    const scope = yield* Scope.make()
    const context = yield* Layer.buildWithScope(
      storeOver(PgliteClient.layer({ dataDir: "memory://", seed: seedFor(list) }), list),
      scope,
    )
    const sql = Context.get(context, SqlClient.SqlClient)
    const reset = yield* resetOf(sql)
    return {
      client: Context.make(SqlClient.SqlClient, sql),
      permit: yield* Effect.makeSemaphore(1),
      reset,
      scope,
      used: false,
    }
  }))

/**
 * The SQL client of a PGlite store of `list` in memory, as new, for as long as the layer is in use: the file's warm
 * instance, reset (see above). A second user of the same list waits for the first to finish.
 */
export const warmPgliteClient = (list: ReadonlyArray<AnyProduct> = products): Layer.Layer<SqlClient.SqlClient> =>
  Layer.scopedContext(Effect.gen(function* () {
    const key = list.map((p) => p.name).join(",")
    if (!warm.has(key)) warm.set(key, open(list))
    const w = yield* Effect.promise(() => warm.get(key)!)
    yield* Effect.acquireRelease(w.permit.take(1), () => w.permit.release(1))
    if (w.used) yield* w.reset
    w.used = true
    return w.client
  }))

/** `PgliteStoreLive("memory://", list)` over the file's warm instance (see above). */
export const WarmPgliteStore = (list: ReadonlyArray<AnyProduct> = products) => storeOver(warmPgliteClient(list), list)
