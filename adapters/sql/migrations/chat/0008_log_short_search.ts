/**
 * Chat: the attendant log's `q` without a trigram (fewer than three letters or digits in a row: `sa`, `ع`, `a-b`)
 * read through an index too. pg_trgm takes no trigram from such a `q`, so the trigram indexes of chat/0006 cannot
 * serve it, and the newest-first scan that tested it on every row read the whole log when few or none matched (2.1 s
 * over 1,000,000 conversations on PostgreSQL, 4.2 s on PGlite: bench/chat-log.ts).
 *
 * A text's grams are its characters and its pairs of adjacent characters (`chat_grams`, distinct, as a `text[]`);
 * a GIN index of them (PostgreSQL's own `array_ops`) finds the rows whose grams hold all of `q`'s (a one-character
 * `q` itself, a longer one its pairs: adapters/sql/search.ts `gramsOf`), which every row holding `q` as a part does.
 * The statement still tests `q` on those rows with chat/0006's `LIKE '%q%'` (escaped), so what matches is
 * unchanged (a part of the text, any case, `%` and `_` themselves), and that LIKE gives the planner its estimate of
 * the rows (its statistics' sample tested against the pattern). One index on the lowered name and one on the number
 * (a person who manages contacts searches both, `OR`: the planner reads the two and joins their bitmaps). The
 * planner reads them when it expects few rows to match, and the newest-first index (stopping at the page) when
 * many do, as with the trigrams.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"
import { nameText } from "./0006_log_search.ts"

/** The indexed expressions: the log's statement uses them as they stand (the planner matches an index by them). */
export const nameGrams = `chat_grams(${nameText})`
export const phoneGrams = `chat_grams(phone)`

export const migration: Migration = {
  number: 8,
  name: "log_short_search",
  run: Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.all([
      // IMMUTABLE (an index expression must be), STRICT (no name: no grams, no entry), PARALLEL SAFE.
      sql.unsafe(`CREATE FUNCTION chat_grams(t text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $$
        SELECT coalesce(array_agg(DISTINCT g), '{}') FROM (
          SELECT substr(t, i, 1) AS g FROM generate_series(1, length(t)) AS i
          UNION ALL
          SELECT substr(t, i, 2) FROM generate_series(1, length(t) - 1) AS i
        ) AS grams
      $$`),
      sql.unsafe(`CREATE INDEX chat_conversations_name_grams ON chat_conversations USING gin (${nameGrams})
        WITH (gin_pending_list_limit = 256)`),
      sql.unsafe(`CREATE INDEX chat_conversations_phone_grams ON chat_conversations USING gin (${phoneGrams})
        WITH (gin_pending_list_limit = 256)`),
    ], { discard: true })),
}
