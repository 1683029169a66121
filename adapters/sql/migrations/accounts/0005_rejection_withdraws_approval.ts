/**
 * A rejection withdraws the approval (DECISIONS 18): a rejected application, or one archived while rejected,
 * keeps no `approved_at`, so a name, website, logo or appeal that sends it back to `pending` does not make it
 * send again before the console approves it. (A `pending` that already came back from `rejected` before this
 * migration cannot be told from one under re-review from `active`; it keeps its `approved_at`.)
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

export const migration: Migration = {
  number: 5,
  name: "rejection_withdraws_approval",
  run: Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`UPDATE applications SET approved_at = NULL
      WHERE approved_at IS NOT NULL
        AND (status = 'rejected' OR (status = 'archived' AND status_before_archive = 'rejected'))`.pipe(
      Effect.asVoid,
    )),
}
