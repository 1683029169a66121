/**
 * The account API's lists (DECISIONS 10): `{ data, next_cursor }`, `limit` 1-100 (default 20), `cursor` a
 * `next_cursor` as answered (core/pipeline/cursor.ts), `null` at the end.
 */
import { Schema } from "effect"
import { Lists } from "../limits.ts"
import { decodeWith } from "../pipeline/decode.ts"
import type { RawInput } from "../pipeline/operation.ts"

/** Marks a use case's answer as a page, which the HTTP edge writes as `{ data, next_cursor }`. */
export const PageMark: unique symbol = Symbol.for("sa-messaging/Page")

export interface Page<A> {
  readonly [PageMark]: true
  readonly data: ReadonlyArray<A>
  readonly next_cursor: string | null
}

export const page = <A>(data: ReadonlyArray<A>, next_cursor: string | null): Page<A> => ({
  [PageMark]: true,
  data,
  next_cursor,
})

export const isPage = (o: unknown): o is Page<unknown> =>
  typeof o === "object" && o !== null && (o as Record<symbol, unknown>)[PageMark] === true

/** `limit` as a query parameter: an integer from 1 to `max` (100 unless the spec says otherwise). */
export const Limit = (max: number = Lists.maxLimit) =>
  Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, max)).annotations({
    description: `1 to ${max}; default ${Lists.defaultLimit}`,
  })

/** The query of a plain list: `limit` and `cursor`. */
export const ListQuery = Schema.Struct({
  limit: Schema.optional(Limit()),
  cursor: Schema.optional(Schema.String),
})

/** The Schema of a page of `item` (for the document). */
export const PageOf = <A, I>(item: Schema.Schema<A, I>) =>
  Schema.Struct({ data: Schema.Array(item), next_cursor: Schema.NullOr(Schema.String) })

/** Decodes an operation's query string with its Schema (unknown parameters: 400 `unknown`). */
export const decodeQuery = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = decodeWith(schema)
  return (raw: RawInput) => decode(Object.fromEntries(raw.query))
}
