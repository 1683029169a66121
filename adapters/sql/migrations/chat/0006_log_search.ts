/**
 * Chat: the attendant log's `q` (a part of the customer's name, any case; and of the number for a person who
 * manages contacts) read through GIN trigram indexes (pg_trgm; ../trigram.ts) instead of a test on every row the
 * newest-first scan visits. One index each, since a person who does not manage contacts searches names only:
 * the name lowered (`customer_name` may be null: no entry) and the number as stored (`+9665…`). The log
 * (adapters/sql/chat-conversations.ts `page`) tests `lower(customer_name) LIKE '%q%'` (q lowered, its `\`, `%`
 * and `_` escaped), with `OR phone LIKE '%n%'` for the number; the planner reads them through these indexes when
 * few rows match, through the newest-first one (`chat_conversations_log`, stopping at the page) when many do.
 */
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"
import { trigramIndexes } from "../trigram.ts"

/** The indexed name: the log's statement uses this expression as it stands (the planner matches the index by it). */
export const nameText = `lower(customer_name)`

export const migration: Migration = {
  number: 6,
  name: "log_search",
  run: Effect.asVoid(trigramIndexes([
    { name: "chat_conversations_name_search", table: "chat_conversations", expression: nameText },
    { name: "chat_conversations_phone_search", table: "chat_conversations", expression: "phone" },
  ])),
}
