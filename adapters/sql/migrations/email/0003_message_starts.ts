/**
 * Email: the message log's `q` by its shape (core/email/search.ts; docs/decisions.md "Email: the log's `q` by its
 * shape"). A `q` holding `@` (an address or its start) is the recipients starting with it, and a `q` without three
 * letters or digits in a row (no trigram for email/0002's index) the recipients and references starting with it:
 * each a range of one of these btrees, per application, in `text_pattern_ops` (byte order, whatever the database's
 * collation), so that the range holds exactly the texts starting with `q`.
 *
 * Over 1,000,000 messages a customer's address read through the trigram index took 55 ms at the median and 134 ms
 * at the 99th percentile (its trigrams `cus`, `ust`, ... in every row: GIN intersects those posting lists with the
 * rare ones), and a two-letter `q` that nothing matches read the whole log (2.7-5.2 s): each is now a range of a
 * btree, or the newest-first index when the planner's statistics say most rows start so.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

/** The indexed expressions: the list's statement uses them as they stand (the planner matches the index by them). */
export const recipientText = `lower("to")`
export const referenceText = `lower(reference)`

export const migration: Migration = {
  number: 3,
  name: "message_starts",
  run: Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.forEach([
      `CREATE INDEX email_messages_recipient ON email_messages (application_id, ${recipientText} text_pattern_ops)`,
      `CREATE INDEX email_messages_reference ON email_messages (application_id, ${referenceText} text_pattern_ops)`,
    ], (statement) =>
      sql.unsafe(statement), { discard: true })),
}
