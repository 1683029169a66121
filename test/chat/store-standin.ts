/**
 * A local HTTP stand-in for a store platform's API, for the Salla and Zid adapters' tests: each test gives the
 * routes it speaks; every request is kept (method, path with its query, headers) to check what the adapter sent.
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect, Option, Redacted } from "effect"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { type LiveStoresConfig, makeLiveStores } from "../../adapters/stores/live.ts"
import type { PlatformStore, StoreAddress, StoreUnreachable } from "../../ports/store-platforms.ts"

export interface Seen {
  readonly method: string
  readonly url: URL
  readonly headers: IncomingHttpHeaders
}

export interface Answer {
  readonly status: number
  readonly body?: unknown
  /** Never answers (the adapter's deadline). */
  readonly hang?: boolean
}

export interface StandIn {
  readonly url: string
  readonly seen: Array<Seen>
  close: () => Promise<void>
}

export const standIn = async (route: (seen: Seen) => Answer): Promise<StandIn> => {
  const seen: Array<Seen> = []
  const server = createServer((req, res) => {
    const request = {
      method: req.method ?? "GET",
      url: new URL(req.url ?? "/", "http://standin"),
      headers: req.headers,
    }
    seen.push(request)
    const answer = route(request)
    if (answer.hang) return
    res.writeHead(answer.status, { "content-type": "application/json" })
    res.end(answer.body === undefined ? "" : JSON.stringify(answer.body))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Reads `store` through the live adapters pointed at `url`; the outcome as an Either-like object. */
export const readThrough = (
  url: string,
  store: { platform: "salla" | "zid"; ref: string; token: string | null },
  config: Partial<LiveStoresConfig> = {},
): Promise<{ ok: PlatformStore } | { error: StoreUnreachable }> => {
  const address: StoreAddress = {
    platform: store.platform,
    ref: store.ref,
    token: store.token === null ? null : Redacted.make(store.token),
  }
  return Effect.runPromise(
    makeLiveStores({
      sallaUrl: url,
      zidUrl: url,
      zidAuthorization: Option.some(Redacted.make("partner-token")),
      timeout: "1 second",
      ...config,
    }).pipe(
      Effect.flatMap((platforms) => platforms.read(address)),
      Effect.match({ onFailure: (error) => ({ error }), onSuccess: (ok) => ({ ok }) }),
      Effect.provide(FetchHttpClient.layer),
    ),
  )
}
