/**
 * The console's list of an account's proformas (`console.proformas.list`), newest first: read from an index, not
 * the table. Runs inside the advisory-locked migrator transaction of `../../migrate.ts`, on PostgreSQL and PGlite.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

export const migration: Migration = {
  number: 2,
  name: "proformas_by_account",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql.unsafe(`CREATE INDEX proformas_account_issued ON proformas (account_id, issued_at DESC, number DESC)`),
  ),
}
