/**
 * Chat: the auto-attendant's conversations, which are also its log (DECISIONS 9.3). The log is listed newest first
 * per application (`chat_conversations_log`); a customer has at most one ongoing conversation per application
 * (`chat_conversations_ongoing`); the expiry job reads ongoing ones by the customer's last message and the retention
 * job by `started_at`. `choices` and `collected` are JSON text. Times are BIGINT epoch milliseconds.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

const statements: ReadonlyArray<string> = [
  `CREATE TABLE chat_conversations (
    id uuid PRIMARY KEY,
    application_id uuid NOT NULL,
    phone text NOT NULL,
    customer_name text,
    version integer NOT NULL,
    level text,
    choices text NOT NULL,
    outcome text NOT NULL,
    collected text NOT NULL,
    started_at bigint NOT NULL,
    last_customer_at bigint NOT NULL,
    ended_at bigint
  )`,
  `CREATE INDEX chat_conversations_log ON chat_conversations (application_id, started_at DESC, id DESC)`,
  `CREATE UNIQUE INDEX chat_conversations_ongoing ON chat_conversations (application_id, phone)
    WHERE outcome = 'ongoing'`,
  `CREATE INDEX chat_conversations_silent ON chat_conversations (last_customer_at) WHERE outcome = 'ongoing'`,
  `CREATE INDEX chat_conversations_started ON chat_conversations (started_at)`,
]

export const migration: Migration = {
  number: 2,
  name: "conversations",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
  ),
}
