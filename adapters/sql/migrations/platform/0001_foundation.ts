/**
 * What every product shares: rate-limit windows, idempotency records, the outbox, job leases.
 * Times are BIGINT epoch milliseconds, money BIGINT halalas. Runs inside the advisory-locked
 * migrator transaction of `../../migrate.ts`, on PostgreSQL and PGlite alike.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

const statements: ReadonlyArray<string> = [
  `CREATE TABLE rate_windows (
    credential_hash text NOT NULL,
    window_start bigint NOT NULL,
    count integer NOT NULL,
    PRIMARY KEY (credential_hash, window_start)
  )`,
  `CREATE TABLE idempotency (
    scope text NOT NULL,
    key text NOT NULL,
    fingerprint text NOT NULL,
    state text NOT NULL CHECK (state IN ('in_progress', 'done')),
    status integer,
    body text,
    expires_at bigint NOT NULL,
    PRIMARY KEY (scope, key)
  )`,
  `CREATE INDEX idempotency_expires_at ON idempotency (expires_at)`,
  `CREATE TABLE outbox_events (
    id uuid PRIMARY KEY,
    seq bigserial NOT NULL UNIQUE,
    event text NOT NULL,
    data jsonb NOT NULL,
    application_id uuid,
    account_id uuid NOT NULL,
    external_id text,
    created_at bigint NOT NULL
  )`,
  `CREATE INDEX outbox_events_created ON outbox_events (created_at, seq)`,
  `CREATE TABLE jobs (
    name text PRIMARY KEY,
    next_run_at bigint NOT NULL
  )`,
]

export const migration: Migration = {
  number: 1,
  name: "foundation",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
  ),
}
