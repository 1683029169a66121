/**
 * The webhook transport over node:http and node:https (Node, and Deno and Bun through their Node
 * compatibility): one POST, aborted after the timeout, redirects not followed (a 3xx is not a success),
 * the receiver's body discarded. Given the checked addresses, the connection's name lookup answers those
 * and nothing else, so the request still names the host (`Host`, TLS server name, certificate) while the
 * socket can only reach an address the core checked.
 */
import { request as httpRequest } from "node:http"
import { request as httpsRequest } from "node:https"
import type { LookupAddress } from "node:dns"
import type { LookupFunction } from "node:net"
import { Effect, Layer } from "effect"
import { Telemetry } from "../../ports/telemetry.ts"
import { TransportFailure, WebhookTransport } from "../../ports/webhook-transport.ts"
import { currentTraceparent } from "../telemetry/propagation.ts"

const describe = (error: unknown): string => {
  const e = error as { code?: string; message?: string }
  return `connection failed: ${e?.code ?? e?.message ?? String(error)}`
}

/** A lookup that answers the given addresses (of the family asked, when one is) without asking a resolver. */
export const pinnedLookup = (addresses: ReadonlyArray<string>): LookupFunction =>
  ((_hostname, options, callback) => {
    const all: Array<LookupAddress> = addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))
    const wanted = options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all
    const answer = callback as (error: Error | null, address: string | Array<LookupAddress>, family?: number) => void
    if (wanted.length === 0) {
      answer(Object.assign(new Error("no checked address of the family asked"), { code: "ENOTFOUND" }), "", 0)
    } else if (options.all) answer(null, wanted)
    else answer(null, wanted[0].address, wanted[0].family)
  }) as LookupFunction

export const post = (
  url: string,
  headers: Readonly<Record<string, string>>,
  body: string,
  timeoutMs: number,
  addresses?: ReadonlyArray<string>,
) =>
  Effect.async<{ status: number; latencyMs: number }, TransportFailure>((resume) => {
    const started = performance.now()
    const latency = () => Math.round(performance.now() - started)
    let target: URL
    try {
      target = new URL(url)
    } catch {
      resume(Effect.fail(new TransportFailure({ message: "connection failed: invalid URL", latencyMs: 0 })))
      return
    }
    let settled = false
    const settle = (effect: Effect.Effect<{ status: number; latencyMs: number }, TransportFailure>) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resume(effect)
    }
    const bytes = new TextEncoder().encode(body)
    const request = target.protocol === "https:" ? httpsRequest : httpRequest
    const req = request({
      protocol: target.protocol,
      hostname: target.hostname.replace(/^\[(.*)\]$/, "$1"),
      port: target.port === "" ? undefined : Number(target.port),
      path: `${target.pathname}${target.search}`,
      method: "POST",
      headers: { ...headers, "content-length": String(bytes.byteLength) },
      ...(addresses === undefined ? {} : { lookup: pinnedLookup(addresses) }),
    }, (res) => {
      settle(Effect.succeed({ status: res.statusCode ?? 0, latencyMs: latency() }))
      res.resume()
    })
    const timer = setTimeout(() => {
      settle(Effect.fail(new TransportFailure({ message: `no answer within ${timeoutMs} ms`, latencyMs: latency() })))
      req.destroy()
    }, timeoutMs)
    req.on("error", (error) =>
      settle(Effect.fail(new TransportFailure({ message: describe(error), latencyMs: latency() }))))
    req.end(bytes)
    return Effect.sync(() => {
      settled = true
      clearTimeout(timer)
      req.destroy()
    })
  })

const hostOf = (url: string) => {
  try {
    return new URL(url).host
  } catch {
    return ""
  }
}

/**
 * `post` in a client span of its own while tracing is on, the span sent on as `traceparent` (W3C Trace
 * Context) so the receiver's trace continues the delivery's; off, `post` as it is.
 */
export const tracedPost: WebhookTransport["Type"]["post"] = (url, headers, body, timeoutMs, addresses) =>
  Effect.flatMap(Telemetry, (t) =>
    !t.tracing ? post(url, headers, body, timeoutMs, addresses) : Effect.flatMap(
      currentTraceparent,
      (traceparent) =>
        post(url, traceparent === undefined ? headers : { ...headers, traceparent }, body, timeoutMs, addresses).pipe(
          Effect.tap((r) => Effect.annotateCurrentSpan("http.response.status_code", r.status)),
        ),
    ).pipe(
      Effect.withSpan("webhook.post", {
        kind: "client",
        captureStackTrace: false,
        // The host only: an endpoint's path or query may carry the receiver's own token.
        attributes: { "http.request.method": "POST", "server.address": hostOf(url) },
      }),
    ))

export const HttpWebhookTransport = Layer.succeed(WebhookTransport, { post: tracedPost })
