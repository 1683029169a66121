/**
 * The simulator's log is UNLOGGED: its inserts cost no WAL flush on the send path, and a PostgreSQL crash
 * empties it, which a simulator's log can afford (docs/decisions.md, "Storage").
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

export const migration: Migration = {
  number: 2,
  name: "sim_sms_unlogged",
  run: Effect.flatMap(SqlClient.SqlClient, (sql) => sql`ALTER TABLE sim_sms SET UNLOGGED`),
}
