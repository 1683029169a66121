/**
 * Text the stores can hold. PostgreSQL's text cannot hold U+0000, and UTF-8 cannot encode a lone UTF-16
 * surrogate; JSON can carry both (`"\u0000"`, `"\ud800"`). Such strings are refused at the edge as
 * `400 invalid_request` naming the field, on every store alike, instead of failing inside the database.
 */
import { Http } from "../limits.ts"

/**
 * A refused value as a refusal quotes it (a name, a field's value, a message built on one): its first
 * `Http.maxEchoChars` characters, then `…` when there were more (DECISIONS 18). A surrogate pair is not split.
 */
export const echo = (s: string): string => {
  const max = Http.maxEchoChars
  if (s.length <= max) return s
  const c = s.charCodeAt(max - 1)
  return `${s.slice(0, c >= 0xd800 && c <= 0xdbff ? max - 1 : max)}…`
}

/** True when `s` holds no NUL and no unpaired surrogate. */
export const isStorableText = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c === 0) return false
    if (c >= 0xd800 && c <= 0xdfff) {
      if (c >= 0xdc00) return false
      const next = s.charCodeAt(i + 1)
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false
      i++
    }
  }
  return true
}

/** Length in Unicode code points, as the spec counts characters (an emoji is one, not two UTF-16 units). */
export const codePointLength = (s: string): number => {
  let n = s.length
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        n--
        i++
      }
    }
  }
  return n
}

export const unstorableMessage = "must not contain NUL (U+0000) or unpaired surrogates"

const fieldName = (parent: string, key: string): string => parent === "" ? key : `${parent}.${key}`

/**
 * Every field of a parsed JSON value holding a string (or a property name) the stores cannot hold, by its
 * path (`reference`, `guard.name`, `ip_allowlist[2]`); undefined when there is none. Iterative: a body may
 * nest deeper than the call stack.
 */
export const unstorableFields = (value: unknown): Record<string, string> | undefined => {
  let found: Record<string, string> | undefined
  const pending: Array<readonly [unknown, string]> = [[value, ""]]
  while (pending.length > 0) {
    const [v, path] = pending.pop()!
    if (typeof v === "string") {
      if (!isStorableText(v)) (found ??= {})[path === "" ? "body" : path] = unstorableMessage
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) pending.push([v[i], `${path}[${i}]`])
    } else if (typeof v === "object" && v !== null) {
      const keys = Object.keys(v)
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]
        if (isStorableText(key)) pending.push([(v as Record<string, unknown>)[key], fieldName(path, key)])
        else (found ??= {})[fieldName(path, JSON.stringify(key).slice(1, -1))] = unstorableMessage
      }
    }
  }
  return found
}

/**
 * Whether a search text has three letters or digits in a row (any script's): pg_trgm takes a trigram from such a
 * text as a LIKE pattern's middle, and from no shorter one (the logs' `q`, adapters/sql/search.ts).
 */
export const hasTrigram = (q: string): boolean => /[\p{L}\p{N}]{3}/u.test(q)
