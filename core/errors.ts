/**
 * The error catalogue: every wire `error` code of the spec, written once.
 * Each code is a Schema.TaggedError whose tag is the code and whose fields are the extra body fields.
 * `Status` gives its HTTP status; `Hidden` names fields that go to headers, never into the body.
 */
import { Schema } from "effect"

/**
 * A catalogue error: a Schema.TaggedError built without a stack trace. These are answers, not faults:
 * nothing reads their stack, and capturing one (the class chain is deep) cost about 10 µs each, more
 * than the rest of a refused request (bench/dispatch.ts). Defects keep their stacks.
 */
const ApiErrorClass =
  <Self>() => <Tag extends string, Fields extends Schema.Struct.Fields>(tag: Tag, fields: Fields) => {
    const Base = Schema.TaggedError<Self>()(tag, fields)
    return class extends (Base as new (...args: Array<any>) => object) {
      // deno-lint-ignore constructor-super -- it does call super(), inside try so the limit is always restored
      constructor(...args: Array<any>) {
        const limit = Error.stackTraceLimit
        Error.stackTraceLimit = 0
        try {
          super(args[0], args[1])
        } finally {
          Error.stackTraceLimit = limit
        }
      }
    } as unknown as typeof Base
  }

const Message = { message: Schema.optional(Schema.String) }
const Status = Schema.String
const Fields = Schema.Record({ key: Schema.String, value: Schema.Unknown })

// Shared by every endpoint, in check order
export class TooManyRequests
  extends ApiErrorClass<TooManyRequests>()("too_many_requests", { retry_after_seconds: Schema.Number }) {}
export class Unauthorized extends ApiErrorClass<Unauthorized>()("unauthorized", Message) {}
export class KeyExpired extends ApiErrorClass<KeyExpired>()("key_expired", {}) {}
export class IpNotAllowed extends ApiErrorClass<IpNotAllowed>()("ip_not_allowed", {}) {}
export class InsufficientScope
  extends ApiErrorClass<InsufficientScope>()("insufficient_scope", { scope: Schema.String }) {}
export class ServiceRequired extends ApiErrorClass<ServiceRequired>()("service_required", {}) {}
export class ServiceNotFound extends ApiErrorClass<ServiceNotFound>()("service_not_found", {}) {}
export class AccountNotActive extends ApiErrorClass<AccountNotActive>()("account_not_active", {}) {}
export class InvalidJson extends ApiErrorClass<InvalidJson>()("invalid_json", {}) {}
export class InvalidRequest extends ApiErrorClass<InvalidRequest>()("invalid_request", {
  ...Message,
  fields: Schema.optional(Fields),
  errors: Schema.optional(Fields),
}) {}
export class InternalError extends ApiErrorClass<InternalError>()("internal_error", { request_id: Schema.String }) {}
export class NotFound extends ApiErrorClass<NotFound>()("not_found", {}) {}
/** `not_found` carries nothing, so one value serves every request (building an error costs a stack capture). */
export const notFound: NotFound = new NotFound({})
export class ProductRetired extends ApiErrorClass<ProductRetired>()("product_retired", Message) {}

// Verify
export class UnsupportedChannel extends ApiErrorClass<UnsupportedChannel>()("unsupported_channel", {}) {}
export class SandboxUnsupportedChannel
  extends ApiErrorClass<SandboxUnsupportedChannel>()("sandbox_unsupported_channel", {}) {}
export class InvalidDestination extends ApiErrorClass<InvalidDestination>()("invalid_destination", {}) {}
export class SandboxUnverifiedDestination
  extends ApiErrorClass<SandboxUnverifiedDestination>()("sandbox_unverified_destination", {}) {}
export class SandboxQuotaExceeded extends ApiErrorClass<SandboxQuotaExceeded>()("sandbox_quota_exceeded", {}) {}
export class RateLimited extends ApiErrorClass<RateLimited>()("rate_limited", {}) {}
export class IpRateLimited extends ApiErrorClass<IpRateLimited>()("ip_rate_limited", {}) {}
export class SpendCapReached extends ApiErrorClass<SpendCapReached>()("spend_cap_reached", {}) {}
export class ApplicationPaused extends ApiErrorClass<ApplicationPaused>()("application_paused", {}) {}
export class InsufficientCredits extends ApiErrorClass<InsufficientCredits>()("insufficient_credits", {
  message: Schema.String,
  balance_halalas: Schema.Number,
  price_halalas: Schema.Number,
}) {}
export class SendFailed
  extends ApiErrorClass<SendFailed>()("send_failed", { provider_code: Schema.String, message: Schema.String }) {}
export class NotResendable extends ApiErrorClass<NotResendable>()("not_resendable", { status: Status }) {}
export class NotCancelable extends ApiErrorClass<NotCancelable>()("not_cancelable", { status: Status }) {}
export class ResendLimitReached extends ApiErrorClass<ResendLimitReached>()("resend_limit_reached", {}) {}

// Chat-app messages (Notifications)
export class LiveKeyRequired extends ApiErrorClass<LiveKeyRequired>()("live_key_required", {}) {}
export class WhatsappNotEnabled extends ApiErrorClass<WhatsappNotEnabled>()("whatsapp_not_enabled", {}) {}
export class NoWhatsappNumber extends ApiErrorClass<NoWhatsappNumber>()("no_whatsapp_number", {}) {}
export class NumberDisconnected extends ApiErrorClass<NumberDisconnected>()("number_disconnected", {}) {}
export class UnknownTemplate extends ApiErrorClass<UnknownTemplate>()("unknown_template", {}) {}
export class TemplateNotApproved
  extends ApiErrorClass<TemplateNotApproved>()("template_not_approved", { message: Schema.String }) {}
export class TemplateCategoryNotAllowed
  extends ApiErrorClass<TemplateCategoryNotAllowed>()("template_category_not_allowed", Message) {}
export class UnsupportedTemplate extends ApiErrorClass<UnsupportedTemplate>()("unsupported_template", Message) {}
export class InvalidParams
  extends ApiErrorClass<InvalidParams>()("invalid_params", { ...Message, fields: Schema.optional(Fields) }) {}
export class ConsentOptedOut extends ApiErrorClass<ConsentOptedOut>()("consent_opted_out", {}) {}
export class TemplatesUnavailable extends ApiErrorClass<TemplatesUnavailable>()("templates_unavailable", Message) {}

// Auto-attendant and idempotency
export class AttendantNoDraft extends ApiErrorClass<AttendantNoDraft>()("attendant_no_draft", {}) {}
export class AttendantNotReady
  extends ApiErrorClass<AttendantNotReady>()("attendant_not_ready", { problems: Schema.Array(Schema.Unknown) }) {}
export class IdempotencyInProgress extends ApiErrorClass<IdempotencyInProgress>()("idempotency_in_progress", {}) {}
export class IdempotencyKeyReused extends ApiErrorClass<IdempotencyKeyReused>()("idempotency_key_reused", {}) {}

// Account API
export class ApprovalRequired extends ApiErrorClass<ApprovalRequired>()("approval_required", {
  ...Message,
  approval: Schema.Struct({
    id: Schema.String,
    status: Schema.Literal("pending"),
    operation: Schema.String,
    expires_at: Schema.String,
  }),
}) {}
export class IdempotencySecretNotReplayable
  extends ApiErrorClass<IdempotencySecretNotReplayable>()("idempotency_secret_not_replayable", {
    id: Schema.String,
  }) {}
export class EmailAccessRequired extends ApiErrorClass<EmailAccessRequired>()("email_access_required", Message) {}
export class EmailAccessPending extends ApiErrorClass<EmailAccessPending>()("email_access_pending", Message) {}
export class EmailProductOff extends ApiErrorClass<EmailProductOff>()("email_product_off", Message) {}
export class DomainInvalid extends ApiErrorClass<DomainInvalid>()("domain_invalid", Message) {}
export class DomainPublic extends ApiErrorClass<DomainPublic>()("domain_public", Message) {}
export class DomainTawked extends ApiErrorClass<DomainTawked>()("domain_tawked", Message) {}
export class DomainTaken extends ApiErrorClass<DomainTaken>()("domain_taken", Message) {}
export class DomainLimit extends ApiErrorClass<DomainLimit>()("domain_limit", Message) {}
export class EmailUnavailable extends ApiErrorClass<EmailUnavailable>()("email_unavailable", Message) {}
export class EmailLocked extends ApiErrorClass<EmailLocked>()("email_locked", {
  locked: Schema.Struct({ reason: Schema.Literal("product", "access", "domain") }),
}) {}
export class SuggestionsBusy extends ApiErrorClass<SuggestionsBusy>()("suggestions_busy", Message) {}
export class NoEmail extends ApiErrorClass<NoEmail>()("no_email", Message) {}
export class InviteWait extends ApiErrorClass<InviteWait>()("invite_wait", Message) {}
export class SelfEdit extends ApiErrorClass<SelfEdit>()("self_edit", Message) {}
export class AboveOwnRole extends ApiErrorClass<AboveOwnRole>()("above_own_role", Message) {}

export type ApiError =
  | TooManyRequests
  | Unauthorized
  | KeyExpired
  | IpNotAllowed
  | InsufficientScope
  | ServiceRequired
  | ServiceNotFound
  | AccountNotActive
  | InvalidJson
  | InvalidRequest
  | InternalError
  | NotFound
  | ProductRetired
  | UnsupportedChannel
  | SandboxUnsupportedChannel
  | InvalidDestination
  | SandboxUnverifiedDestination
  | SandboxQuotaExceeded
  | RateLimited
  | IpRateLimited
  | SpendCapReached
  | ApplicationPaused
  | InsufficientCredits
  | SendFailed
  | NotResendable
  | NotCancelable
  | ResendLimitReached
  | LiveKeyRequired
  | WhatsappNotEnabled
  | NoWhatsappNumber
  | NumberDisconnected
  | UnknownTemplate
  | TemplateNotApproved
  | TemplateCategoryNotAllowed
  | UnsupportedTemplate
  | InvalidParams
  | ConsentOptedOut
  | TemplatesUnavailable
  | AttendantNoDraft
  | AttendantNotReady
  | IdempotencyInProgress
  | IdempotencyKeyReused
  | ApprovalRequired
  | IdempotencySecretNotReplayable
  | EmailAccessRequired
  | EmailAccessPending
  | EmailProductOff
  | DomainInvalid
  | DomainPublic
  | DomainTawked
  | DomainTaken
  | DomainLimit
  | EmailUnavailable
  | EmailLocked
  | SuggestionsBusy
  | NoEmail
  | InviteWait
  | SelfEdit
  | AboveOwnRole

export type ErrorCode = ApiError["_tag"]

/** HTTP status of every code: the one place it is written. */
export const HttpStatus: { readonly [C in ErrorCode]: number } = {
  too_many_requests: 429,
  unauthorized: 401,
  key_expired: 401,
  ip_not_allowed: 403,
  insufficient_scope: 403,
  service_required: 400,
  service_not_found: 404,
  account_not_active: 403,
  invalid_json: 400,
  invalid_request: 400,
  internal_error: 500,
  not_found: 404,
  product_retired: 410,
  unsupported_channel: 422,
  sandbox_unsupported_channel: 422,
  invalid_destination: 422,
  sandbox_unverified_destination: 422,
  sandbox_quota_exceeded: 429,
  rate_limited: 429,
  ip_rate_limited: 429,
  spend_cap_reached: 429,
  application_paused: 403,
  insufficient_credits: 402,
  send_failed: 502,
  not_resendable: 409,
  not_cancelable: 409,
  resend_limit_reached: 429,
  live_key_required: 403,
  whatsapp_not_enabled: 403,
  no_whatsapp_number: 409,
  number_disconnected: 409,
  unknown_template: 422,
  template_not_approved: 422,
  template_category_not_allowed: 422,
  unsupported_template: 422,
  invalid_params: 422,
  consent_opted_out: 422,
  templates_unavailable: 503,
  attendant_no_draft: 409,
  attendant_not_ready: 422,
  idempotency_in_progress: 409,
  idempotency_key_reused: 409,
  approval_required: 428,
  idempotency_secret_not_replayable: 409,
  email_access_required: 409,
  email_access_pending: 409,
  email_product_off: 409,
  domain_invalid: 422,
  domain_public: 422,
  domain_tawked: 422,
  domain_taken: 409,
  domain_limit: 409,
  email_unavailable: 503,
  email_locked: 409,
  suggestions_busy: 409,
  no_email: 409,
  invite_wait: 429,
  self_edit: 403,
  above_own_role: 403,
}

/** Headers an error adds; the fields they come from never appear in the body. */
export const errorHeaders = (e: ApiError): Record<string, string> | undefined => {
  switch (e._tag) {
    case "too_many_requests":
      return { "retry-after": String(e.retry_after_seconds) }
    case "insufficient_scope":
      return { "www-authenticate": `Bearer error=insufficient_scope, scope=${e.scope}` }
    default:
      return undefined
  }
}

const hiddenFields: Partial<Record<ErrorCode, ReadonlyArray<string>>> = {
  too_many_requests: ["retry_after_seconds"],
  insufficient_scope: ["scope"],
}

/** The body fields of each error class: its schema's fields less `_tag` and those sent as headers. */
const bodyFieldsOf = new WeakMap<object, ReadonlyArray<string>>()
const bodyFields = (e: ApiError): ReadonlyArray<string> => {
  let names = bodyFieldsOf.get(e.constructor)
  if (names === undefined) {
    const hidden = hiddenFields[e._tag] ?? []
    const fields = (e.constructor as unknown as { fields?: Record<string, unknown> }).fields ?? {}
    names = Object.keys(fields).filter((k) => k !== "_tag" && !hidden.includes(k))
    bodyFieldsOf.set(e.constructor, names)
  }
  return names
}

/** The wire body of an error: `{ error: code, ...extras }`, from the fields its schema declares. */
export const errorBody = (e: ApiError): Record<string, unknown> => {
  const body: Record<string, unknown> = { error: e._tag }
  for (const k of bodyFields(e)) {
    // Own properties only: an unset optional `message` must not read Error.prototype.message.
    if (!Object.prototype.hasOwnProperty.call(e, k)) continue
    const v = (e as unknown as Record<string, unknown>)[k]
    if (v !== undefined) body[k] = v
  }
  return body
}

export const isApiError = (u: unknown): u is ApiError =>
  typeof u === "object" && u !== null && "_tag" in u && typeof (u as { _tag: unknown })._tag === "string" &&
  Object.prototype.hasOwnProperty.call(HttpStatus, (u as { _tag: string })._tag)
