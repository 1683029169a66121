/**
 * The usage read counts an application's verified codes by `verified_at` (DECISIONS 12): an index of
 * Verify's table, kept by the usage product that reads it. Runs inside the advisory-locked migrator
 * transaction of `../../migrate.ts`, on PostgreSQL and PGlite alike.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

export const migration: Migration = {
  number: 1,
  name: "verified_index",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql.unsafe(
        `CREATE INDEX verifications_verified_at ON verifications (application_id, verified_at) WHERE status = 'verified'`,
      ),
  ),
}
