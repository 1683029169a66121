/** When an application was last unpaused (the guard's pause). */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

export const migration: Migration = {
  number: 2,
  name: "application_unpaused_at",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`ALTER TABLE applications ADD COLUMN IF NOT EXISTS unpaused_at BIGINT`,
  ),
}
