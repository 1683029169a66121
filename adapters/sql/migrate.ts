/**
 * Runs each product's migrations, safe when several processes start at once on one database.
 *
 * A product numbers its migrations itself (adapters/sql/migrations/<product>/NNNN_name.ts); they run in
 * the order of the products list, then by number, and `schema_migrations` records each as (product,
 * number). A product added to the list brings its own migrations and touches no other numbering.
 *
 * Everything happens in ONE transaction that first takes `pg_advisory_xact_lock` (keyed by the current
 * schema, so two schemas of one database do not wait for each other): a second process waits, then finds
 * the migrations done. On PGlite (one connection) the lock is harmless.
 *
 * A store made before the products frame recorded one global numbering in `effect_sql_migrations` (the
 * table of @effect/sql's Migrator). Its migrations are the same statements, split by product; `legacy`
 * says which product migrations each of its numbers holds, and they are recorded as applied (the old table
 * stays, so a process of the old version still finds its migrations done during a rolling deploy).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

/** One migration of a product: its number within the product, a name, the statements. */
export interface Migration {
  readonly number: number
  readonly name: string
  readonly run: Effect.Effect<unknown, SqlError, SqlClient.SqlClient>
}

/** What the migrator needs of a product. */
export interface Migrating {
  readonly name: string
  readonly migrations?: ReadonlyArray<Migration>
}

const table = "schema_migrations"
const legacyTable = "effect_sql_migrations"

/** The global numbers of before the products frame, and the product migrations each held. */
export const legacy: Readonly<Record<number, ReadonlyArray<readonly [product: string, number: number]>>> = {
  1: [["platform", 1], ["accounts", 1], ["verify", 1], ["webhooks", 1], ["sms-simulator", 1]],
  2: [["platform", 2]],
  3: [["webhooks", 2]],
  5: [["accounts", 2]],
}

/** The products' migrations, in the order they run. Throws on a number used twice within a product. */
export const planOf = (products: ReadonlyArray<Migrating>) =>
  products.flatMap((product) => {
    const numbers = new Set<number>()
    for (const m of product.migrations ?? []) {
      if (numbers.has(m.number)) throw new Error(`${product.name}: migration number ${m.number} is used twice`)
      numbers.add(m.number)
    }
    return [...(product.migrations ?? [])].sort((a, b) => a.number - b.number).map((migration) => ({
      product: product.name,
      migration,
    }))
  })

export const migrate = (products: ReadonlyArray<Migrating>): Effect.Effect<void, never, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const plan = planOf(products)
    const sql = yield* SqlClient.SqlClient
    yield* sql.withTransaction(Effect.gen(function* () {
      yield* sql`SELECT pg_advisory_xact_lock(hashtext(coalesce(current_schema(), '') || '.' || ${table}))`
      yield* sql`CREATE TABLE IF NOT EXISTS ${sql(table)} (
        product text NOT NULL,
        number integer NOT NULL,
        name text NOT NULL,
        applied_at timestamp with time zone NOT NULL DEFAULT now(),
        PRIMARY KEY (product, number)
      )`
      const [{ present }] = yield* sql<{ present: boolean }>`SELECT to_regclass(${legacyTable}) IS NOT NULL AS present`
      if (present) {
        const ran = yield* sql<{ migration_id: number }>`SELECT migration_id FROM ${sql(legacyTable)}`
        for (const { migration_id } of ran) {
          for (const [product, number] of legacy[migration_id] ?? []) {
            yield* sql`INSERT INTO ${sql(table)} (product, number, name)
              VALUES (${product}, ${number}, ${`before the products frame: ${migration_id}`})
              ON CONFLICT DO NOTHING`
          }
        }
      }
      const done = new Set(
        (yield* sql<{ product: string; number: number }>`SELECT product, number FROM ${sql(table)}`)
          .map((r) => `${r.product}/${r.number}`),
      )
      let applied = 0
      for (const { product, migration } of plan) {
        if (done.has(`${product}/${migration.number}`)) continue
        yield* migration.run
        yield* sql`INSERT INTO ${sql(table)} (product, number, name)
          VALUES (${product}, ${migration.number}, ${migration.name})`
        yield* Effect.logDebug(`migration ${product}/${migration.number} ${migration.name} applied`)
        applied++
      }
      yield* Effect.logInfo(
        applied === 0 ? "migrations: the store is up to date" : `migrations: ${applied} applied`,
      ).pipe(Effect.annotateLogs({ applied, known: plan.length }))
    }))
  }).pipe(Effect.orDie)
