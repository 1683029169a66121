/** The error codes of the catalogue: Verify. */
import { Schema } from "effect"
import { ApiErrorClass, Status } from "../shared/api-error.ts"

export class UnsupportedChannel
  extends ApiErrorClass<UnsupportedChannel>()("unsupported_channel", {}, { status: 422 }) {}
export class SandboxUnsupportedChannel
  extends ApiErrorClass<SandboxUnsupportedChannel>()("sandbox_unsupported_channel", {}, { status: 422 }) {}
export class InvalidDestination
  extends ApiErrorClass<InvalidDestination>()("invalid_destination", {}, { status: 422 }) {}
export class SandboxUnverifiedDestination
  extends ApiErrorClass<SandboxUnverifiedDestination>()("sandbox_unverified_destination", {}, { status: 422 }) {}
export class SandboxQuotaExceeded
  extends ApiErrorClass<SandboxQuotaExceeded>()("sandbox_quota_exceeded", {}, { status: 429 }) {}
export class RateLimited extends ApiErrorClass<RateLimited>()("rate_limited", {}, { status: 429 }) {}
export class IpRateLimited extends ApiErrorClass<IpRateLimited>()("ip_rate_limited", {}, { status: 429 }) {}
export class SpendCapReached extends ApiErrorClass<SpendCapReached>()("spend_cap_reached", {}, { status: 429 }) {}
export class ApplicationPaused extends ApiErrorClass<ApplicationPaused>()("application_paused", {}, { status: 403 }) {}
export class SendFailed
  extends ApiErrorClass<SendFailed>()("send_failed", { provider_code: Schema.String, message: Schema.String }, {
    status: 502,
  }) {}
export class NotResendable
  extends ApiErrorClass<NotResendable>()("not_resendable", { status: Status }, { status: 409 }) {}
export class NotCancelable
  extends ApiErrorClass<NotCancelable>()("not_cancelable", { status: Status }, { status: 409 }) {}
export class ResendLimitReached
  extends ApiErrorClass<ResendLimitReached>()("resend_limit_reached", {}, { status: 429 }) {}

/** Every code of this part of the catalogue (core/errors.ts merges them). */
export const verifyErrors = [
  UnsupportedChannel,
  SandboxUnsupportedChannel,
  InvalidDestination,
  SandboxUnverifiedDestination,
  SandboxQuotaExceeded,
  RateLimited,
  IpRateLimited,
  SpendCapReached,
  ApplicationPaused,
  SendFailed,
  NotResendable,
  NotCancelable,
  ResendLimitReached,
] as const
