/**
 * The Partner API's reads built here (DECISIONS 13): the event feed, a client application's verification log
 * and the services a partner can provision. Caller: a partner key of either mode.
 */
import { Effect, Either, Schema } from "effect"
import { Limit } from "../accounts/lists.ts"
import { Lists } from "../limits.ts"
import { decodeQueryWith } from "../pipeline/decode.ts"
import { InvalidRequest, ServiceNotFound } from "../pipeline/errors.ts"
import { type AnyOperation, operation, type Parameter } from "../pipeline/operation.ts"
import { SaudiMobileFromString } from "../shared/phone.ts"
import { codePointLength, echo, isStorableText } from "../shared/text.ts"
import { maxReferenceLength } from "../verify/requests.ts"
import { PartnerFeedEvents } from "./feed-events.ts"
import { PartnerFeed } from "./feed.ts"
import { partnerServices } from "./services.ts"
import { VerificationLog } from "./verification-log.ts"

const partner = { _tag: "Partner" } as const

const LimitText = Schema.String.pipe(Schema.pattern(/^\d+$/)).annotations({
  description: `An integer from 1 to ${Lists.maxLimit} (default ${Lists.defaultLimit})`,
})
const Cursor = Schema.String.annotations({ description: "A `next_cursor` as answered" })
const query = (name: string, schema: Schema.Schema<any, any>, description: string): Parameter => ({
  name,
  in: "query",
  description,
  schema,
  required: false,
})

// --- The event feed -----------------------------------------------------------------------------------------

const splitTypes = (types: string): ReadonlyArray<string> =>
  types.split(",").map((t) => t.trim()).filter((t) => t !== "")

const Types = Schema.String.pipe(
  Schema.filter((types) => {
    const names = splitTypes(types)
    return (names.length > 0 && names.every((n) => PartnerFeedEvents.includes(n))) ||
      `a comma-separated list of: ${PartnerFeedEvents.join(", ")}`
  }),
).annotations({ description: `Comma-separated event names: ${PartnerFeedEvents.join(", ")}` })

const FeedQuery = Schema.Struct({
  cursor: Schema.optional(Cursor),
  limit: Schema.optional(Limit()),
  types: Schema.optional(Types),
})
const decodeFeedQuery = decodeQueryWith(FeedQuery)

const FeedEntry = Schema.Struct({
  id: Schema.String.annotations({ description: "The `webhook-id` of the event's delivery to the account" }),
  event: Schema.String,
  data: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  created_at: Schema.String,
}).annotations({ identifier: "PartnerFeedEntry" })

export const FeedOutput = Schema.Struct({
  data: Schema.Array(FeedEntry),
  next_cursor: Schema.String.annotations({ description: "Never null: the position after the last entry given" }),
}).annotations({ identifier: "PartnerFeed" })

// --- The verification log -----------------------------------------------------------------------------------

const Statuses = ["pending", "verified", "failed", "expired", "canceled"] as const
/** ISO 8601 date-time with a zone (`2026-05-01T00:00:00Z`, `2026-05-01T03:00:00.000+03:00`). */
const DateTime = Schema.String.pipe(
  Schema.filter((s) =>
    (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(s) &&
      !Number.isNaN(Date.parse(s))) ||
    "an ISO 8601 date-time with a zone, e.g. 2026-05-01T00:00:00Z"
  ),
)
const Reference = Schema.String.pipe(
  Schema.filter((r) =>
    (isStorableText(r) && codePointLength(r) <= maxReferenceLength) ||
    `at most ${maxReferenceLength} characters`
  ),
)
const LogQuery = Schema.Struct({
  status: Schema.optional(Schema.Literal(...Statuses)),
  to: Schema.optional(SaudiMobileFromString),
  reference: Schema.optional(Reference),
  since: Schema.optional(DateTime),
  until: Schema.optional(DateTime),
  limit: Schema.optional(Limit()),
  cursor: Schema.optional(Cursor),
})
const decodeLogQuery = decodeQueryWith(LogQuery)

const VerificationEntry = Schema.Struct({
  id: Schema.UUID,
  status: Schema.String,
  application_id: Schema.UUID,
  reference: Schema.NullOr(Schema.String),
  channel: Schema.String,
  to: Schema.String,
  mode: Schema.String,
  attempts: Schema.Int,
  expires_at: Schema.String,
  verified_at: Schema.NullOr(Schema.String),
  created_at: Schema.String,
  external_id: Schema.NullOr(Schema.String),
}).annotations({ identifier: "PartnerVerification" })

export const VerificationLogOutput = Schema.Struct({
  data: Schema.Array(VerificationEntry),
  next_cursor: Schema.NullOr(Schema.String),
}).annotations({ identifier: "PartnerVerificationLog" })

// --- Services -----------------------------------------------------------------------------------------------

const Bounds = Schema.Struct({ min: Schema.Int, max: Schema.NullOr(Schema.Int) })
const Settings = <A, I>(value: Schema.Schema<A, I>) =>
  Schema.Struct({
    code_length: value,
    code_lifetime_minutes: value,
    max_attempts: value,
    hourly_cap_per_destination: value,
    max_per_ip_per_hour: value,
    daily_spend_cap_halalas: value,
  })

export const ServicesOutput = Schema.Struct({
  data: Schema.Array(Schema.Struct({
    id: Schema.Literal("verify"),
    channels: Schema.Array(Schema.String),
    price_per_code_halalas: Schema.Int,
    bounds: Settings(Bounds),
    defaults: Settings(Schema.NullOr(Schema.Int)),
  })),
}).annotations({ identifier: "PartnerServices" })

/** The services read has no state: a service of its own keeps the operation's shape. */
export class PartnerServices extends Effect.Service<PartnerServices>()("core/PartnerServices", {
  succeed: { list: Effect.succeed(partnerServices) },
}) {}

export const partnerFeedOperations = [
  operation({
    name: "partner.events.list",
    summary: "The partner's event feed: every service.*, balance.low and the partner's verification.* copies " +
      "(with external_id), oldest first after cursor, kept 30 days, whatever the webhook subscribes to. " +
      "next_cursor is never null: poll with it.",
    method: "GET",
    path: "/v1/partner/events",
    caller: partner,
    answer: { status: 200, envelope: "bare" },
    parameters: [
      query("cursor", Cursor, "The `next_cursor` of the previous read; none: the oldest event kept"),
      query("limit", LimitText, `Events per page, 1 to ${Lists.maxLimit} (default ${Lists.defaultLimit})`),
      query("types", Types, "Only these events: a comma-separated list of event names"),
    ],
    body: undefined,
    decode: ({ query }) => {
      return Either.map(decodeFeedQuery(query), (q) => ({
        cursor: q.cursor,
        limit: q.limit,
        types: q.types === undefined ? undefined : splitTypes(q.types),
      }))
    },
    output: FeedOutput,
    errors: [InvalidRequest],
    idempotent: false,
    service: PartnerFeed,
    run: (feed, p, input) => feed.list(p, input),
  }),
  operation({
    name: "partner.applications.verifications.list",
    summary: "A client application's verification log: its verifications with external_id, newest first, the last " +
      "90 days, narrowed by status, to, reference, since and until.",
    method: "GET",
    path: "/v1/partner/applications/{id}/verifications",
    caller: partner,
    answer: { status: 200, envelope: "bare" },
    parameters: [
      { name: "id", in: "path", description: "The client application's id", schema: Schema.String, required: true },
      query("status", Schema.Literal(...Statuses), "Only verifications in this status"),
      query("to", Schema.String, "Only codes sent to this number (any accepted Saudi mobile form)"),
      query("reference", Schema.String, "Only verifications started with this reference"),
      query("since", DateTime, "Created at or after (ISO 8601 date-time)"),
      query("until", DateTime, "Created before (ISO 8601 date-time)"),
      query("limit", LimitText, `Rows per page, 1 to ${Lists.maxLimit} (default ${Lists.defaultLimit})`),
      query("cursor", Cursor, "The `next_cursor` of the previous page"),
    ],
    body: undefined,
    decode: ({ params, query }) => {
      return Either.map(decodeLogQuery(query), (q) => ({
        ...q,
        id: params.id,
        since: q.since === undefined ? undefined : Date.parse(q.since),
        until: q.until === undefined ? undefined : Date.parse(q.until),
      }))
    },
    output: VerificationLogOutput,
    errors: [InvalidRequest, ServiceNotFound],
    idempotent: false,
    service: VerificationLog,
    run: (log, p, input) => log.list(p, input),
  }),
  operation({
    name: "partner.services.list",
    summary: "What a partner can provision for a merchant: Verify, its channels, its price per code and the bounds " +
      "and defaults of its six settings.",
    method: "GET",
    path: "/v1/partner/services",
    caller: partner,
    answer: { status: 200, envelope: "bare" },
    parameters: [],
    body: undefined,
    decode: ({ query }) => {
      const names = [...query.keys()].map(echo)
      return names.length === 0 ? Either.right(undefined) : Either.left(
        new InvalidRequest({
          message: `\`${names[0]}\` is not a parameter of this operation.`,
          fields: Object.fromEntries(names.map((n) => [n, "is not a parameter of this operation"])),
          errors: Object.fromEntries(names.map((n) => [n, "unknown"])),
        }),
      )
    },
    output: ServicesOutput,
    errors: [InvalidRequest],
    idempotent: false,
    service: PartnerServices,
    run: (services) => services.list,
  }),
] as const satisfies ReadonlyArray<AnyOperation>
