/**
 * The wallet's own tables (DECISIONS 12): each top-up's method beside its ledger credit, the account's wallet
 * settings and card, top-up links, proformas and their per-year counters. The balance (`wallets`) and the
 * ledger (`ledger`) are the accounts product's (accounts/0001). Times are BIGINT epoch milliseconds, money
 * BIGINT halalas.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

const statements: ReadonlyArray<string> = [
  `CREATE TABLE wallet_topups (
    seq bigserial PRIMARY KEY,
    id uuid NOT NULL UNIQUE,
    account_id uuid NOT NULL,
    method text NOT NULL CHECK (method IN ('link', 'bank_transfer', 'auto', 'console')),
    amount_halalas bigint NOT NULL CHECK (amount_halalas > 0),
    at bigint NOT NULL
  )`,
  `CREATE INDEX wallet_topups_account_at ON wallet_topups (account_id, at)`,
  `CREATE TABLE wallet_settings (
    account_id uuid PRIMARY KEY,
    low_balance_alert_halalas bigint NOT NULL,
    auto_topup_enabled boolean NOT NULL,
    auto_topup_threshold_halalas bigint NOT NULL,
    auto_topup_amount_halalas bigint NOT NULL,
    card_brand text,
    card_last4 text,
    card_token text
  )`,
  `CREATE TABLE topup_links (
    id uuid PRIMARY KEY,
    account_id uuid NOT NULL,
    url text NOT NULL,
    status text NOT NULL CHECK (status IN ('open', 'paid')),
    amount_halalas bigint NOT NULL,
    vat_halalas bigint NOT NULL,
    total_halalas bigint NOT NULL,
    expires_at bigint NOT NULL,
    created_at bigint NOT NULL,
    paid_at bigint
  )`,
  `CREATE TABLE proforma_counters (
    year integer PRIMARY KEY,
    last bigint NOT NULL
  )`,
  `CREATE TABLE proformas (
    id uuid PRIMARY KEY,
    account_id uuid NOT NULL,
    number text NOT NULL UNIQUE,
    status text NOT NULL CHECK (status IN ('open', 'paid')),
    amount_halalas bigint NOT NULL,
    vat_halalas bigint NOT NULL,
    total_halalas bigint NOT NULL,
    buyer jsonb NOT NULL,
    iban text NOT NULL,
    issued_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    paid_at bigint
  )`,
]

export const migration: Migration = {
  number: 1,
  name: "wallet",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
  ),
}
