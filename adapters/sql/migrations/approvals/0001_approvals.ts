/** Approvals of account-API operations and each account's approval policy (DECISIONS 11). */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

export const migration: Migration = {
  number: 1,
  name: "approvals",
  run: Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.forEach([
      sql`CREATE TABLE IF NOT EXISTS approvals (
        id uuid PRIMARY KEY,
        seq bigserial NOT NULL,
        account_id uuid NOT NULL,
        operation text NOT NULL,
        input jsonb NOT NULL,
        input_key text NOT NULL,
        idempotency_key text,
        requested_by uuid,
        status text NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'used')),
        created_at bigint NOT NULL,
        expires_at bigint NOT NULL,
        decided_at bigint,
        note text
      )`,
      sql`CREATE INDEX IF NOT EXISTS approvals_request ON approvals (account_id, operation, md5(input_key), created_at)`,
      sql`CREATE TABLE IF NOT EXISTS approval_policies (
        account_id uuid PRIMARY KEY,
        operations jsonb NOT NULL
      )`,
    ], (s) =>
      s, { discard: true })),
}
