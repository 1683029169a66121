/**
 * Chat: an `after_hours` attendant counts the application's recent hand-overs (conversations ended `team` within
 * `Chat.handoverBusyMs`) before it answers a new customer (core/chat/conversations.ts): a partial index on them,
 * by application and end, so the count reads only those rows.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

export const migration: Migration = {
  number: 7,
  name: "handovers",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql`CREATE INDEX chat_conversations_handovers ON chat_conversations (application_id, ended_at)
        WHERE outcome = 'team'`.pipe(Effect.asVoid),
  ),
}
