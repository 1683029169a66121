/**
 * The request model every way in shares (the Node and Bun hosts, the Deno host, the web handler, the Node
 * handler behind Express or Fastify, the Effect HTTP app): how a method, a request target, the header
 * size and the body bytes are read, so that the same bytes get the same answer whichever way they came.
 * Each runtime's server only parses HTTP; everything after that happens here and in the dispatcher.
 */
import ipaddr from "ipaddr.js"
import { Http } from "../../core/limits.ts"

/** Fetch normalizes these six methods case-insensitively (a Request made with `get` is a `GET`); so do we. */
const fetchNormalized = new Set(["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"])

export const normalizeMethod = (method: string): string => {
  if (fetchNormalized.has(method)) return method
  const upper = method.toUpperCase()
  return fetchNormalized.has(upper) ? upper : method
}

export interface Target {
  readonly path: string
  /** The query string without `?` ("" when none). */
  readonly search: string
}

/**
 * What a URL parser would change in a request target: dot segments (also percent-encoded), backslashes, a
 * fragment, characters a URL percent-encodes (controls, space, non-ASCII, `"<>^\`{|}'`). Targets without any
 * of these (nearly all) are taken as they are; the rest go through the WHATWG URL parser, which is what a
 * web `Request` (Deno, Bun, Hono, workers) has already done to them.
 */
const needsUrlParser = /[^\x21-\x7e]|[\\#"'<>^`{|}]|\/\.|%2e/i

const base = "http://localhost"

/**
 * Path and query of a request target: origin form (`/v1/x?y`), absolute form (`http://host/v1/x?y`, as a
 * proxy sends it, or a web Request's `url`), or anything else (`*`), which matches no route.
 */
export const parseTarget = (target: string): Target | undefined => {
  if (target.charCodeAt(0) === 47 /* / */ && !needsUrlParser.test(target)) {
    if (target.charCodeAt(1) !== 47) {
      const q = target.indexOf("?")
      return q === -1 ? { path: target, search: "" } : { path: target.slice(0, q), search: target.slice(q + 1) }
    }
  }
  if (target.charCodeAt(0) !== 47 && !/^https?:\/\//i.test(target)) return undefined
  let url: URL
  try {
    // `//x/y` is a path here (the origin form), not a scheme-relative URL.
    url = new URL(target.startsWith("//") ? `${base}${target}` : target, base)
  } catch {
    return undefined
  }
  return { path: url.pathname, search: url.search.slice(1) }
}

const decoder = new TextDecoder("utf-8", { fatal: true })

/**
 * The body as text: UTF-8 with a leading byte order mark dropped (as every web runtime's `text()` does);
 * `undefined` when the bytes are not UTF-8, which the order of checks answers as `invalid_json`.
 */
export const bodyText = (body: string | Uint8Array): string | undefined => {
  if (typeof body === "string") return body.charCodeAt(0) === 0xfeff ? body.slice(1) : body
  if (body.byteLength === 0) return ""
  try {
    return decoder.decode(body)
  } catch {
    return undefined
  }
}

/** The bytes of a field value the limit counts: all but spaces, tabs and commas (see `headerBytes`). */
const countedLength = (value: string): number => {
  let n = 0
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i)
    if (c !== 0x20 && c !== 0x09 && c !== 0x2c) n++
  }
  return n
}

/**
 * The size of a request's header fields as the 16 KiB limit counts them: each distinct field name once, and
 * every byte of every value but spaces, tabs and commas. So the count is the same whichever way the fields
 * came in: one line per field (node:http's raw list), repeated fields joined with `, ` (Fetch's `Headers`),
 * `Set-Cookie` kept apart, empty parts dropped (Deno) or values re-trimmed (a web `Request`).
 *
 * Exact only above the limit: names and values are first summed as they are, an upper bound of the count;
 * when that is within the limit it is answered as it is (measured: the exact count per character cost the
 * Deno and Bun hosts about 2 µs a request in `npm run bench -- http`).
 */
export const headerBytes = (
  entries: Iterable<readonly [string, string | ReadonlyArray<string> | undefined]>,
  limit: number = Http.maxHeaderBytes,
): number => {
  let bound = 0
  for (const [name, value] of entries) {
    bound += name.length +
      (typeof value === "string" ? value.length : value === undefined ? 0 : value.reduce((n, v) => n + v.length, 0))
  }
  if (bound <= limit) return bound
  const names = new Set<string>()
  let n = 0
  for (const [name, value] of entries) {
    const lower = name.toLowerCase()
    if (!names.has(lower)) {
      names.add(lower)
      n += lower.length
    }
    if (typeof value === "string") n += countedLength(value)
    else if (value !== undefined) { for (const v of value) n += countedLength(v) }
  }
  return n
}

/** `headerBytes` of node:http's raw list (`[name, value, name, value, …]`). */
export const rawHeaderBytes = (raw: ReadonlyArray<string>, limit: number = Http.maxHeaderBytes): number => {
  let bound = 0
  for (let i = 0; i < raw.length; i++) bound += raw[i].length
  if (bound <= limit) return bound
  const names = new Set<string>()
  let n = 0
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const lower = raw[i].toLowerCase()
    if (!names.has(lower)) {
      names.add(lower)
      n += lower.length
    }
    n += countedLength(raw[i + 1])
  }
  return n
}

/** Whether a field's name is `wanted` (lower case) as Fetch compares names: whatever the field's case. */
const isNamed = (field: string, wanted: string) =>
  field.length === wanted.length && (field === wanted || field.toLowerCase() === wanted)

/** A field's value after the fields of its name before it, joined with `, ` as Fetch's `get` joins them. */
const joined = (found: string | undefined, value: string) => found === undefined ? value : `${found}, ${value}`

/**
 * A header lookup over node:http's raw list: repeated fields joined with `, ` as Fetch joins them, whatever
 * the server's `joinDuplicateHeaders` (an app's own `listen` keeps the first `Authorization` in `headers`).
 * A scan, not a map built on the first lookup: a request is looked up for a few fields (its key, an
 * Idempotency-Key, a content type), and building the map cost Bun's node:http host about 0.7 µs a request
 * (a CPU profile under bench/http.ts).
 */
export const rawHeaderLookup = (raw: ReadonlyArray<string>) => (name: string): string | undefined => {
  const wanted = name.toLowerCase()
  let found: string | undefined
  for (let i = 0; i + 1 < raw.length; i += 2) if (isNamed(raw[i], wanted)) found = joined(found, raw[i + 1])
  return found
}

/**
 * The same over a list of `[name, value]` pairs as Deno's `Headers` holds them once filled. Why not
 * `headers.get` there: Deno's `get` on a filled list converts the name, lower-cases every field's name into a
 * new string and filters the list with a closure (bench/http.ts: Deno's host spent 2 to 3 µs a request more
 * once the header count filled the list, against a84147a, which read single fields through Deno's lazy lookup).
 */
export const fieldListLookup =
  (list: ReadonlyArray<readonly [string, string]>) => (name: string): string | undefined => {
    const wanted = name.toLowerCase()
    let found: string | undefined
    for (let i = 0; i < list.length; i++) if (isNamed(list[i][0], wanted)) found = joined(found, list[i][1])
    return found
  }

/** A trusted-proxy list: addresses and CIDR ranges, IPv4 and IPv6 (Express's `trust proxy` with CIDRs). */
export type TrustedProxies = ReadonlyArray<[ipaddr.IPv4 | ipaddr.IPv6, number]>

/** Parses the entries of `trustedProxies` (`10.0.0.0/8`, `::1`, …); throws on an entry that is not one. */
export const parseTrustedProxies = (entries: ReadonlyArray<string>): TrustedProxies =>
  entries.map((raw) => {
    const entry = raw.trim()
    try {
      if (entry.includes("/")) return ipaddr.parseCIDR(entry)
      const ip = ipaddr.parse(entry)
      return [ip, ip.kind() === "ipv4" ? 32 : 128] as [ipaddr.IPv4 | ipaddr.IPv6, number]
    } catch {
      throw new Error(`trusted proxy "${entry}" is not an IP address or CIDR range`)
    }
  })

const parseAddress = (s: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined => {
  if (!ipaddr.isValid(s)) return undefined
  const ip = ipaddr.parse(s)
  return ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress() ? (ip as ipaddr.IPv6).toIPv4Address() : ip
}

const isTrusted = (address: string, trusted: TrustedProxies): boolean => {
  const ip = parseAddress(address)
  if (ip === undefined) return false
  return trusted.some(([range, bits]) => {
    const r = range.kind() === "ipv6" && (range as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96
      ? [(range as ipaddr.IPv6).toIPv4Address(), bits - 96] as const
      : [range, bits] as const
    return ip.kind() === r[0].kind() && ip.match(r[0], r[1])
  })
}

/**
 * The caller's address: the socket's peer, unless the peer is a trusted proxy; then the `X-Forwarded-For`
 * chain is walked from the right past every trusted hop, and the first untrusted address is the caller
 * (all trusted: the leftmost). Without trusted proxies the header is never read.
 */
export const callerAddress = (
  peer: string | undefined,
  forwardedFor: string | undefined,
  trusted: TrustedProxies,
): string | undefined => {
  if (trusted.length === 0 || peer === undefined || !isTrusted(peer, trusted)) return peer
  if (forwardedFor === undefined) return peer
  const hops = forwardedFor.split(",").map((h) => h.trim()).filter((h) => h !== "")
  let caller = peer
  for (let i = hops.length - 1; i >= 0; i--) {
    caller = hops[i]
    if (!isTrusted(caller, trusted)) return caller
  }
  return caller
}

/** Cross-origin requests from browsers: off unless the embedder names the origins (`*` for any). */
export interface Cors {
  readonly allowedOrigins: ReadonlyArray<string>
}

/** The headers a browser may send and read, for the preflight and the answer. */
const corsRequestHeaders = "authorization, content-type, idempotency-key, x-api-key"
const corsExposedHeaders = "x-request-id, retry-after, idempotent-replayed, www-authenticate, allow"

/** The `Access-Control-Allow-Origin` value for this request's `Origin`, or undefined (CORS off or not allowed). */
export const allowedOrigin = (cors: Cors, origin: string | undefined): string | undefined => {
  if (origin === undefined || cors.allowedOrigins.length === 0) return undefined
  if (cors.allowedOrigins.includes("*")) return "*"
  return cors.allowedOrigins.includes(origin) ? origin : undefined
}

/** Headers added to every answer of an allowed origin. */
export const corsAnswerHeaders = (origin: string): Record<string, string> =>
  origin === "*"
    ? { "access-control-allow-origin": "*", "access-control-expose-headers": corsExposedHeaders }
    : { "access-control-allow-origin": origin, "access-control-expose-headers": corsExposedHeaders, vary: "origin" }

/** Headers of a preflight's answer for an allowed origin. */
export const corsPreflightHeaders = (origin: string, allow: string): Record<string, string> => ({
  ...corsAnswerHeaders(origin),
  "access-control-allow-methods": allow,
  "access-control-allow-headers": corsRequestHeaders,
  "access-control-max-age": "600",
})

/**
 * A request target with the mount prefix taken off (`/messaging/healthz` under `/messaging` is `/healthz`);
 * only a whole segment is a prefix, so `/messagingx/healthz` stays as it is (and matches nothing).
 */
export const stripPrefix = (prefix: string | undefined, target: string): string => {
  if (!prefix || !target.startsWith(prefix)) return target
  const rest = target.slice(prefix.length)
  return rest === "" || rest.startsWith("?") ? `/${rest}` : rest.startsWith("/") ? rest : target
}
