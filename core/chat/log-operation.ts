/** `chat.attendant.log.list` (DECISIONS 9.3, 10): every conversation the auto-attendant held, newest first. */
import { Either, Schema } from "effect"
import { everyRole } from "../accounts/callers.ts"
import { decodeQuery, Limit, PageOf } from "../accounts/lists.ts"
import { Chat as Limits } from "../limits.ts"
import { ErrorCode } from "../pipeline/decode.ts"
import { type AnyOperation, operation, type Parameter } from "../pipeline/operation.ts"
import { codePointLength, isStorableText, unstorableMessage } from "../shared/text.ts"
import { outcomeFilters, outcomes } from "./conversation.ts"
import { Conversations } from "./conversations.ts"

const LogEntry = Schema.Struct({
  id: Schema.UUID,
  customer_name: Schema.NullOr(Schema.String),
  phone: Schema.String.annotations({ description: "Masked (`+96650*****67`) unless the person manages contacts" }),
  choices: Schema.Array(Schema.Struct({ id: Schema.String, title: Schema.String, at: Schema.String })),
  outcome: Schema.Literal(...outcomes),
  collected: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.String })).annotations({
    description: "What the customer gave; null unless the person manages contacts",
  }),
  started_at: Schema.String,
  ended_at: Schema.NullOr(Schema.String),
}).annotations({ identifier: "AttendantLogEntry" })

const Query = Schema.String.pipe(
  Schema.filter((q) => codePointLength(q) <= Limits.logQueryMax, {
    message: () => `at most ${Limits.logQueryMax} characters`,
    [ErrorCode]: "too_long",
    jsonSchema: { maxLength: Limits.logQueryMax },
  }),
  Schema.filter((q) => isStorableText(q), { message: () => unstorableMessage }),
)

const LogQuery = Schema.Struct({
  q: Schema.optional(Query),
  outcome: Schema.optional(Schema.Literal(...outcomeFilters)),
  limit: Schema.optional(Limit(Limits.logMaxLimit)),
  cursor: Schema.optional(Schema.String),
})
const decodeLogQuery = decodeQuery(LogQuery)

const query = (name: string, description: string): Parameter => ({
  name,
  in: "query",
  description,
  schema: Schema.String,
  required: false,
})

export const logOperations = [
  operation({
    name: "chat.attendant.log.list",
    summary: "Every conversation the auto-attendant held, newest first, kept 90 days. `q`: part of the " +
      "customer's name (any case), and of the number for a person who manages contacts; `outcome`: one " +
      "outcome, or `ended` (expired or stopped).",
    returns: "A page of log entries: id, customer_name, phone (masked unless the person manages contacts), " +
      "choices, outcome, collected (null unless the person manages contacts), started_at, ended_at.",
    method: "GET",
    path: "/v1/applications/{application}/chat/attendant/log",
    caller: everyRole,
    answer: { status: 200, envelope: "data" },
    parameters: [
      {
        name: "application",
        in: "path",
        description: "An application of the token's account",
        schema: Schema.UUID,
        required: true,
      },
      query("q", `Part of the customer's name (or number), at most ${Limits.logQueryMax} characters`),
      query("outcome", `One of ${outcomeFilters.join(", ")} (\`ended\`: expired or stopped)`),
      query("limit", `1 to ${Limits.logMaxLimit}; default 20`),
      query("cursor", "A `next_cursor` as answered"),
    ],
    body: undefined,
    decode: (raw) => Either.map(decodeLogQuery(raw), (q) => ({ application: raw.params.application, query: q })),
    output: PageOf(LogEntry),
    errors: [],
    idempotent: false,
    service: Conversations,
    run: (s, p, input) => s.log(p, input.application, input.query),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
