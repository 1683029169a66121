/** The error codes of the catalogue: Email. */
import { Schema } from "effect"
import { ApiErrorClass, Message } from "../shared/api-error.ts"

export class EmailAccessRequired
  extends ApiErrorClass<EmailAccessRequired>()("email_access_required", Message, { status: 409 }) {}
export class EmailAccessPending
  extends ApiErrorClass<EmailAccessPending>()("email_access_pending", Message, { status: 409 }) {}
export class EmailProductOff extends ApiErrorClass<EmailProductOff>()("email_product_off", Message, { status: 409 }) {}
export class DomainInvalid extends ApiErrorClass<DomainInvalid>()("domain_invalid", Message, { status: 422 }) {}
export class DomainPublic extends ApiErrorClass<DomainPublic>()("domain_public", Message, { status: 422 }) {}
export class DomainTawked extends ApiErrorClass<DomainTawked>()("domain_tawked", Message, { status: 422 }) {}
export class DomainTaken extends ApiErrorClass<DomainTaken>()("domain_taken", Message, { status: 409 }) {}
export class DomainLimit
  extends ApiErrorClass<DomainLimit>()("domain_limit", { ...Message, max: Schema.Number }, { status: 409 }) {}
export class SenderNotVerified
  extends ApiErrorClass<SenderNotVerified>()("sender_not_verified", Message, { status: 422 }) {}
export class EmailUnavailable
  extends ApiErrorClass<EmailUnavailable>()("email_unavailable", Message, { status: 503 }) {}
export class EmailLocked extends ApiErrorClass<EmailLocked>()("email_locked", {
  ...Message,
  locked: Schema.Struct({ reason: Schema.Literal("product", "access", "domain") }),
}, { status: 409 }) {}

/** Every code of this part of the catalogue (core/errors.ts merges them). */
export const emailErrors = [
  EmailAccessRequired,
  EmailAccessPending,
  EmailProductOff,
  DomainInvalid,
  DomainPublic,
  DomainTawked,
  DomainTaken,
  DomainLimit,
  EmailUnavailable,
  EmailLocked,
  SenderNotVerified,
] as const
