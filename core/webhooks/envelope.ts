/**
 * What goes on the wire (DECISIONS 5): the envelope `{event, data, sent_at}` (+ `test: true` for
 * rehearsals) and the Standard Webhooks headers; endpoint secrets and message ids.
 */
import { Effect, Encoding } from "effect"
import { Secrets } from "../../ports/secrets.ts"
import type { WebhookSigner } from "../../ports/webhook-signer.ts"
import type { Millis } from "../shared/brands.ts"

export const SecretPrefix = "whsec_"

/** `whsec_` + base64 of 32 random bytes. */
export const newEndpointSecret = Effect.map(
  Effect.flatMap(Secrets, (s) => s.randomBytes(32)),
  (bytes) => SecretPrefix + Encoding.encodeBase64(bytes),
)

/**
 * The `webhook-id` of an event's delivery to its account's endpoint: derived from the event, so that the
 * event's `data.id` (`service.*`, `balance.low`) and the partner feed's `id` can name it before any delivery
 * exists (DECISIONS 13).
 */
export const accountWebhookId = (eventId: string): string => `msg_${eventId.replaceAll("-", "")}`

/** One `webhook-id` per event and endpoint. */
export const newWebhookId = Effect.map(Effect.flatMap(Secrets, (s) => s.uuid), (id) => `msg_${id.replaceAll("-", "")}`)

export interface Envelope {
  readonly event: string
  readonly data: Record<string, unknown>
  readonly test: boolean
}

/** The body of one attempt; `sent_at` is the epoch-millisecond digits of the attempt. */
export const envelopeBody = (e: Envelope, sentAt: Millis): string =>
  JSON.stringify(
    e.test
      ? { event: e.event, data: e.data, sent_at: String(sentAt), test: true }
      : { event: e.event, data: e.data, sent_at: String(sentAt) },
  )

/** The headers of one attempt, signed with the endpoint's plain secret. */
export const signedHeaders = (
  signer: WebhookSigner["Type"],
  secret: string,
  webhookId: string,
  at: Millis,
  body: string,
): Record<string, string> => {
  const timestamp = Math.floor(at / 1000)
  return {
    "content-type": "application/json",
    "user-agent": "sa-messaging-webhooks/1",
    "webhook-id": webhookId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signer.sign(secret, webhookId, timestamp, body),
  }
}
