/** The plain request every host hands to the dispatcher, and the answer it writes back. */
import type { Millis } from "../shared/brands.ts"
import type { Json } from "../shared/json.ts"
import { Http } from "../limits.ts"

export interface ApiRequest {
  readonly method: string
  /** Path without the `/api` alias prefix, e.g. `/v1/verify/start`. */
  readonly path: string
  readonly query: URLSearchParams
  /** Lower-case header names. */
  readonly header: (name: string) => string | undefined
  /** The body as text ("" when none); undefined when its bytes are not UTF-8 (then it is not JSON either). */
  readonly body: string | undefined
  /**
   * The body as a JSON object (`jsonObject`: `{}` when empty, `undefined` when it is not one), parsed on the
   * first call only: a partner key's `application` and step 4 read the same parse.
   */
  readonly json: () => Json | undefined
  /** The caller's address: the socket's peer, or the client behind a trusted proxy. */
  readonly ip: string | undefined
  readonly requestId: string
  /** Set once the checks recognise the key or account token: its id (the request's log line names it). */
  credentialId?: string
}

export interface ApiAnswer {
  readonly status: number
  /** Written as JSON; a `Uint8Array` is written as it is (its type in `headers["content-type"]`). */
  readonly body: unknown
  readonly headers?: Record<string, string>
  /**
   * The id of what was made when the body carries a secret shown once: `Idempotency-Key` keeps no copy of it,
   * and a replay answers `409 idempotency_secret_not_replayable` with this id (core/pipeline/idempotency.ts).
   */
  readonly secretOf?: string
}

export const ok = (body: unknown, status = 200): ApiAnswer => ({ status, body })

const bearer = /^Bearer\s+(\S+)\s*$/i

/** `Bearer <token>` with one space and a printable ASCII token, the usual form, read without `bearer`. */
const plainBearer = (auth: string): string | undefined => {
  if (auth.length <= 7 || !auth.startsWith("Bearer ")) return undefined
  for (let i = 7; i < auth.length; i++) {
    const c = auth.charCodeAt(i)
    if (c <= 32 || c >= 127) return undefined
  }
  return auth.slice(7)
}

/** The presented credential: `Authorization: Bearer …` or `x-api-key`. */
export const presentedCredential = (req: Pick<ApiRequest, "header">): string | undefined => {
  const auth = req.header("authorization")
  if (auth !== undefined) {
    const token = plainBearer(auth) ?? bearer.exec(auth)?.[1]
    if (token !== undefined) return token
  }
  const key = req.header("x-api-key")
  return key === undefined || key.trim() === "" ? undefined : key.trim()
}

export type { Json }

/**
 * Whether a JSON text nests arrays and objects at most `max` levels deep (`{}` is one level), read in one pass
 * over its characters without parsing: brackets inside strings do not count, and a closing bracket with none
 * open (which no JSON text has) answers false. Stops at the first level too many, so a body nested 900 KB deep
 * costs the scan of its first `max + 1` brackets, not a parse (DECISIONS 18).
 *
 * Its cost on the hot path, measured with a loop of 1e6 (Node 20, 2 shared cores): a typical Verify start body
 * (`{"to":"0551234567","reference":"signup-42","channel":"sms"}`, 59 characters) scans in ~55 ns, against
 * ~225 ns for its `JSON.parse` and ~19 µs of platform CPU for the whole request; 900 KB of brackets is refused
 * after 65 of them, and a 900 KB string is skipped by `indexOf` in ~0.03 ms.
 */
export const nestsWithin = (text: string, max: number): boolean => {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      // A string: on to its closing quote, the first one after an even run of backslashes.
      for (;;) {
        i = text.indexOf('"', i + 1)
        if (i < 0) return true
        let k = i - 1
        while (text.charCodeAt(k) === 0x5c) k--
        if ((i - k) % 2 === 1) break
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return false
    } else if (c === 0x5d || c === 0x7d) {
      if (--depth < 0) return false
    }
  }
  return true
}

/**
 * Parses the body as a JSON object; `undefined` when it is not one, or when it nests deeper than
 * `Http.maxJsonDepth` (checked before parsing). An empty body is `{}`.
 */
export const jsonObject = (body: string | undefined): Json | undefined => {
  if (body === undefined) return undefined
  if (body.trim() === "") return {}
  if (!nestsWithin(body, Http.maxJsonDepth)) return undefined
  try {
    const v: unknown = JSON.parse(body)
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : undefined
  } catch {
    return undefined
  }
}

export type { Millis }
