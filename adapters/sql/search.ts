/**
 * The logs' `q` over SQL (email.messages.list, chat.attendant.log.list): a part of a text, found through a GIN
 * trigram index (migrations/trigram.ts) when `q` gives pg_trgm a trigram, else by the newest-first scan.
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

export { hasTrigram } from "../../core/shared/text.ts"
