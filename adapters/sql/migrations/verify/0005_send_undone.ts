/**
 * A send in one statement (adapters/sql/verify.ts, `sendText`): a send that passed every gate on its snapshot
 * but lost a race under a row lock after its first write is undone by raising this, with what each write found
 * as the error's detail (the statement, autocommitted or in its caller's transaction, then writes nothing).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

export const migration: Migration = {
  number: 5,
  name: "send_undone",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql.unsafe(`CREATE FUNCTION verify_send_undone(detail text) RETURNS boolean LANGUAGE plpgsql AS $$
        BEGIN
          RAISE EXCEPTION 'verify_send_undone' USING DETAIL = detail;
        END
      $$`),
  ),
}
