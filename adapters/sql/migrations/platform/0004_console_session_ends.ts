/**
 * Console sessions signed out before they expired (docs/decisions.md, "The console as a web app"): every process
 * refuses a session another signed out. A row lives until the session would have expired; each sign-out drops
 * the rows past theirs. Only the console's pages read it.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

export const migration: Migration = {
  number: 4,
  name: "console_session_ends",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql`CREATE TABLE IF NOT EXISTS console_session_ends (
        id text PRIMARY KEY,
        until bigint NOT NULL
      )`,
  ),
}
