/**
 * The one dispatcher every way in shares: the request model (adapters/http/edge.ts), the route table, the
 * order of checks, the core use case, rendering. A host parses HTTP with its runtime's own server and hands
 * over a PlainRequest; everything that decides the answer happens here, so the same bytes get the same
 * answer on every host.
 */
import { randomUUID } from "node:crypto"
import { Cause, Effect, Exit, Fiber, type ManagedRuntime, Runtime } from "effect"
import { HeadersTooLarge, MethodNotAllowed, notFound, ProductRetired } from "../../core/errors.ts"
import { Http } from "../../core/limits.ts"
import { echo } from "../../core/shared/text.ts"
import type { Route } from "../../core/pipeline/handler.ts"
import { type ApiAnswer, type ApiRequest, type Json, jsonObject } from "../../core/pipeline/request.ts"
import { carriesBody } from "./body.ts"
import {
  allowedOrigin,
  bodyText,
  callerAddress,
  corsAnswerHeaders,
  corsPreflightHeaders,
  normalizeMethod,
  parseTarget,
  type TrustedProxies,
} from "./edge.ts"
import { callerRequestId, type RequestLog, requestLogOf } from "./request-log.ts"
import { apiError, fromExit, internalError, type PlainResponse } from "./respond.ts"
import { Router } from "./router.ts"

export interface PlainRequest {
  readonly method: string
  /**
   * The request target as received: `/api/v1/verify/abc?application=x`, or the absolute form
   * (`http://host/v1/...`, as a proxy sends it or a web Request's `url` holds it).
   */
  readonly url: string
  /** A header by its lower-case name; repeated fields joined with `, ` (as Fetch's `Headers.get` does). */
  readonly headers: (name: string) => string | undefined
  /** The body's bytes as received (decoded here), or its text. */
  readonly body: string | Uint8Array
  /**
   * The address of the socket's peer; a host may compute it on first read (a getter). Never a header's:
   * `X-Forwarded-For` is read only when the peer is one of the platform's `trustedProxies`.
   */
  readonly ip: string | undefined
  /** The header fields' size (each name and value); over `Http.maxHeaderBytes` answers `431 headers_too_large`. */
  readonly headerBytes?: number
}

export type { PlainResponse }

/**
 * Answers a request. The answer is a plain value when the request never suspended (the whole request
 * on the memory store, and every refusal before the store is read), a promise otherwise: hosts write a
 * plain answer at once, without a promise and a microtask hop (`await` takes either).
 */
export type Dispatch = ((req: PlainRequest) => PlainResponse | Promise<PlainResponse>) & {
  /**
   * A request its host answered itself before the dispatcher saw it (a body over the limit, unreadable or
   * timed out): its log line, as every request has one. `startedAt` is `performance.now()` when it arrived.
   */
  readonly refused?: (req: PlainRequest, res: PlainResponse, startedAt: number) => void
}

/** What the embedder decides about the edge (settings `trustedProxies` and `allowedOrigins`). */
export interface EdgeOptions {
  readonly trustedProxies: TrustedProxies
  readonly allowedOrigins: ReadonlyArray<string>
}

const noEdgeOptions: EdgeOptions = { trustedProxies: [], allowedOrigins: [] }

/**
 * Watches each routed request (adapters/telemetry/request.ts: its span and metrics, only while telemetry is on):
 * `start` gives the handler as it is run, `answered` the status of its answer once rendered.
 */
export interface RequestObserver {
  readonly start: <R>(
    route: Route<R>,
    req: ApiRequest,
    handler: Effect.Effect<ApiAnswer, unknown, R>,
  ) => ObservedRequest<R>
}

export interface ObservedRequest<R> {
  readonly handler: Effect.Effect<ApiAnswer, unknown, R>
  /** The runtime to run it in (the platform's with the request's span as the parent), if not the platform's. */
  readonly runtime?: Runtime.Runtime<R> | undefined
  /** The answer's status, and the handler's exit when it ended (none: it died outside the fiber). */
  readonly answered: (status: number, exit: Exit.Exit<ApiAnswer, unknown> | undefined) => void
}

const publicRoutes: ReadonlyArray<Route<never>> = [
  { method: "GET", path: "/healthz", handler: () => Effect.succeed({ status: 200, body: { status: "ok" } }) },
  { method: "POST", path: "/v1/messages", handler: () => new ProductRetired({ message: "This product was retired." }) },
]

/** `/api/v1/...` is an identical alias of `/v1/...`. */
const canonicalPath = (path: string) => path === "/api/v1" || path.startsWith("/api/v1/") ? path.slice(4) : path

/**
 * The request a handler sees; the query string and the body are parsed, and the caller's address found, only
 * when read, and each at most once.
 */
class RequestView implements ApiRequest {
  readonly header: (name: string) => string | undefined
  private parsed: URLSearchParams | undefined = undefined
  /** `null` until the body is parsed (`undefined` is a parse's answer: not a JSON object). */
  private parsedBody: Json | undefined | null = null

  constructor(
    private readonly plain: PlainRequest,
    readonly method: string,
    readonly path: string,
    private readonly search: string,
    readonly body: string | undefined,
    readonly requestId: string,
    private readonly trustedProxies: TrustedProxies,
    /** Where the request's log line learns its route (a RequestView of its own when no line is written). */
    seen: Seen | undefined,
  ) {
    this.header = plain.headers
    if (seen !== undefined) seen.req = this
  }

  get ip(): string | undefined {
    return this.trustedProxies.length === 0
      ? this.plain.ip
      : callerAddress(this.plain.ip, this.plain.headers("x-forwarded-for"), this.trustedProxies)
  }

  get query(): URLSearchParams {
    return this.parsed ??= new URLSearchParams(this.search)
  }

  json(): Json | undefined {
    if (this.parsedBody === null) this.parsedBody = jsonObject(this.body)
    return this.parsedBody
  }
}

/** The order the `Allow` header lists methods in. */
const methodOrder = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

const allowHeader = (methods: ReadonlyArray<string>): string => {
  const all = new Set(methods)
  if (all.has("GET")) all.add("HEAD")
  all.add("OPTIONS")
  return [...all].sort((a, b) => methodOrder.indexOf(a) - methodOrder.indexOf(b)).join(", ")
}

/** What the request's log line needs from inside the dispatch: the route matched and the request the checks saw. */
interface Seen {
  route: string | undefined
  req: ApiRequest | undefined
}

const withHeaders = (res: PlainResponse, headers: Record<string, string>): PlainResponse => ({
  ...res,
  headers: { ...res.headers, ...headers },
})

export const makeDispatcher = <R, ER>(
  runtime: ManagedRuntime.ManagedRuntime<R, ER>,
  routes: ReadonlyArray<Route<R>>,
  edge: EdgeOptions = noEdgeOptions,
  observer?: RequestObserver,
): Dispatch => {
  const router = new Router<Route<R>>()
  for (const r of [...publicRoutes, ...routes]) router.add(r.method, r.path, r as Route<R>)
  const cors = edge.allowedOrigins.length > 0
  /**
   * Runs a handler synchronously as far as it goes: most checks (and the whole request on the memory
   * store) never suspend, so they skip the promise and scheduler hop. When the fiber does suspend (SQL,
   * network), it keeps running and we wait for its exit as its observer (not through a second fiber).
   */
  const run = (
    effect: Effect.Effect<ApiAnswer, unknown, R>,
    own?: Runtime.Runtime<R>,
  ): Exit.Exit<ApiAnswer, unknown> | Promise<Exit.Exit<ApiAnswer, unknown>> => {
    const exit = own === undefined ? runtime.runSyncExit(effect) : Runtime.runSyncExit(own, effect)
    if (Exit.isFailure(exit) && Cause.isDieType(exit.cause) && Runtime.isAsyncFiberException(exit.cause.defect)) {
      const fiber = exit.cause.defect.fiber as Fiber.RuntimeFiber<ApiAnswer, unknown>
      return new Promise((resolve) => fiber.addObserver(resolve))
    }
    return exit
  }
  /** The runtime's loggers and level, read at the first request (the runtime is built by then). */
  let log: RequestLog | undefined
  const logOf = () => log ??= requestLogOf(runtime.runSync(Effect.runtime<never>()))
  const logDefect = (requestId: string, cause: Cause.Cause<unknown>) => logOf().defect(requestId, cause)

  /** A path some route serves, asked with another method: the methods it allows (OPTIONS answers them). */
  const otherMethods = (plain: PlainRequest, method: string, path: string, requestId: string): PlainResponse => {
    const methods = router.methodsAt(path)
    if (methods.length === 0) return apiError(notFound, requestId)
    const allow = allowHeader(methods)
    if (method !== "OPTIONS") {
      return apiError(
        new MethodNotAllowed({ message: `${echo(method)} is not allowed here; use ${allow}.`, allow }),
        requestId,
      )
    }
    const origin = cors && plain.headers("access-control-request-method") !== undefined
      ? allowedOrigin(edge, plain.headers("origin"))
      : undefined
    return {
      status: 204,
      headers: {
        "x-request-id": requestId,
        allow,
        ...(origin === undefined ? {} : corsPreflightHeaders(origin, allow)),
      },
      body: "",
    }
  }

  const answer = (
    plain: PlainRequest,
    requestId: string,
    seen: Seen | undefined,
  ): PlainResponse | Promise<PlainResponse> => {
    if (plain.headerBytes !== undefined && plain.headerBytes > Http.maxHeaderBytes) {
      return apiError(
        new HeadersTooLarge({ message: `The header fields are larger than ${Http.maxHeaderBytes} bytes.` }),
        requestId,
      )
    }
    const method = normalizeMethod(plain.method)
    const target = parseTarget(plain.url)
    if (target === undefined) return apiError(notFound, requestId)
    const path = canonicalPath(target.path)
    const head = method === "HEAD"
    const matched = router.match(head ? "GET" : method, path)
    if (matched === undefined) return otherMethods(plain, method, path, requestId)
    const route = matched.handler
    if (seen !== undefined) seen.route = route.path
    const body = carriesBody(method) ? bodyText(plain.body) : ""
    const req = new RequestView(plain, method, path, target.search, body, requestId, edge.trustedProxies, seen)
    const handler = route.handler(req, matched.params) as Effect.Effect<ApiAnswer, unknown, R>
    if (observer !== undefined) return observed(observer.start(route, req, handler), route, requestId)
    const exit = run(handler)
    const render = (e: Exit.Exit<ApiAnswer, unknown>) => fromExit(e, requestId, logDefect, route.withMessage === true)
    return exit instanceof Promise
      ? exit.then(render, (e) => {
        logDefect(requestId, Cause.die(e))
        return internalError(requestId)
      })
      : render(exit)
  }

  /** The same, watched: the observer learns each answer's status. */
  const observed = (o: ObservedRequest<R>, route: Route<R>, requestId: string) => {
    const exit = run(o.handler, o.runtime)
    const render = (e: Exit.Exit<ApiAnswer, unknown>) => {
      const res = fromExit(e, requestId, logDefect, route.withMessage === true)
      o.answered(res.status, e)
      return res
    }
    return exit instanceof Promise
      ? exit.then(render, (e) => {
        logDefect(requestId, Cause.die(e))
        o.answered(500, undefined)
        return internalError(requestId)
      })
      : render(exit)
  }

  /** The answer as it goes out: CORS headers for an allowed origin; no body for HEAD, whatever the answer. */
  const finish = (plain: PlainRequest, res: PlainResponse): PlainResponse => {
    const headOnly = res.body !== "" && plain.method.length === 4 && normalizeMethod(plain.method) === "HEAD"
    if (!cors) return headOnly ? { ...res, body: "" } : res
    const origin = allowedOrigin(edge, plain.headers("origin"))
    if (origin === undefined) return headOnly ? { ...res, body: "" } : res
    const answered = withHeaders(res, corsAnswerHeaders(origin))
    return headOnly ? { ...answered, body: "" } : answered
  }

  const logged = (plain: PlainRequest, requestId: string, startedAt: number, seen: Seen, res: PlainResponse) => {
    logOf().request({
      requestId,
      method: normalizeMethod(plain.method),
      route: seen.route,
      status: res.status,
      error: res.error,
      startedAt,
      headers: plain.headers,
      credentialId: seen.req?.credentialId,
    })
    return res
  }

  const dispatch = (plain: PlainRequest): PlainResponse | Promise<PlainResponse> => {
    const requestId = callerRequestId(plain.headers("x-request-id")) ?? randomUUID()
    const seen: Seen | undefined = logOf().on ? { route: undefined, req: undefined } : undefined
    const startedAt = seen === undefined ? 0 : performance.now()
    let res: PlainResponse | Promise<PlainResponse>
    try {
      const answered = answer(plain, requestId, seen)
      res = answered instanceof Promise ? answered.then((r) => finish(plain, r)) : finish(plain, answered)
    } catch (e) {
      logDefect(requestId, Cause.die(e))
      res = internalError(requestId)
    }
    if (seen === undefined) return res
    return res instanceof Promise
      ? res.then((r) => logged(plain, requestId, startedAt, seen, r))
      : logged(plain, requestId, startedAt, seen, res)
  }
  const refused = (plain: PlainRequest, res: PlainResponse, startedAt: number) => {
    if (!logOf().on) return
    logged(plain, res.headers["x-request-id"] ?? randomUUID(), startedAt, { route: undefined, req: undefined }, res)
  }
  return Object.assign(dispatch, { refused })
}
