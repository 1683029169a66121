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
 * Whether pg_trgm takes a trigram from `q` as a LIKE pattern's middle: three letters or digits in a row (its word
 * characters; in a UTF-8 database, PostgreSQL's and PGlite's, any script's). From a shorter `q` it takes none, and
 * a trigram index would be read whole: such a `q` is tested on the rows of the newest-first scan instead, which
 * stops at the page's end (docs/decisions.md, "The logs' `q` through trigram indexes").
 */
export const hasTrigram = (q: string): boolean => /[\p{L}\p{N}]{3}/u.test(q)
