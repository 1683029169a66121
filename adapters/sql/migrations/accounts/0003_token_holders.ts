/** The person an account token belongs to (DECISIONS 11, 14): member id, role, e-mail, `manage_contacts`. */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

export const migration: Migration = {
  number: 3,
  name: "token_holders",
  run: Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.forEach([
      sql`ALTER TABLE credentials ADD COLUMN IF NOT EXISTS member_id uuid`,
      sql`ALTER TABLE credentials ADD COLUMN IF NOT EXISTS role text`,
      sql`ALTER TABLE credentials ADD COLUMN IF NOT EXISTS email text`,
      sql`ALTER TABLE credentials ADD COLUMN IF NOT EXISTS manage_contacts boolean`,
      // Tokens issued before roles were the account owner's.
      sql`UPDATE credentials SET member_id = id, role = 'owner', manage_contacts = true
        WHERE kind = 'account_token' AND member_id IS NULL`,
    ], (s) =>
      s, { discard: true })),
}
