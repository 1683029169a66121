/**
 * The SMS simulator's log, created only while the simulator is selected (not a production table).
 * Times are BIGINT epoch milliseconds, money BIGINT halalas. Runs inside the advisory-locked
 * migrator transaction of `../../migrate.ts`, on PostgreSQL and PGlite alike.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

const statements: ReadonlyArray<string> = [
  `CREATE TABLE sim_sms (
    id text PRIMARY KEY,
    seq bigserial NOT NULL UNIQUE,
    "to" text NOT NULL,
    text text NOT NULL,
    sent_at bigint NOT NULL
  )`,
  `CREATE INDEX sim_sms_to_sent ON sim_sms ("to", sent_at DESC, seq DESC)`,
]

export const migration: Migration = {
  number: 1,
  name: "sim_sms",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
  ),
}
