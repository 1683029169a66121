/**
 * The foundation schema. Times are BIGINT epoch milliseconds, money BIGINT halalas. Runs inside the
 * advisory-locked migrator transaction of `../migrate.ts`, on PostgreSQL and PGlite alike.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

const statements: ReadonlyArray<string> = [
  `CREATE TABLE accounts (
    id uuid PRIMARY KEY,
    name text NOT NULL,
    sandbox_only boolean NOT NULL,
    partner boolean NOT NULL,
    status text NOT NULL,
    created_at bigint NOT NULL
  )`,
  `CREATE TABLE applications (
    id uuid PRIMARY KEY,
    account_id uuid NOT NULL,
    name text NOT NULL,
    status text NOT NULL,
    external_id text,
    paused boolean NOT NULL DEFAULT false,
    created_at bigint NOT NULL
  )`,
  `CREATE INDEX applications_account_external ON applications (account_id, external_id)`,
  `CREATE TABLE credentials (
    id uuid PRIMARY KEY,
    hash text NOT NULL UNIQUE,
    account_id uuid NOT NULL,
    application_id uuid,
    kind text NOT NULL,
    mode text,
    access jsonb NOT NULL,
    app_name text,
    expires_at bigint,
    ip_allowlist jsonb NOT NULL DEFAULT '[]',
    revoked_at bigint,
    created_at bigint NOT NULL
  )`,
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
  `CREATE TABLE wallets (
    account_id uuid PRIMARY KEY,
    balance_halalas bigint NOT NULL CHECK (balance_halalas >= 0)
  )`,
  `CREATE TABLE ledger (
    id bigserial PRIMARY KEY,
    account_id uuid NOT NULL,
    kind text NOT NULL CHECK (kind IN ('credit', 'charge', 'refund')),
    amount_halalas bigint NOT NULL,
    product text,
    reference text,
    at bigint NOT NULL
  )`,
  `CREATE INDEX ledger_account_at ON ledger (account_id, at)`,
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
  `CREATE TABLE webhook_endpoints (
    owner_kind text NOT NULL CHECK (owner_kind IN ('application', 'account')),
    owner_id text NOT NULL,
    url text NOT NULL,
    secret text NOT NULL,
    events jsonb NOT NULL DEFAULT '[]',
    PRIMARY KEY (owner_kind, owner_id)
  )`,
  `CREATE TABLE jobs (
    name text PRIMARY KEY,
    next_run_at bigint NOT NULL
  )`,
  `CREATE TABLE sim_sms (
    id text PRIMARY KEY,
    seq bigserial NOT NULL UNIQUE,
    "to" text NOT NULL,
    text text NOT NULL,
    sent_at bigint NOT NULL
  )`,
  `CREATE INDEX sim_sms_to_sent ON sim_sms ("to", sent_at DESC, seq DESC)`,
]

export default Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
)
