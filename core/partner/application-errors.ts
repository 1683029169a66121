/** The Partner API's own codes for client applications (DECISIONS 13). */
import { Schema } from "effect"
import { ApiErrorClass, Message } from "../shared/api-error.ts"

/** The `external_id` is held by another client application of the same partner; `application_id` names it. */
export class ExternalIdTaken extends ApiErrorClass<ExternalIdTaken>()("external_id_taken", {
  ...Message,
  application_id: Schema.String,
}, { status: 409 }) {}

/** Every code of this part of the catalogue (core/errors.ts merges them). */
export const partnerApplicationErrors = [ExternalIdTaken] as const
