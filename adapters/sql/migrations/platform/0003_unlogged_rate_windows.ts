/**
 * Rate-limit windows become UNLOGGED (docs/decisions.md, "Storage"): a window's upsert runs on every keyed
 * request outside the request's transaction, and a write that touches only unlogged tables commits without
 * waiting for the WAL to reach disk. A crash of PostgreSQL empties the table: every credential starts a
 * fresh 60-second window, which is the most a lost window can cost.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

export const migration: Migration = {
  number: 3,
  name: "unlogged_rate_windows",
  run: Effect.flatMap(SqlClient.SqlClient, (sql) => sql`ALTER TABLE rate_windows SET UNLOGGED`),
}
