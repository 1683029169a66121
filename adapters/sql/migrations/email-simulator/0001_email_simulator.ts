/**
 * Email's simulators (DECISIONS 8.3), created only while they are selected (not production tables): the DNS records
 * the simulated resolver answers (`values`, a jsonb array of strings; no row for an empty set) and the log of what
 * the simulated provider took, read newest first per recipient (`seq` orders equal times by arrival). Runs inside
 * the advisory-locked migrator transaction of `../../migrate.ts`.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

const statements: ReadonlyArray<string> = [
  `CREATE TABLE sim_dns_records (
    type text NOT NULL CHECK (type IN ('TXT', 'CNAME')),
    name text NOT NULL,
    "values" jsonb NOT NULL,
    PRIMARY KEY (type, name)
  )`,
  `CREATE TABLE sim_email_sent (
    id text PRIMARY KEY,
    seq bigserial NOT NULL UNIQUE,
    "from" text NOT NULL,
    "to" text NOT NULL,
    subject text NOT NULL,
    text text,
    html text,
    sent_at bigint NOT NULL
  )`,
  `CREATE INDEX sim_email_sent_to ON sim_email_sent ("to", sent_at DESC, seq DESC)`,
  `CREATE INDEX sim_email_sent_all ON sim_email_sent (sent_at DESC, seq DESC)`,
]

export const migration: Migration = {
  number: 1,
  name: "email_simulator",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
  ),
}
