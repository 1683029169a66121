/** The web-standard handler `(Request) => Promise<Response>` over the shared dispatcher. */
import { randomUUID } from "node:crypto"
import { Http } from "../../core/limits.ts"
import { carriesBody, declaredTooLarge } from "./body.ts"
import { heldHeaderList } from "./deno-headers.ts"
import type { Dispatch, PlainRequest, PlainResponse } from "./dispatcher.ts"
import { fieldListLookup, headerBytes, stripPrefix } from "./edge.ts"
import { RequestTimeout } from "../../core/errors.ts"
import { apiError, bodyTooLarge, bodyUnreadable } from "./respond.ts"

export interface WebHandlerOptions {
  /** A path prefix the host app mounts the platform under (`/messaging`): stripped before routing. */
  readonly prefix?: string
  /**
   * The server itself refuses a request head larger than `Http.maxHeaderBytes` (Bun.serve at its default
   * 16 KiB answers a bare 431): the fields it lets through are within the limit, so they are not counted
   * again. Default false: the handler counts them.
   */
  readonly serverLimitsHead?: boolean
  /**
   * The longest a request body may take to arrive once the handler has the request (`REQUEST_TIMEOUT_MS`);
   * past it the answer is `408 request_timeout`. Unset: no limit of the handler's own (the server's, if any).
   */
  readonly bodyTimeoutMs?: number
}

/** Path and query of an absolute request URL (`http://host:port/path?query`), without building a URL. */
const pathAndQuery = (url: string): string => {
  const scheme = url.indexOf("://")
  const slash = scheme === -1 ? url.indexOf("/") : url.indexOf("/", scheme + 3)
  if (slash !== -1) return url.slice(slash)
  const q = url.indexOf("?", scheme === -1 ? 0 : scheme + 3)
  return q === -1 ? "/" : `/${url.slice(q)}`
}

const timedOut = "timeout" as const

/**
 * The body's bytes, undefined past `Http.maxBodyBytes` (then the rest is not read), or `"timeout"` when it has
 * not all arrived within `timeoutMs`.
 */
const readBody = async (request: Request, timeoutMs?: number): Promise<Uint8Array | undefined | typeof timedOut> => {
  if (declaredTooLarge(request.headers.get("content-length"))) return undefined
  if (request.body === null) return new Uint8Array(0)
  const reader = request.body.getReader()
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = timeoutMs === undefined
    ? undefined
    : new Promise<typeof timedOut>((ok) => (timer = setTimeout(() => ok(timedOut), timeoutMs)))
  try {
    return await readAll(reader, expired)
  } finally {
    if (timer !== undefined) clearTimeout(timer)
  }
}

const readAll = async (
  reader: ReadableStreamDefaultReader<Uint8Array>,
  expired: Promise<typeof timedOut> | undefined,
): Promise<Uint8Array | undefined | typeof timedOut> => {
  const chunks: Array<Uint8Array> = []
  let size = 0
  for (;;) {
    const read = expired === undefined ? await reader.read() : await Promise.race([reader.read(), expired])
    if (read === timedOut) {
      reader.cancel().catch(() => {})
      return timedOut
    }
    const { done, value } = read
    if (done) break
    size += value.byteLength
    if (size > Http.maxBodyBytes) {
      await reader.cancel()
      return undefined
    }
    chunks.push(value)
  }
  if (chunks.length === 1) return chunks[0]
  const whole = new Uint8Array(size)
  let at = 0
  for (const c of chunks) {
    whole.set(c, at)
    at += c.byteLength
  }
  return whole
}

/** Fetch's own lookup of a field. */
const fetchLookup = (headers: Headers) => (name: string) => headers.get(name) ?? undefined

/** What the dispatcher reads of a request's header fields: a lookup, and the bytes the limit counts. */
const requestHeaders = (
  headers: Headers,
  count: boolean,
): { lookup: (name: string) => string | undefined; bytes: number | undefined } => {
  if (!count) return { lookup: fetchLookup(headers), bytes: undefined }
  // The first read fills Deno's held list (a request's headers are fetched lazily).
  headers.has("host")
  const list = heldHeaderList(headers)
  if (list !== undefined) return { lookup: fieldListLookup(list), bytes: headerBytes(list) }
  // Bun: its Headers answer every field in one native call; iterating a Bun.serve request's `Headers` cost
  // its host about 1.5 µs a request (a CPU profile under bench/http.ts: the iterator's `next`).
  const toJSON = (headers as { toJSON?: () => Record<string, string | ReadonlyArray<string>> }).toJSON
  const fields = typeof toJSON === "function" ? Object.entries(toJSON.call(headers)) : headers
  return { lookup: fetchLookup(headers), bytes: headerBytes(fields) }
}

/** The address of the socket's peer as the server reports it, or a function that looks it up when needed. */
export type CallerAddress = string | (() => string | undefined)

/** A web Response; an empty body is none at all (a 204, a 304 or an answer to HEAD may not carry one). */
const toResponse = (res: PlainResponse) =>
  new Response(res.body.length === 0 ? null : res.body as BodyInit, { status: res.status, headers: res.headers })

/**
 * A web Request as the dispatcher reads it. A class, not an object literal with an `ip` getter: V8 makes such a
 * literal in about 300 ns, an instance whose getter is on its prototype in about 12 (Node 20).
 */
class WebRequest implements PlainRequest {
  constructor(
    readonly method: string,
    readonly url: string,
    readonly headers: (name: string) => string | undefined,
    readonly body: Uint8Array | string,
    private readonly address: CallerAddress | undefined,
    readonly headerBytes: number | undefined,
  ) {}
  /** Read only when a key has an IP allowlist. */
  get ip(): string | undefined {
    const ip = this.address
    return typeof ip === "function" ? ip() : ip
  }
}

/**
 * The handler the Deno host gives its server, and `platform.serve`: a Response at once when the dispatcher
 * answered at once (Deno.serve and Bun.serve take a Response or a promise of one), a promise otherwise.
 * `ip` is the socket peer's address as the server reports it; without it the caller's address is unknown
 * (a key with an IP allowlist then answers `403 ip_not_allowed`): a request header never stands in for it.
 */
export const directWebHandler = (dispatch: Dispatch, options: WebHandlerOptions = {}) => {
  const prefix = options.prefix
  const count = options.serverLimitsHead !== true
  const answer = (request: Request, url: string, body: Uint8Array | string, ip: CallerAddress | undefined) => {
    const headers = requestHeaders(request.headers, count)
    const res = dispatch(new WebRequest(request.method, url, headers.lookup, body, ip, headers.bytes))
    return res instanceof Promise ? res.then(toResponse) : toResponse(res)
  }
  return (request: Request, ip?: CallerAddress): Response | Promise<Response> => {
    const url = stripPrefix(prefix, pathAndQuery(request.url))
    if (!carriesBody(request.method)) return answer(request, url, "", ip)
    const startedAt = performance.now()
    // A body the handler refuses itself: its answer, and its log line as every request has one.
    const refused = (res: PlainResponse) => {
      if (dispatch.refused !== undefined) {
        const headers = requestHeaders(request.headers, false)
        dispatch.refused(new WebRequest(request.method, url, headers.lookup, "", ip, undefined), res, startedAt)
      }
      return toResponse(res)
    }
    return readBody(request, options.bodyTimeoutMs).then(
      (body) =>
        body === undefined
          ? refused(bodyTooLarge(randomUUID()))
          : body === timedOut
          ? refused(timeoutAnswer())
          : answer(request, url, body, ip),
      () => refused(bodyUnreadable(randomUUID())),
    )
  }
}

const timeoutAnswer = () => {
  const refused = apiError(
    new RequestTimeout({ message: "The request body did not arrive whole in time." }),
    randomUUID(),
  )
  return { ...refused, headers: { ...refused.headers, connection: "close" } }
}

/** The embeddable web handler: `(Request, ip?) => Promise<Response>`. */
export const webHandler = (dispatch: Dispatch, options: WebHandlerOptions = {}) => {
  const direct = directWebHandler(dispatch, options)
  return async (request: Request, ip?: CallerAddress): Promise<Response> => await direct(request, ip)
}
