/** Notifications' answers as JSON: the chat-app message (spec Resources; DECISIONS 7.1), and its events' copy. */
import { Schema } from "effect"
import type { ChatMessage } from "../../ports/store/notifications.ts"
import type { SaudiMobile } from "../shared/brands.ts"
import { isoMillis } from "../shared/riyadh.ts"
import { messageStatuses } from "./model.ts"

const Timestamp = Schema.String.annotations({ description: "ISO 8601 UTC with milliseconds" })

export const MessageOutput = Schema.Struct({
  id: Schema.UUID,
  status: Schema.Literal(...messageStatuses),
  application_id: Schema.UUID,
  to: Schema.String.annotations({ description: "`+9665XXXXXXXX`; events mask it: `+96650*****67`" }),
  template: Schema.String,
  lang: Schema.String,
  reference: Schema.NullOr(Schema.String),
  price_halalas: Schema.Int,
  error: Schema.NullOr(Schema.Struct({ code: Schema.String, message: Schema.String })),
  occurred_at: Timestamp,
  created_at: Timestamp,
}).annotations({ identifier: "ChatMessage" })
export type MessageJson = typeof MessageOutput.Type

/**
 * A number as events show it: the first and last two national digits, the rest starred (`+96650*****67`).
 * Reads show it whole.
 */
export const maskForEvents = (to: SaudiMobile): string => `${to.slice(0, 6)}*****${to.slice(-2)}`

export const messageJson = (m: ChatMessage, to: string = m.to): MessageJson => ({
  id: m.id,
  status: m.status,
  application_id: m.applicationId,
  to,
  template: m.template,
  lang: m.lang,
  reference: m.reference,
  price_halalas: m.priceHalalas,
  error: m.error,
  occurred_at: isoMillis(m.occurredAt),
  created_at: isoMillis(m.createdAt),
})

/** An event's `data`: the message with its number masked. */
export const messageEventJson = (m: ChatMessage): MessageJson => messageJson(m, maskForEvents(m.to))
