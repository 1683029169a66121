/** The plain request every host hands to the dispatcher, and the answer it writes back. */
import type { Millis } from "../shared/brands.ts"
import type { Json } from "../shared/json.ts"

export interface ApiRequest {
  readonly method: string
  /** Path without the `/api` alias prefix, e.g. `/v1/verify/start`. */
  readonly path: string
  readonly query: URLSearchParams
  /** Lower-case header names. */
  readonly header: (name: string) => string | undefined
  /** The body as text ("" when none); undefined when its bytes are not UTF-8 (then it is not JSON either). */
  readonly body: string | undefined
  /** The caller's address: the socket's peer, or the client behind a trusted proxy. */
  readonly ip: string | undefined
  readonly requestId: string
}

export interface ApiAnswer {
  readonly status: number
  /** Written as JSON; a `Uint8Array` is written as it is (its type in `headers["content-type"]`). */
  readonly body: unknown
  readonly headers?: Record<string, string>
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
export const presentedCredential = (req: ApiRequest): string | undefined => {
  const auth = req.header("authorization")
  if (auth !== undefined) {
    const token = plainBearer(auth) ?? bearer.exec(auth)?.[1]
    if (token !== undefined) return token
  }
  const key = req.header("x-api-key")
  return key === undefined || key.trim() === "" ? undefined : key.trim()
}

export type { Json }

/** Parses the body as a JSON object; `undefined` when it is not one. An empty body is `{}`. */
export const jsonObject = (body: string | undefined): Json | undefined => {
  if (body === undefined) return undefined
  if (body.trim() === "") return {}
  try {
    const v: unknown = JSON.parse(body)
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : undefined
  } catch {
    return undefined
  }
}

export type { Millis }
