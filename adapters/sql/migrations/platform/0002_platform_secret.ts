/** The platform's own secret (cursor and token signing), one row. */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

export const migration: Migration = {
  number: 2,
  name: "platform_secret",
  run: Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`CREATE TABLE IF NOT EXISTS platform_secret (
    id INT PRIMARY KEY CHECK (id = 1),
    secret TEXT NOT NULL
  )`),
}
