/**
 * Retention of the delivery log (docs/decisions.md, "Retention"): finished deliveries (succeeded or given up) by
 * age, so the retention job's batches and its due time read an index, not the table.
 * Runs inside the advisory-locked migrator transaction of `../../migrate.ts`, on PostgreSQL and PGlite alike.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

export const migration: Migration = {
  number: 3,
  name: "retention",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql.unsafe(
        `CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (created_at) WHERE status <> 'pending'`,
      ),
  ),
}
