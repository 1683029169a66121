/**
 * The guard's verified credits spread over eight rows a minute (`shard` 1 to 8, by the code's id), apart from the
 * row its sends count in (`shard` 0): concurrent checks of one application no longer queue on one row
 * (adapters/sql/verify.ts, `guardCreditShards`). The rows there are become shard 0.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

const statements: ReadonlyArray<string> = [
  `ALTER TABLE verify_guard ADD COLUMN shard smallint NOT NULL DEFAULT 0`,
  `ALTER TABLE verify_guard DROP CONSTRAINT verify_guard_pkey`,
  `ALTER TABLE verify_guard ADD PRIMARY KEY (application_id, epoch, minute, shard)`,
]

export const migration: Migration = {
  number: 3,
  name: "guard_credit_shards",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
  ),
}
