/** The error codes of the catalogue: Email. */
import { Schema } from "effect"
import { Next } from "../accounts/errors.ts"
import { ApiErrorClass, Message } from "../shared/api-error.ts"

/**
 * The access codes say what is missing and what to call (DECISIONS 10's error body): `needs` `["email_access"]`
 * and `next` (`email.access.request`, or `email.access.show` while pending); `email_product_off` `needs`
 * `["email_product"]`, which only the console turns on.
 */
export class EmailAccessRequired extends ApiErrorClass<EmailAccessRequired>()("email_access_required", {
  ...Message,
  needs: Schema.Array(Schema.String),
  next: Next,
}, { status: 409 }) {}
export class EmailAccessPending extends ApiErrorClass<EmailAccessPending>()("email_access_pending", {
  ...Message,
  needs: Schema.Array(Schema.String),
  next: Next,
}, { status: 409 }) {}
export class EmailProductOff extends ApiErrorClass<EmailProductOff>()("email_product_off", {
  ...Message,
  needs: Schema.Array(Schema.String),
}, { status: 409 }) {}
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
