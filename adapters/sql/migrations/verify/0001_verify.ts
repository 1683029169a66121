/**
 * Verifications, their sends, per-application settings, sandbox destinations.
 * Times are BIGINT epoch milliseconds, money BIGINT halalas. Runs inside the advisory-locked
 * migrator transaction of `../../migrate.ts`, on PostgreSQL and PGlite alike.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

const statements: ReadonlyArray<string> = [
  `CREATE TABLE verifications (
    id uuid PRIMARY KEY,
    application_id uuid NOT NULL,
    account_id uuid NOT NULL,
    "to" text NOT NULL,
    channel text NOT NULL,
    reference text,
    client_ip text,
    mode text NOT NULL,
    status text NOT NULL,
    attempts integer NOT NULL,
    max_attempts integer NOT NULL,
    resends integer NOT NULL,
    code_hash text NOT NULL,
    expires_at bigint NOT NULL,
    verified_at bigint,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
  )`,
  `CREATE INDEX verifications_application_mode ON verifications (application_id, mode)`,
  `CREATE INDEX verifications_pending_expiry ON verifications (expires_at) WHERE status = 'pending'`,
  `CREATE TABLE verify_sends (
    id bigserial PRIMARY KEY,
    verification_id uuid NOT NULL,
    application_id uuid NOT NULL,
    "to" text NOT NULL,
    client_ip text,
    price_halalas bigint NOT NULL,
    sent_at bigint NOT NULL
  )`,
  `CREATE INDEX verify_sends_destination ON verify_sends (application_id, "to", sent_at)`,
  `CREATE INDEX verify_sends_client_ip ON verify_sends (application_id, client_ip, sent_at)`,
  `CREATE INDEX verify_sends_application ON verify_sends (application_id, sent_at)`,
  `CREATE INDEX verify_sends_verification ON verify_sends (verification_id, sent_at)`,
  `CREATE TABLE verify_settings (
    application_id uuid PRIMARY KEY,
    settings jsonb NOT NULL
  )`,
  `CREATE TABLE sandbox_destinations (
    account_id uuid NOT NULL,
    "to" text NOT NULL,
    PRIMARY KEY (account_id, "to")
  )`,
]

export const migration: Migration = {
  number: 1,
  name: "verify",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
  ),
}
