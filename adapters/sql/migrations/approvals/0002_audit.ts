/** The account's record of what was done to it (account.audit.list). */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

export const migration: Migration = {
  number: 2,
  name: "audit",
  run: Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.forEach([
      sql`CREATE TABLE IF NOT EXISTS audit_entries (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        at bigint NOT NULL,
        actor jsonb NOT NULL,
        application_id uuid,
        action text NOT NULL,
        details jsonb
      )`,
      sql`CREATE INDEX IF NOT EXISTS audit_entries_account ON audit_entries (account_id, at DESC, id DESC)`,
    ], (s) =>
      s, { discard: true })),
}
