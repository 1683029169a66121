/**
 * The error codes of the catalogue: the Account API (DECISIONS 10, 11). Every account-API error carries a
 * `message`; these add what tells an operator or an agent what to do next: `needs`, `next`, `human_action`,
 * `approval`, `did_you_mean`.
 */
import { Schema } from "effect"
import { ApiErrorClass, Message } from "../shared/api-error.ts"

/** The call to make next: `{ operation, method, path }`, the path concrete (ids filled in). */
export const Next = Schema.Struct({ operation: Schema.String, method: Schema.String, path: Schema.String })
export type Next = typeof Next.Type

/** What a person must do, for an agent to relay: `reason`, a console `url`, a sentence to `say`, the call after. */
export const HumanAction = Schema.Struct({
  reason: Schema.String,
  url: Schema.String,
  say: Schema.String,
  then: Next,
})

/** An approval as the 428 and 403 bodies show it. */
export const ApprovalRef = Schema.Struct({
  id: Schema.String,
  status: Schema.String,
  operation: Schema.String,
  expires_at: Schema.String,
})

export class InsufficientRole extends ApiErrorClass<InsufficientRole>()("insufficient_role", {
  ...Message,
  needs: Schema.Array(Schema.String),
}, { status: 403 }) {}

export class ApprovalRequired extends ApiErrorClass<ApprovalRequired>()("approval_required", {
  ...Message,
  needs: Schema.Array(Schema.String),
  approval: ApprovalRef,
  next: Next,
  human_action: HumanAction,
}, { status: 428 }) {}

export class ApprovalDenied extends ApiErrorClass<ApprovalDenied>()("approval_denied", {
  ...Message,
  approval: ApprovalRef,
}, { status: 403 }) {}

export class UnknownOperation extends ApiErrorClass<UnknownOperation>()("unknown_operation", {
  ...Message,
  did_you_mean: Schema.Array(Schema.String),
}, { status: 404 }) {}

/** A move the record's state does not allow; `status` is the current one. */
export class InvalidState extends ApiErrorClass<InvalidState>()("invalid_state", {
  ...Message,
  status: Schema.String,
}, { status: 409 }) {}

/** An appeal of an application that is not rejected, or rejected for a reason that may not be appealed. */
export class NotAppealable extends ApiErrorClass<NotAppealable>()("not_appealable", {
  ...Message,
  status: Schema.String,
}, { status: 409 }) {}

/** Every code of this part of the catalogue (core/errors.ts merges them). */
export const accountsErrors = [
  InsufficientRole,
  ApprovalRequired,
  ApprovalDenied,
  UnknownOperation,
  InvalidState,
  NotAppealable,
] as const
