/** Verify's operations (spec Section 4, DECISIONS 3), each declared once. */
import { Either, Schema } from "effect"
import {
  ApplicationPaused,
  InsufficientCredits,
  InvalidDestination,
  IpRateLimited,
  NotCancelable,
  NotFound,
  NotResendable,
  RateLimited,
  ResendLimitReached,
  SandboxQuotaExceeded,
  SandboxUnsupportedChannel,
  SandboxUnverifiedDestination,
  SendFailed,
  SpendCapReached,
  UnsupportedChannel,
} from "../errors.ts"
import { type AnyOperation, operation, type Parameter } from "../pipeline/operation.ts"
import { parseCheck, parseStart } from "./requests.ts"
import { codePointLength } from "../shared/text.ts"
import { Verify } from "./service.ts"

const sendGuard = { audience: "application_or_partner", scope: "verify:send" } as const
const checkGuard = { audience: "application_or_partner", scope: "verify:check" } as const

const Timestamp = Schema.String.annotations({ description: "ISO 8601 UTC with milliseconds" })

/** The verification object of the spec's Resources table (the event's `data`, without `external_id`). */
export const VerificationOutput = Schema.Struct({
  id: Schema.UUID,
  status: Schema.Literal("pending", "verified", "failed", "expired", "canceled"),
  application_id: Schema.UUID,
  reference: Schema.NullOr(Schema.String),
  channel: Schema.Literal("sms"),
  to: Schema.String.annotations({ description: "E.164, `+9665XXXXXXXX`" }),
  mode: Schema.Literal("live", "test", "partner", "partner_test"),
  attempts: Schema.Int,
  expires_at: Timestamp,
  verified_at: Schema.NullOr(Timestamp),
  created_at: Timestamp,
}).annotations({ identifier: "Verification" })

/** A partner key names its client application (by id or `external_id`) in the body or the query. */
const partnerApplication = {
  application: Schema.optional(Schema.String).annotations({
    description: "Partner keys: the client application, by id or `external_id` (also `service`).",
  }),
}

export const StartBody = Schema.Struct({
  to: Schema.String.annotations({
    description:
      "A Saudi mobile number: `+9665XXXXXXXX`, `9665…`, `009665…`, `05…` or `5…`; spaces and hyphens ignored.",
  }),
  channel: Schema.optional(Schema.NullOr(Schema.String)).annotations({ description: "`sms` (the default)" }),
  reference: Schema.optional(Schema.NullOr(
    // Characters as the spec counts them: code points (JSON Schema's `maxLength` counts them too).
    Schema.String.pipe(Schema.filter((r) => codePointLength(r) <= 256, { jsonSchema: { maxLength: 256 } })),
  )),
  client_ip: Schema.optional(Schema.NullOr(Schema.String)).annotations({ description: "An IPv4 or IPv6 address" }),
  ...partnerApplication,
}).annotations({ identifier: "VerifyStart" })

export const CheckBody = Schema.Struct({
  id: Schema.String.annotations({ description: "The verification id `start` answered" }),
  code: Schema.String.annotations({
    description: "The digits the person typed, as a string (Arabic-Indic digits are read too); a number is refused",
  }),
  ...partnerApplication,
}).annotations({ identifier: "VerifyCheck" })

const EmptyBody = Schema.Struct({ ...partnerApplication }).annotations({ identifier: "VerifyCommand" })

const idParameter: Parameter = {
  name: "id",
  in: "path",
  description: "The verification id",
  schema: Schema.String,
  required: true,
}
const applicationParameter: Parameter = {
  name: "application",
  in: "query",
  description: "Partner keys: the client application, by id or `external_id`.",
  schema: Schema.String,
  required: false,
}

const idOf = ({ params }: { params: Readonly<Record<string, string>> }) => Either.right(params.id)

const sendErrors = [
  RateLimited,
  IpRateLimited,
  SpendCapReached,
  ApplicationPaused,
  InsufficientCredits,
  SendFailed,
] as const

export const verifyOperations = [
  operation({
    name: "verify.start",
    summary: "Sends a one-time code by SMS to a Saudi mobile number.",
    method: "POST",
    path: "/v1/verify/start",
    caller: { _tag: "Key", guard: sendGuard },
    parameters: [],
    body: StartBody,
    decode: ({ body }) => parseStart(body ?? {}),
    output: VerificationOutput,
    errors: [
      UnsupportedChannel,
      InvalidDestination,
      SandboxUnsupportedChannel,
      SandboxUnverifiedDestination,
      SandboxQuotaExceeded,
      ...sendErrors,
    ],
    idempotent: true,
    service: Verify,
    run: (verify, p, input) => verify.start(p, input),
  }),
  operation({
    name: "verify.check",
    summary: "Checks a code: `verified`, `pending` with the attempt counted, or `failed` on the last attempt.",
    method: "POST",
    path: "/v1/verify/check",
    caller: { _tag: "Key", guard: checkGuard },
    parameters: [],
    body: CheckBody,
    decode: ({ body }) => parseCheck(body ?? {}),
    output: VerificationOutput,
    errors: [NotFound],
    idempotent: true,
    service: Verify,
    run: (verify, p, input) => verify.check(p, input),
  }),
  operation({
    name: "verify.read",
    summary: "Reads a verification (expiry is found at once).",
    method: "GET",
    path: "/v1/verify/{id}",
    caller: { _tag: "Key", guard: checkGuard },
    parameters: [idParameter, applicationParameter],
    body: undefined,
    decode: idOf,
    output: VerificationOutput,
    errors: [NotFound],
    idempotent: false,
    service: Verify,
    run: (verify, p, id: string) => verify.read(p, id),
  }),
  operation({
    name: "verify.resend",
    summary: "Sends a new code (the previous one stops working); charged, capped and guarded like start.",
    method: "POST",
    path: "/v1/verify/{id}/resend",
    caller: { _tag: "Key", guard: sendGuard },
    parameters: [idParameter],
    body: EmptyBody,
    decode: idOf,
    output: VerificationOutput,
    errors: [NotFound, NotResendable, ResendLimitReached, ...sendErrors],
    idempotent: true,
    service: Verify,
    run: (verify, p, id: string) => verify.resend(p, id),
  }),
  operation({
    name: "verify.cancel",
    summary: "Cancels a pending verification; fires no event.",
    method: "POST",
    path: "/v1/verify/{id}/cancel",
    caller: { _tag: "Key", guard: sendGuard },
    parameters: [idParameter],
    body: EmptyBody,
    decode: idOf,
    output: VerificationOutput,
    errors: [NotFound, NotCancelable],
    idempotent: true,
    service: Verify,
    run: (verify, p, id: string) => verify.cancel(p, id),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
