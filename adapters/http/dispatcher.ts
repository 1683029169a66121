/**
 * The one dispatcher every host shares: route table, order of checks, core use case, rendering.
 * A host parses the request with its runtime's own server and hands over a PlainRequest.
 */
import { randomUUID } from "node:crypto"
import { Cause, Effect, Exit, Fiber, type ManagedRuntime, Runtime } from "effect"
import { notFound, ProductRetired } from "../../core/errors.ts"
import type { ApiAnswer, ApiRequest } from "../../core/pipeline/request.ts"
import { apiError, fromExit, internalError, type PlainResponse } from "./respond.ts"
import type { Route } from "./operation.ts"
import { Router } from "./router.ts"

export interface PlainRequest {
  readonly method: string
  /** Path and query as received, e.g. `/api/v1/verify/abc?application=x`. */
  readonly url: string
  readonly headers: (name: string) => string | undefined
  readonly body: string
  /** The caller's address; a host may compute it on first read (a getter). */
  readonly ip: string | undefined
}

export type { PlainResponse }

/**
 * Answers a request. The answer is a plain value when the request never suspended (the whole request
 * on the memory store, and every refusal before the store is read), a promise otherwise: hosts write a
 * plain answer at once, without a promise and a microtask hop (`await` takes either).
 */
export type Dispatch = (req: PlainRequest) => PlainResponse | Promise<PlainResponse>

const publicRoutes: ReadonlyArray<Route<never>> = [
  { method: "GET", path: "/healthz", handler: () => Effect.succeed({ status: 200, body: { status: "ok" } }) },
  { method: "POST", path: "/v1/messages", handler: () => new ProductRetired({ message: "This product was retired." }) },
]

/** `/api/v1/...` is an identical alias of `/v1/...`. */
const canonicalPath = (path: string) => path === "/api/v1" || path.startsWith("/api/v1/") ? path.slice(4) : path

/** The request a handler sees; the query string is parsed only when a route reads it. */
class RequestView implements ApiRequest {
  readonly method: string
  readonly header: (name: string) => string | undefined
  readonly body: string
  private parsed: URLSearchParams | undefined = undefined

  constructor(
    private readonly plain: PlainRequest,
    readonly path: string,
    private readonly search: string,
    readonly requestId: string,
  ) {
    this.method = plain.method
    this.header = plain.headers
    this.body = plain.body
  }

  get ip(): string | undefined {
    return this.plain.ip
  }

  get query(): URLSearchParams {
    return this.parsed ??= new URLSearchParams(this.search)
  }
}

export const makeDispatcher = <R, ER>(
  runtime: ManagedRuntime.ManagedRuntime<R, ER>,
  routes: ReadonlyArray<Route<R>>,
): Dispatch => {
  const router = new Router<Route<R>>()
  for (const r of [...publicRoutes, ...routes]) router.add(r.method, r.path, r as Route<R>)
  /**
   * Runs a handler synchronously as far as it goes: most checks (and the whole request on the memory
   * store) never suspend, so they skip the promise and scheduler hop. When the fiber does suspend (SQL,
   * network), it keeps running and we await it.
   */
  const run = (
    effect: Effect.Effect<ApiAnswer, unknown, R>,
  ): Exit.Exit<ApiAnswer, unknown> | Promise<Exit.Exit<ApiAnswer, unknown>> => {
    const exit = runtime.runSyncExit(effect)
    if (Exit.isFailure(exit) && Cause.isDieType(exit.cause) && Runtime.isAsyncFiberException(exit.cause.defect)) {
      return runtime.runPromise(Fiber.await(exit.cause.defect.fiber as Fiber.Fiber<ApiAnswer, unknown>))
    }
    return exit
  }
  const logDefect = (requestId: string, cause: Cause.Cause<unknown>) =>
    console.error(`[${requestId}] internal_error\n${Cause.pretty(cause)}`)

  return (plain) => {
    const requestId = randomUUID()
    try {
      const q = plain.url.indexOf("?")
      const path = canonicalPath(q === -1 ? plain.url : plain.url.slice(0, q))
      const matched = router.match(plain.method, path)
      if (matched === undefined) return apiError(notFound, requestId)
      const route = matched.handler
      const req = new RequestView(plain, path, q === -1 ? "" : plain.url.slice(q + 1), requestId)
      const exit = run(route.handler(req, matched.params) as Effect.Effect<ApiAnswer, unknown, R>)
      return exit instanceof Promise
        ? exit.then((e) => fromExit(e, requestId, logDefect, route.console === true), (e) => {
          logDefect(requestId, Cause.die(e))
          return internalError(requestId)
        })
        : fromExit(exit, requestId, logDefect, route.console === true)
    } catch (e) {
      logDefect(requestId, Cause.die(e))
      return internalError(requestId)
    }
  }
}
