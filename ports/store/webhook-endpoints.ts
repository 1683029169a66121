import { Context, type Effect, type Option } from "effect"

/** An application's endpoint, or a partner account's. */
export interface EndpointOwner {
  readonly kind: "application" | "account"
  readonly id: string
}

export interface WebhookEndpoint {
  readonly owner: EndpointOwner
  readonly url: string
  /** `whsec_` + base64 of 32 random bytes, sealed at rest by the Secrets port. */
  readonly secret: string
  /** For partner accounts: the `verification.*` events it subscribed to. */
  readonly events: ReadonlyArray<string>
}

export class WebhookEndpointsRepo extends Context.Tag("ports/WebhookEndpointsRepo")<WebhookEndpointsRepo, {
  readonly put: (endpoint: WebhookEndpoint) => Effect.Effect<void>
  readonly get: (owner: EndpointOwner) => Effect.Effect<Option.Option<WebhookEndpoint>>
}>() {}
