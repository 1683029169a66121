/**
 * The account API's lists (DECISIONS 10): `{ data, next_cursor }`, `limit` 1-100 (default 20), `cursor` a
 * `next_cursor` as answered (core/pipeline/cursor.ts), `null` at the end.
 */
import { Effect, Either, Schema } from "effect"
import { Lists } from "../limits.ts"
import { decodeQueryWith } from "../pipeline/decode.ts"
import type { Parameter, RawInput } from "../pipeline/operation.ts"
import type { Cursors, Position } from "../pipeline/cursor.ts"
import type { InvalidRequest } from "../pipeline/errors.ts"

/** Marks a use case's answer as a page, which its route renders as `{ data, next_cursor }`. */
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

/** Decodes an operation's query string with its Schema (core/pipeline/decode.ts `decodeQueryWith`). */
export const decodeQuery = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = decodeQueryWith(schema)
  return (raw: RawInput) => decode(raw.query)
}

/** `limit` alone, for a console list answered as one array (no cursor): decoded by `Limit`. */
export const limitParameter: Parameter = {
  name: "limit",
  in: "query",
  description: `At most this many (1 to ${Lists.maxLimit}, default ${Lists.defaultLimit})`,
  schema: Limit(),
  required: false,
}

/** `limit` and `cursor` as a list operation declares them (the query string carries text). */
export const listParameters: ReadonlyArray<Parameter> = [
  {
    name: "limit",
    in: "query",
    description: `1 to ${Lists.maxLimit}; default ${Lists.defaultLimit}`,
    schema: Schema.String,
    required: false,
  },
  { name: "cursor", in: "query", description: "A `next_cursor` as answered", schema: Schema.String, required: false },
]

/**
 * One page of a list ordered by a position (e.g. `[created_at, id]`, newest first): the cursor read (a forged
 * or foreign one is `400`), one more row than the page fetched to tell whether there is a next page, and the
 * next cursor made from the last row shown.
 */
export const keysetPage = <Row, Out>(
  cursors: Cursors,
  list: string,
  account: string,
  q: typeof ListQuery.Type,
  fetch: (after: Position | null, limit: number) => Effect.Effect<ReadonlyArray<Row>>,
  positionOf: (row: Row) => Position,
  render: (row: Row) => Out,
): Effect.Effect<Page<Out>, InvalidRequest> => {
  const after = q.cursor === undefined ? Either.right(null) : cursors.read(list, account, q.cursor)
  if (Either.isLeft(after)) return Effect.fail(after.left)
  const limit = q.limit ?? Lists.defaultLimit
  return Effect.map(fetch(after.right, limit + 1), (found) => {
    const shown = found.slice(0, limit)
    const next = found.length > limit ? cursors.make(list, account, positionOf(shown[shown.length - 1])) : null
    return page(shown.map(render), next)
  })
}
