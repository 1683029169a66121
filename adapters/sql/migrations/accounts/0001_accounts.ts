/**
 * Accounts, applications, credentials (keys and tokens), wallets and their ledger.
 * Times are BIGINT epoch milliseconds, money BIGINT halalas. Runs inside the advisory-locked
 * migrator transaction of `../../migrate.ts`, on PostgreSQL and PGlite alike.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

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
]

export const migration: Migration = {
  number: 1,
  name: "accounts",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
  ),
}
