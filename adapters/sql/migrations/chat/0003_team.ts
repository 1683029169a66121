/**
 * Chat: each application's team (DECISIONS 9.4), members added by e-mail or mobile, one each per application; the
 * persons of the account's tokens are read from `credentials`. The invitation link's secret is kept as its keyed
 * hash. Listed oldest first (`chat_team_list`). Times are BIGINT epoch milliseconds.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

const statements: ReadonlyArray<string> = [
  `CREATE TABLE chat_team (
    id uuid PRIMARY KEY,
    application_id uuid NOT NULL,
    name text,
    email text,
    mobile text,
    role text NOT NULL,
    status text NOT NULL,
    invited_at bigint NOT NULL,
    joined_at bigint,
    created_at bigint NOT NULL,
    invitation_hash text
  )`,
  `CREATE UNIQUE INDEX chat_team_email ON chat_team (application_id, email) WHERE email IS NOT NULL`,
  `CREATE UNIQUE INDEX chat_team_mobile ON chat_team (application_id, mobile) WHERE mobile IS NOT NULL`,
  `CREATE INDEX chat_team_list ON chat_team (application_id, created_at, id)`,
  `CREATE UNIQUE INDEX chat_team_invitation ON chat_team (invitation_hash) WHERE invitation_hash IS NOT NULL`,
  // The persons of an account's tokens (DECISIONS 17: members of every team), found by account.
  `CREATE INDEX IF NOT EXISTS credentials_token_holders ON credentials (account_id, member_id)
    WHERE kind = 'account_token' AND revoked_at IS NULL`,
]

export const migration: Migration = {
  number: 3,
  name: "team",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
  ),
}
