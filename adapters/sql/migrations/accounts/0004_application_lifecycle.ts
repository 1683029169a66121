/**
 * What the lifecycle of an application keeps (DECISIONS 13): when it was first approved, its brand (website,
 * logo), a rejection's reason, the state before archiving, when it last changed; and the index of the
 * account's application lists (newest first).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

export const migration: Migration = {
  number: 4,
  name: "application_lifecycle",
  run: Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.forEach([
      sql`ALTER TABLE applications ADD COLUMN IF NOT EXISTS approved_at bigint`,
      sql`ALTER TABLE applications ADD COLUMN IF NOT EXISTS website text`,
      sql`ALTER TABLE applications ADD COLUMN IF NOT EXISTS logo_sha256 text`,
      sql`ALTER TABLE applications ADD COLUMN IF NOT EXISTS logo_ext text`,
      sql`ALTER TABLE applications ADD COLUMN IF NOT EXISTS reason_code text`,
      sql`ALTER TABLE applications ADD COLUMN IF NOT EXISTS appealable boolean NOT NULL DEFAULT false`,
      sql`ALTER TABLE applications ADD COLUMN IF NOT EXISTS status_before_archive text`,
      sql`ALTER TABLE applications ADD COLUMN IF NOT EXISTS updated_at bigint`,
      // An application active before this migration was approved when it was made, as far as anyone knows.
      sql`UPDATE applications SET approved_at = created_at WHERE status = 'active' AND approved_at IS NULL`,
      sql`UPDATE applications SET updated_at = created_at WHERE updated_at IS NULL`,
      sql`CREATE INDEX IF NOT EXISTS applications_account_newest ON applications (account_id, created_at DESC, id DESC)`,
    ], (s) =>
      s, { discard: true })),
}
