/**
 * Runs the numbered migrations, safe when several processes start at once on one database.
 *
 * Everything happens in ONE transaction that first takes `pg_advisory_xact_lock` (keyed by the current
 * schema, so two schemas of one database do not wait for each other): a second process waits, then
 * finds the migrations done. The migrator's own table is created here, under the lock, because the
 * Migrator's probe (`select 'table'::regclass`, then CREATE on failure) would abort the surrounding
 * transaction on PostgreSQL and races between processes. The Migrator's inner `withTransaction` becomes
 * a savepoint of this transaction. On PGlite (one connection) the lock is harmless.
 */
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import foundation from "./migrations/0001_foundation.ts"
import platformSecret from "./migrations/0002_platform_secret.ts"
import webhooks from "./migrations/0003_webhooks.ts"
import unpausedAt from "./migrations/0005_application_unpaused_at.ts"

export const migrations = {
  "0001_foundation": foundation,
  "0002_platform_secret": platformSecret,
  "0003_webhooks": webhooks,
  "0005_application_unpaused_at": unpausedAt,
}

const table = "effect_sql_migrations"

const runMigrator = Migrator.make({})

export const migrate: Effect.Effect<void, never, SqlClient.SqlClient> = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.withTransaction(Effect.gen(function* () {
    yield* sql`SELECT pg_advisory_xact_lock(hashtext(coalesce(current_schema(), '') || '.' || ${table}))`
    // Same shape as the table @effect/sql's Migrator creates on pg.
    yield* sql`CREATE TABLE IF NOT EXISTS ${sql(table)} (
      migration_id integer primary key,
      created_at timestamp with time zone not null default now(),
      name text not null
    )`
    yield* runMigrator({ loader: Migrator.fromRecord(migrations), table })
  }))
}).pipe(Effect.orDie)
