/** The web-standard handler `(Request) => Promise<Response>` over the shared dispatcher. */
import { randomUUID } from "node:crypto"
import { Http } from "../../core/limits.ts"
import { carriesBody, declaredTooLarge } from "./body.ts"
import type { Dispatch, PlainResponse } from "./dispatcher.ts"
import { bodyTooLarge, bodyUnreadable } from "./respond.ts"

export interface WebHandlerOptions {
  /** A path prefix the host app mounts the platform under (`/messaging`): stripped before routing. */
  readonly prefix?: string
}

/** Path and query of an absolute request URL (`http://host:port/path?query`), without building a URL. */
const pathAndQuery = (url: string): string => {
  const scheme = url.indexOf("://")
  const slash = scheme === -1 ? url.indexOf("/") : url.indexOf("/", scheme + 3)
  if (slash !== -1) return url.slice(slash)
  const q = url.indexOf("?", scheme === -1 ? 0 : scheme + 3)
  return q === -1 ? "/" : `/${url.slice(q)}`
}

/** The body as text, or undefined past `Http.maxBodyBytes` (then the rest is not read). */
const readBody = async (request: Request): Promise<string | undefined> => {
  if (declaredTooLarge(request.headers.get("content-length"))) return undefined
  if (request.body === null) return ""
  const reader = request.body.getReader()
  const chunks: Array<Uint8Array> = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > Http.maxBodyBytes) {
      await reader.cancel()
      return undefined
    }
    chunks.push(value)
  }
  if (chunks.length === 1) return new TextDecoder().decode(chunks[0])
  const whole = new Uint8Array(size)
  let at = 0
  for (const c of chunks) {
    whole.set(c, at)
    at += c.byteLength
  }
  return new TextDecoder().decode(whole)
}

/** The caller's address, or a function that looks it up (called only when needed). */
export type CallerAddress = string | (() => string | undefined)

const toResponse = (res: PlainResponse) => new Response(res.body, { status: res.status, headers: res.headers })

/**
 * The handler the Deno and Bun hosts give their servers: a Response at once when the dispatcher answered
 * at once (both servers take a Response or a promise of one), a promise otherwise.
 */
export const directWebHandler = (dispatch: Dispatch, options: WebHandlerOptions = {}) => {
  const prefix = options.prefix
  const unprefix = (url: string) => {
    if (!prefix || !url.startsWith(prefix)) return url
    const rest = url.slice(prefix.length)
    return rest === "" || rest.startsWith("?") ? `/${rest}` : rest.startsWith("/") ? rest : url
  }
  const answer = (request: Request, url: string, body: string, ip: CallerAddress | undefined) => {
    const res = dispatch({
      method: request.method,
      url,
      headers: (name) => request.headers.get(name) ?? undefined,
      body,
      // Read only when a key has an IP allowlist.
      get ip() {
        const given = typeof ip === "function" ? ip() : ip
        return given ?? request.headers.get("x-forwarded-for")?.split(",")[0]?.trim()
      },
    })
    return res instanceof Promise ? res.then(toResponse) : toResponse(res)
  }
  return (request: Request, ip?: CallerAddress): Response | Promise<Response> => {
    const url = unprefix(pathAndQuery(request.url))
    return !carriesBody(request.method) ? answer(request, url, "", ip) : readBody(request).then(
      (body) => body === undefined ? toResponse(bodyTooLarge(randomUUID())) : answer(request, url, body, ip),
      () => toResponse(bodyUnreadable(randomUUID())),
    )
  }
}

/** The embeddable web handler: `(Request) => Promise<Response>`. */
export const webHandler = (dispatch: Dispatch, options: WebHandlerOptions = {}) => {
  const direct = directWebHandler(dispatch, options)
  return async (request: Request, ip?: string): Promise<Response> => await direct(request, ip)
}
