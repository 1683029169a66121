/**
 * Webhook endpoints, one per account or application.
 * Times are BIGINT epoch milliseconds, money BIGINT halalas. Runs inside the advisory-locked
 * migrator transaction of `../../migrate.ts`, on PostgreSQL and PGlite alike.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

const statements: ReadonlyArray<string> = [
  `CREATE TABLE webhook_endpoints (
    owner_kind text NOT NULL CHECK (owner_kind IN ('application', 'account')),
    owner_id text NOT NULL,
    url text NOT NULL,
    secret text NOT NULL,
    events jsonb NOT NULL DEFAULT '[]',
    PRIMARY KEY (owner_kind, owner_id)
  )`,
]

export const migration: Migration = {
  number: 1,
  name: "endpoints",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
  ),
}
