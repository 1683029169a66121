/** The error codes of the catalogue: Shared by every endpoint (the order of checks, the edge, idempotency). */
import { Schema } from "effect"
import { ApiErrorClass, Fields, Message } from "../shared/api-error.ts"

export class TooManyRequests
  extends ApiErrorClass<TooManyRequests>()("too_many_requests", { retry_after_seconds: Schema.Number }, {
    status: 429,
    headers: { retry_after_seconds: (v) => ["retry-after", String(v)] },
  }) {}
export class Unauthorized extends ApiErrorClass<Unauthorized>()("unauthorized", Message, { status: 401 }) {}
export class KeyExpired extends ApiErrorClass<KeyExpired>()("key_expired", {}, { status: 401 }) {}
export class IpNotAllowed extends ApiErrorClass<IpNotAllowed>()("ip_not_allowed", {}, { status: 403 }) {}
export class InsufficientScope
  extends ApiErrorClass<InsufficientScope>()("insufficient_scope", { scope: Schema.String }, {
    status: 403,
    headers: { scope: (v) => ["www-authenticate", `Bearer error=insufficient_scope, scope=${v}`] },
  }) {}
export class ServiceRequired extends ApiErrorClass<ServiceRequired>()("service_required", {}, { status: 400 }) {}
export class ServiceNotFound extends ApiErrorClass<ServiceNotFound>()("service_not_found", {}, { status: 404 }) {}
export class AccountNotActive extends ApiErrorClass<AccountNotActive>()("account_not_active", {}, { status: 403 }) {}
/** A test key on a channel without a sandbox (a guard's `liveOnly`: chat-app messages, e-mail, the attendant). */
export class LiveKeyRequired extends ApiErrorClass<LiveKeyRequired>()("live_key_required", {}, { status: 403 }) {}
export class InvalidJson extends ApiErrorClass<InvalidJson>()("invalid_json", {}, { status: 400 }) {}
export class InvalidRequest extends ApiErrorClass<InvalidRequest>()("invalid_request", {
  ...Message,
  fields: Schema.optional(Fields),
  errors: Schema.optional(Fields),
}, { status: 400 }) {}
export class InternalError
  extends ApiErrorClass<InternalError>()("internal_error", { request_id: Schema.String }, { status: 500 }) {}
export class NotFound extends ApiErrorClass<NotFound>()("not_found", {}, { status: 404 }) {}
export class ProductRetired extends ApiErrorClass<ProductRetired>()("product_retired", Message, { status: 410 }) {}
/** A known path asked with a method it does not serve; `allow` goes to the `Allow` header. */
export class MethodNotAllowed
  extends ApiErrorClass<MethodNotAllowed>()("method_not_allowed", { ...Message, allow: Schema.String }, {
    status: 405,
    headers: { allow: (v) => ["allow", String(v)] },
  }) {}
/** The request's header fields together exceed `Http.maxHeaderBytes`. */
export class HeadersTooLarge extends ApiErrorClass<HeadersTooLarge>()("headers_too_large", Message, { status: 431 }) {}
/**
 * The store (PostgreSQL) could not be reached while answering: the request may not have run; retry after
 * `Retry-After` (with the same `Idempotency-Key`). docs/decisions.md, "Operability".
 */
export class StoreUnavailable
  extends ApiErrorClass<StoreUnavailable>()("store_unavailable", { ...Message, retry_after_seconds: Schema.Number }, {
    status: 503,
    headers: { retry_after_seconds: (v) => ["retry-after", String(v)] },
  }) {}
/** The request's head or body did not arrive whole within the server's `REQUEST_TIMEOUT_MS`. */
export class RequestTimeout extends ApiErrorClass<RequestTimeout>()("request_timeout", Message, { status: 408 }) {}
export class IdempotencyInProgress
  extends ApiErrorClass<IdempotencyInProgress>()("idempotency_in_progress", {}, { status: 409 }) {}
export class IdempotencyKeyReused
  extends ApiErrorClass<IdempotencyKeyReused>()("idempotency_key_reused", {}, { status: 409 }) {}
export class IdempotencySecretNotReplayable
  extends ApiErrorClass<IdempotencySecretNotReplayable>()("idempotency_secret_not_replayable", {
    id: Schema.String,
  }, { status: 409 }) {}

/** `not_found` carries nothing, so one value serves every request (building an error costs a stack capture). */
export const notFound: NotFound = new NotFound({})

/** Every code of this part of the catalogue (core/errors.ts merges them). */
export const pipelineErrors = [
  TooManyRequests,
  Unauthorized,
  KeyExpired,
  IpNotAllowed,
  InsufficientScope,
  ServiceRequired,
  ServiceNotFound,
  AccountNotActive,
  LiveKeyRequired,
  InvalidJson,
  InvalidRequest,
  InternalError,
  NotFound,
  ProductRetired,
  MethodNotAllowed,
  HeadersTooLarge,
  StoreUnavailable,
  RequestTimeout,
  IdempotencyInProgress,
  IdempotencyKeyReused,
  IdempotencySecretNotReplayable,
] as const
