/** The usage product's account-API operation: `clients.usage.show` (DECISIONS 10, 12 and 16). */
import { Either, Schema } from "effect"
import { everyRole } from "../accounts/callers.ts"
import { Limit as ListLimit } from "../accounts/lists.ts"
import { Lists, Prices } from "../limits.ts"
import { decodeQueryWith, ErrorCode } from "../pipeline/decode.ts"
import { InvalidRequest } from "../pipeline/errors.ts"
import { type AnyOperation, operation, type Parameter } from "../pipeline/operation.ts"
import { codePointLength, isStorableText } from "../shared/text.ts"
import { Usage, type UsageInput } from "./service.ts"

/** `q` is at most this many characters (code points). */
export const maxQueryLength = 100

const Month = Schema.String.pipe(Schema.pattern(/^\d{4}-\d{2}$/)).annotations({
  description: "`YYYY-MM`: this Riyadh month or one of the two before (default: this month)",
})
const Day = (description: string) =>
  Schema.String.pipe(Schema.pattern(/^\d{4}-\d{2}-\d{2}$/)).annotations({ description })
const Query = Schema.String.pipe(
  Schema.filter((q) => isStorableText(q) || "must not contain NUL or unpaired surrogates"),
  Schema.filter((q) => codePointLength(q) <= maxQueryLength, {
    jsonSchema: { maxLength: maxQueryLength },
    [ErrorCode]: "too_long",
    message: () => `at most ${maxQueryLength} characters`,
  }),
).annotations({ description: "Part of a name or `external_id` (any case), or an application id" })
const Limit = ListLimit()
/** `limit` as the query string carries it (the document's and the catalogue's view of `Limit`). */
const LimitText = Schema.String.pipe(Schema.pattern(/^\d+$/)).annotations({
  description: `An integer from 1 to ${Lists.maxLimit} (default ${Lists.defaultLimit})`,
})
const Cursor = Schema.String.annotations({ description: "A `next_cursor` as answered" })

/** The query string, every parameter optional; any other parameter is `400` code `unknown`. */
const From = Day("`YYYY-MM-DD`: the first Riyadh day, with `to` (not with `month`)")
const To = Day("`YYYY-MM-DD`: the last Riyadh day, inclusive, at most today, with `from`")
const UsageQuery = Schema.Struct({
  month: Schema.optional(Month),
  from: Schema.optional(From),
  to: Schema.optional(To),
  q: Schema.optional(Query),
  limit: Schema.optional(Limit),
  cursor: Schema.optional(Cursor),
})

const parameter = (
  name: keyof typeof UsageQuery.fields,
  schema: Schema.Schema<any, any>,
  description: string,
): Parameter => ({ name, in: "query", description, schema, required: false })

/** Step 4: each parameter once (a repeated one is `invalid`), then the Schema (unknown ones are `unknown`). */
const decodeUsageQuery = decodeQueryWith(UsageQuery)

const Halalas = Schema.Int.pipe(Schema.nonNegative())
const Count = Schema.Int.pipe(Schema.nonNegative())

const UsageRowOutput = Schema.Struct({
  application_id: Schema.UUID,
  external_id: Schema.NullOr(Schema.String),
  name: Schema.String,
  codes_sent: Count,
  codes_verified: Count,
  cost_halalas: Schema.optional(Halalas).annotations({ description: "Absent for agents" }),
}).annotations({ identifier: "UsageRow" })

export const UsageOutput = Schema.Struct({
  data: Schema.Struct({
    period: Schema.Struct({
      from: Schema.String.annotations({ description: "First Riyadh day, `YYYY-MM-DD`" }),
      to: Schema.String.annotations({ description: "Last Riyadh day (inclusive), `YYYY-MM-DD`" }),
      month: Schema.NullOr(Schema.String).annotations({ description: "`YYYY-MM`; null for a `from`/`to` range" }),
    }),
    price_per_code_halalas: Schema.optional(Halalas).annotations({
      description: `${Prices.verifySmsHalalas}; absent for agents`,
    }),
    rows: Schema.Array(UsageRowOutput),
    totals: Schema.Struct({
      applications: Count,
      codes_sent: Count,
      codes_verified: Count,
      cost_halalas: Schema.optional(Halalas).annotations({ description: "Absent for agents" }),
    }),
  }),
  next_cursor: Schema.NullOr(Schema.String),
}).annotations({ identifier: "ClientUsage" })

export const usageOperations = [
  operation({
    name: "clients.usage.show",
    summary: "Client usage for billing: per application, codes sent, codes verified and their cost (live and partner " +
      "keys), busiest first, with the totals of every row, the price per code and the period.",
    method: "GET",
    path: "/v1/clients/usage",
    caller: everyRole,
    // The list envelope `{ data, next_cursor }` puts `next_cursor` beside `data`, which `Answer`'s `"data"`
    // envelope cannot write: the use case answers the whole body and the envelope is `"bare"`.
    answer: { status: 200, envelope: "bare" },
    parameters: [
      parameter("month", Month, "A Riyadh month, `YYYY-MM`: this one (the default) or one of the two before"),
      parameter("from", From, "The first Riyadh day of a custom range, `YYYY-MM-DD` (with `to`)"),
      parameter("to", To, "The last Riyadh day of a custom range, inclusive, up to today (with `from`)"),
      parameter("q", Query, "Narrows the rows: part of a name or `external_id` (any case), or an application id"),
      parameter("limit", LimitText, `Rows per page, 1 to ${Lists.maxLimit} (default ${Lists.defaultLimit})`),
      parameter("cursor", Cursor, "The `next_cursor` of the previous page"),
    ],
    body: undefined,
    decode: ({ query }): Either.Either<UsageInput, InvalidRequest> => decodeUsageQuery(query),
    output: UsageOutput,
    returns: "One page of client usage: each application's codes sent, codes verified and cost (money absent for " +
      "agents), busiest first, with next_cursor, the totals of every row, the price per code and the period.",
    errors: [InvalidRequest],
    idempotent: false,
    service: Usage,
    run: (usage, p, input) => usage.show(p, input),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
