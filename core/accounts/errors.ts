/** The error codes of the catalogue: The Account API. */
import { Schema } from "effect"
import { ApiErrorClass, Message } from "../shared/api-error.ts"

export class ApprovalRequired extends ApiErrorClass<ApprovalRequired>()("approval_required", {
  ...Message,
  approval: Schema.Struct({
    id: Schema.String,
    status: Schema.Literal("pending"),
    operation: Schema.String,
    expires_at: Schema.String,
  }),
}, { status: 428 }) {}

/** Every code of this part of the catalogue (core/errors.ts merges them). */
export const accountsErrors = [
  ApprovalRequired,
] as const
