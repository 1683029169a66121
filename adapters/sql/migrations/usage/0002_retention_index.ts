/**
 * Verify's verifications are kept while the usage read and the partner verification log need them
 * (docs/decisions.md, "Retention"): the retention job finds the terminal live and partner ones by age through
 * this index (pending and sandbox ones are never dropped, so it leaves them out). Kept by the usage product,
 * beside its other index on Verify's table. Runs inside the advisory-locked migrator transaction of
 * `../../migrate.ts`, on PostgreSQL and PGlite alike.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

export const migration: Migration = {
  number: 2,
  name: "retention_index",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql.unsafe(
        `CREATE INDEX verifications_retention ON verifications (created_at)
          WHERE status <> 'pending' AND mode NOT IN ('test', 'partner_test')`,
      ),
  ),
}
