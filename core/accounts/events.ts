/** The application lifecycle's events (spec Section 6, States): to the account's (the partner's) webhook. */
import { Schema } from "effect"
import { events } from "../shared/event.ts"

const ServiceEventData = Schema.Struct({
  id: Schema.String.annotations({ description: "The `webhook-id` of the delivery to the account" }),
  service_id: Schema.UUID,
  application_id: Schema.UUID,
  external_id: Schema.NullOr(Schema.String),
  status: Schema.String,
  previous_status: Schema.String,
  occurred_at: Schema.String,
  reason_code: Schema.optional(Schema.String).annotations({ description: "`service.rejected`" }),
  appealable: Schema.optional(Schema.Boolean).annotations({ description: "`service.rejected`" }),
  changed: Schema.optional(Schema.Array(Schema.String)).annotations({ description: "`service.review_requested`" }),
  paused: Schema.optional(Schema.Boolean).annotations({ description: "`service.paused`, `service.unpaused`" }),
}).annotations({ identifier: "ServiceEvent" })

const moves = [
  ["service.approved", "The application was approved: `status` is `active`."],
  ["service.rejected", "The application was rejected, with a `reason_code` and whether it may be appealed."],
  ["service.suspended", "The application was suspended."],
  ["service.resumed", "The application was switched back on."],
  ["service.paused", "The protection guard paused the application: sends answer `403 application_paused`."],
  ["service.unpaused", "The pause was lifted."],
  ["service.review_requested", "A brand change sent the application back to review."],
  ["service.archived", "The application was archived."],
  ["service.restored", "The application came back from the archive."],
] as const

export const accountsEvents = events(moves.map(([name, summary]) => ({ name, summary, data: ServiceEventData })))
