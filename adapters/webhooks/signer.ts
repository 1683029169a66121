/** Standard Webhooks signatures with `node:crypto` (Node, Deno and Bun all provide it). */
import { Buffer } from "node:buffer"
import { createHmac } from "node:crypto"
import { Layer } from "effect"
import { WebhookSigner } from "../../ports/webhook-signer.ts"

const keyOf = (secret: string) => Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64")

export const WebhookSignerLive = Layer.succeed(WebhookSigner, {
  sign: (secret, id, timestampSeconds, body) =>
    "v1," + createHmac("sha256", keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest("base64"),
})
