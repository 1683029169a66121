/**
 * Cursors of the account API's lists (DECISIONS 10): opaque to the caller, tamper-evident, and bound to the
 * account and the list they came from. A cursor is base64url of `{list, account, after}` and a keyed hash
 * (HMAC with the platform secret, through `Secrets.hash`) of that text: a forged, altered, or another
 * account's or another list's cursor answers `400 invalid_request` (`errors.cursor: "invalid"`), never rows.
 */
import { Effect, Either } from "effect"
import { Secrets } from "../../ports/secrets.ts"
import { InvalidRequest } from "./errors.ts"

const refused = new InvalidRequest({
  message: "`cursor` is not a cursor this list gave: pass a `next_cursor` as it was answered.",
  fields: { cursor: "is not a cursor of this list" },
  errors: { cursor: "invalid" },
})

const toBase64Url = (text: string): string =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text))).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "")

const fromBase64Url = (text: string): string | undefined => {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined
  try {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"))
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))
  } catch {
    return undefined
  }
}

/** Where a page ends: whatever the list orders by (e.g. `[created_at, id]`), as JSON values. */
export type Position = ReadonlyArray<string | number | null>

export interface Cursors {
  /** The `next_cursor` after `position` in list `list` of `account`. */
  readonly make: (list: string, account: string, position: Position) => string
  /** The position a cursor holds, if it is one this list of this account gave; else `400 invalid_request`. */
  readonly read: (list: string, account: string, cursor: string) => Either.Either<Position, InvalidRequest>
}

export const makeCursors: Effect.Effect<Cursors, never, Secrets> = Effect.map(Secrets, (secrets): Cursors => ({
  make: (list, account, position) => {
    const payload = JSON.stringify([list, account, position])
    return `${toBase64Url(payload)}.${secrets.hash(`cursor:${payload}`).slice(0, 32)}`
  },
  read: (list, account, cursor) => {
    const dot = cursor.lastIndexOf(".")
    const payload = dot === -1 ? undefined : fromBase64Url(cursor.slice(0, dot))
    if (payload === undefined || cursor.length > 2048) return Either.left(refused)
    const expected = secrets.hash(`cursor:${payload}`).slice(0, 32)
    if (!secrets.equal(expected, cursor.slice(dot + 1))) return Either.left(refused)
    const [l, a, position] = JSON.parse(payload) as [string, string, Position]
    return l === list && a === account && Array.isArray(position) ? Either.right(position) : Either.left(refused)
  },
}))
