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

/**
 * Posts one signed webhook body to an endpoint. Redirects are not followed. With `addresses`, the
 * connection goes to one of them and nowhere else (the URL's host is not resolved again; it still names
 * the request: `Host`, the TLS server name and the certificate checked).
 */
export class WebhookTransport extends Context.Tag("ports/WebhookTransport")<WebhookTransport, {
  readonly post: (
    url: string,
    headers: Readonly<Record<string, string>>,
    body: string,
    timeoutMs: number,
    addresses?: ReadonlyArray<string>,
  ) => Effect.Effect<TransportResult, TransportFailure>
}>() {}
