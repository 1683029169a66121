import { Context } from "effect"

/**
 * Standard Webhooks signing: `v1,` + base64(HMAC-SHA256(key, `${id}.${timestampSeconds}.${body}`)) where
 * the key is the base64 part of the `whsec_…` secret. Synchronous: it is pure computation.
 */
export class WebhookSigner extends Context.Tag("ports/WebhookSigner")<WebhookSigner, {
  readonly sign: (secret: string, id: string, timestampSeconds: number, body: string) => string
}>() {}
