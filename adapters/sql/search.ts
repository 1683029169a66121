/**
 * The logs' `q` over SQL (email.messages.list, chat.attendant.log.list): a part of a text, found through a GIN
 * trigram index (migrations/trigram.ts) when `q` gives pg_trgm a trigram; else Email's log by the starts of its
 * fields (core/email/search.ts) and the attendant log through its grams (migrations/chat/0008).
 */

/**
 * `q` as a LIKE pattern that matches the texts containing it: `%q%` with q's own `\`, `%` and `_` escaped (LIKE's
 * escape character is `\`), so that they match themselves as `strpos` would.
 */
export const containsPattern = (q: string): string => `%${q.replace(/[\\%_]/g, "\\$&")}%`

/**
 * The byte-order range of a `text_pattern_ops` btree that holds exactly the texts starting with `q`: from `q` to
 * `q` with its last character's code point one higher (UTF-8's byte order is the code points' order), which no
 * text starting with `q` reaches and every other text at or above `q` does. `upper` is null when no such text
 * exists (`q` empty, or ending in U+10FFFF): the range is open above, and the statement tests the start as well.
 */
export const startRange = (q: string): { readonly lower: string; readonly upper: string | null } => {
  const chars = [...q]
  const last = chars.pop()?.codePointAt(0)
  if (last === undefined || last >= 0x10ffff) return { lower: q, upper: null }
  const next = last + 1 === 0xd800 ? 0xe000 : last + 1
  return { lower: q, upper: chars.join("") + String.fromCodePoint(next) }
}

/**
 * What the grams indexes (chat/0008 `chat_grams`) must hold for a text to contain `q`: `q` itself when it is one
 * character, else its pairs of adjacent characters (code points, as PostgreSQL's `substr` counts them), distinct.
 */
export const gramsOf = (q: string): ReadonlyArray<string> => {
  const chars = [...q]
  if (chars.length < 2) return chars
  return [...new Set(chars.slice(1).map((c, i) => chars[i] + c))]
}

/** A `text[]` literal of these strings (each quoted, its `"` and `\` escaped), for a `$n::text[]` parameter. */
export const textArray = (items: ReadonlyArray<string>): string =>
  `{${items.map((s) => `"${s.replace(/["\\]/g, "\\$&")}"`).join(",")}}`

export { hasTrigram } from "../../core/shared/text.ts"
