import { Context, Data, type Effect } from "effect"

/** What the receiver answered: any HTTP status (the core decides what counts as success). */
export interface TransportResult {
  readonly status: number
  readonly latencyMs: number
}

/** No HTTP answer: refused connection, DNS failure, timeout. */
export class TransportFailure extends Data.TaggedError("TransportFailure")<{
  readonly message: string
  readonly latencyMs: number
}> {}

/** Posts one signed webhook body to an endpoint. Redirects are not followed. */
export class WebhookTransport extends Context.Tag("ports/WebhookTransport")<WebhookTransport, {
  readonly post: (
    url: string,
    headers: Readonly<Record<string, string>>,
    body: string,
    timeoutMs: number,
  ) => Effect.Effect<TransportResult, TransportFailure>
}>() {}
