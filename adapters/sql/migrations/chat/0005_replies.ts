/**
 * Chat: the auto-attendant's replies waiting to leave through the chat network (ports/store/chat-replies.ts). A
 * customer's queue is read in `seq` order (`chat_replies_queue`), the delivery job by due time
 * (`chat_replies_due`); a sent reply is deleted. `message` is JSON text; times are BIGINT epoch milliseconds.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

const statements: ReadonlyArray<string> = [
  `CREATE TABLE chat_replies (
    id uuid PRIMARY KEY,
    seq bigserial NOT NULL,
    application_id uuid NOT NULL,
    phone text NOT NULL,
    conversation_id uuid NOT NULL,
    message text NOT NULL,
    lang text NOT NULL,
    created_at bigint NOT NULL,
    due_at bigint NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    claimed_until bigint
  )`,
  `CREATE INDEX chat_replies_queue ON chat_replies (application_id, phone, seq)`,
  `CREATE INDEX chat_replies_due ON chat_replies (due_at)`,
]

export const migration: Migration = {
  number: 5,
  name: "replies",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
  ),
}
