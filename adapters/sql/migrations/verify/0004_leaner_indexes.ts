/**
 * Fewer index entries per verification (issue 13): the count of sandbox starts reads only sandbox verifications,
 * so its index holds only those (a live start and its check no longer add two entries to it); a refused send is
 * found among its application's sends at its time, so sends need no index by verification.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

const statements: ReadonlyArray<string> = [
  `CREATE INDEX verifications_sandbox ON verifications (application_id) WHERE mode IN ('test', 'partner_test')`,
  `DROP INDEX verifications_application_mode`,
  `DROP INDEX verify_sends_verification`,
]

export const migration: Migration = {
  number: 4,
  name: "leaner_indexes",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
  ),
}
