import { assert, describe, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Redacted } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { migrate, migrations } from "../../adapters/sql/migrate.ts"
import * as PgliteClient from "../../adapters/sql/pglite-client.ts"
import { freshSchema, freshSchemaUrl } from "./fixtures.ts"

const databaseUrl = process.env.DATABASE_URL
const expected = Object.keys(migrations).length

/** What the migrator recorded, and the tables it made in the current schema. */
const inspect = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const recorded = yield* sql<{ migration_id: number }>`SELECT migration_id FROM effect_sql_migrations`
  const tables = yield* sql<{ n: number | string }>`SELECT count(*) AS n FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_name IN ('accounts', 'wallets', 'ledger', 'jobs', 'sim_sms')`
  return { recorded: recorded.length, tables: Number(tables[0].n) }
})

describe("migrations on PGlite", () => {
  it.effect("run twice on one database: the second run changes nothing", () =>
    Effect.gen(function* () {
      yield* migrate
      yield* migrate
      assert.deepStrictEqual(yield* inspect, { recorded: expected, tables: 5 })
    }).pipe(Effect.provide(PgliteClient.layer({ dataDir: "memory://" })), Effect.orDie), 30_000)

  it.effect("a data directory reopened is not migrated again", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pglite-migrate-"))
    const open = Effect.provide(Effect.zipRight(migrate, inspect), PgliteClient.layer({ dataDir }))
    return Effect.gen(function* () {
      assert.deepStrictEqual(yield* open, { recorded: expected, tables: 5 })
      assert.deepStrictEqual(yield* open, { recorded: expected, tables: 5 })
    }).pipe(Effect.orDie, Effect.ensuring(Effect.sync(() => fs.rmSync(dataDir, { recursive: true, force: true }))))
  }, 60_000)
})

describe.runIf(databaseUrl !== undefined)("migrations on postgres (DATABASE_URL)", () => {
  const pool = (url: string) => PgClient.layer({ url: Redacted.make(url) })

  it.effect("run twice on a fresh schema: the second run changes nothing", () =>
    Effect.gen(function* () {
      yield* migrate
      yield* migrate
      assert.deepStrictEqual(yield* inspect, { recorded: expected, tables: 5 })
    }).pipe(Effect.provide(freshSchema(databaseUrl!, pool)), Effect.orDie), 30_000)

  it.scoped(
    "three processes (separate pools) migrating one fresh schema at once all succeed",
    () =>
      Effect.gen(function* () {
        const url = yield* freshSchemaUrl(databaseUrl!)
        // Each run has its own pool, as three server processes starting together would.
        yield* Effect.all([1, 2, 3].map(() => Effect.provide(migrate, pool(url))), { concurrency: "unbounded" })
        assert.deepStrictEqual(yield* Effect.provide(inspect, pool(url)), { recorded: expected, tables: 5 })
      }).pipe(Effect.orDie),
    30_000,
  )
})
