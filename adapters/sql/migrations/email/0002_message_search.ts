/**
 * Email: the message log's `q` (a part of the recipient, the subject or the reference, any case) read through a
 * GIN trigram index (pg_trgm; ../trigram.ts) instead of a test on every row the newest-first scan visits, which
 * over 1,000,000 messages took 1.7-8.3 s for a `q` that few messages match.
 *
 * One index over the three fields lowered and joined by a line break (`searchText`): one index to keep up on a
 * send instead of three, and one bitmap scan on a search. The list (adapters/sql/email.ts `listStatement`) tests
 * `searchText LIKE '%q%'` (q lowered, its `\`, `%` and `_` escaped), which the planner reads through this index
 * when few rows match and through the newest-first index (`email_messages_list`, stopping at the page) when many
 * do; a `q` that holds a line break (which could match across two fields) is tested on each field as well.
 */
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"
import { trigramIndexes } from "../trigram.ts"

/**
 * The indexed text: the list's statement uses this expression as it stands (the planner matches the index by it).
 * Each field lowered on its own, so a field's match is the joined text's match.
 */
export const searchText = `(lower("to") || E'\\n' || lower(subject) || E'\\n' || coalesce(lower(reference), ''))`

export const migration: Migration = {
  number: 2,
  name: "message_search",
  run: Effect.asVoid(
    trigramIndexes([{ name: "email_messages_search", table: "email_messages", expression: searchText }]),
  ),
}
