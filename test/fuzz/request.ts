/**
 * A generated request, as the fuzz holds it: the method and request target exactly as they go on the wire,
 * the header fields in order, and the body's bytes. Values may hold placeholders (`{{LIVE}}` …) that each
 * way in fills with its own instance's values (its demo keys, ids) just before sending, so one request means
 * the same thing on five platform instances whose keys and ids differ.
 *
 * `wireBytes` renders it as HTTP/1.1 bytes for the three host processes and the Express server; `webRequest`
 * renders it as the `Request` a web server (Deno.serve, Bun.serve, Hono on a socket) would hand over for the
 * same bytes, for the in-process web handler.
 */

export interface FuzzRequest {
  readonly method: string
  /** The request target as sent: origin form (`/v1/…?…`) or absolute form (`http://host/…`). Visible ASCII. */
  readonly target: string
  /** Header fields in order (`Host` first), names as sent; values are latin1 strings (one char per byte). */
  readonly headers: ReadonlyArray<readonly [string, string]>
  /** The body's bytes; `undefined`: no body and no framing header. */
  readonly body: Uint8Array | undefined
  /** `length`: a Content-Length; `chunked`: Transfer-Encoding: chunked in `chunks` pieces. */
  readonly framing: "length" | "chunked"
  /** Chunk sizes for `chunked` (the rest of the body is the last chunk). */
  readonly chunks?: ReadonlyArray<number>
  /** A name for the fixed cases. */
  readonly label?: string
  /**
   * What every way in must answer (fixed cases): this status and error code, in a body of at most `maxBody`
   * characters (a refusal quotes at most 256 characters of a refused value, DECISIONS 18).
   */
  readonly expect?: { readonly status: number; readonly error: string; readonly maxBody: number }
}

/**
 * The values a way in fills placeholders with: `{{LIVE}}` / `{{TEST}}` are the demo application's keys as
 * the instance printed them, `{{LIVE3}}` / `{{TEST3}}` further key pairs of the same application (made at
 * setup, the same number on every way in), `{{ACCOUNT}}` / `{{APP}}` the demo account and application,
 * `{{VID}}` the verification this way in started last, `{{CODE}}` the code its SMS simulator sent for it.
 */
export interface Fill {
  readonly live: ReadonlyArray<string>
  readonly test: ReadonlyArray<string>
  readonly ACCOUNT: string
  readonly APP: string
  /** A fixed unknown id before the first verification. */
  readonly VID: string
  readonly CODE: string
}

const placeholders = /\{\{(?:(LIVE|TEST)(\d*)|(ACCOUNT|APP|VID|CODE))\}\}/g

/** The lengths every instance's values have (keys are the prefix and 32 base64url characters; ids are UUIDs). */
const fillLength = (kind: string | undefined, named: string | undefined): number =>
  kind === "LIVE"
    ? "svc_live_".length + 32
    : kind === "TEST"
    ? "svc_test_".length + 32
    : named === "CODE"
    ? 6
    : named
    ? 36
    : 0

export const noVerification = "00000000-0000-4000-8000-000000000000"

export const fillText = (s: string, fill: Fill): string =>
  s.indexOf("{{") === -1 ? s : s.replace(placeholders, (whole, kind: string | undefined, slot: string, named) => {
    if (kind !== undefined) {
      const keys = kind === "LIVE" ? fill.live : fill.test
      return keys[slot === "" ? 0 : Number(slot)] ?? whole
    }
    return fill[named as "ACCOUNT" | "APP" | "VID" | "CODE"]
  })

/** The length of `s` once filled (placeholders by their values' fixed lengths). */
export const filledLength = (s: string): number =>
  s.indexOf("{{") === -1
    ? s.length
    : s.replace(placeholders, (_, kind: string | undefined, _slot, named) => "x".repeat(fillLength(kind, named))).length

const openBraces = Buffer.from("{{")

export const fillBytes = (b: Uint8Array, fill: Fill): Buffer => {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength)
  if (buf.indexOf(openBraces) === -1) return buf
  // Placeholders are ASCII, so filling the latin1 reading of the bytes keeps every other byte as it was.
  return Buffer.from(fillText(buf.toString("latin1"), fill), "latin1")
}

export interface Filled {
  readonly method: string
  readonly target: string
  /** Names lower-cased, values trimmed of surrounding whitespace (as every parser reads them). */
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body: Buffer | undefined
}

const isOws = (c: number) => c === 0x20 || c === 0x09
const trimOws = (s: string) => {
  let a = 0
  let b = s.length
  while (a < b && isOws(s.charCodeAt(a))) a++
  while (b > a && isOws(s.charCodeAt(b - 1))) b--
  return s.slice(a, b)
}

/** The framing header the request carries (content-length or transfer-encoding), or none. */
export const framingHeader = (req: FuzzRequest, bodyLength: number): readonly [string, string] | undefined =>
  req.body === undefined
    ? undefined
    : req.framing === "chunked"
    ? ["Transfer-Encoding", "chunked"]
    : ["Content-Length", String(bodyLength)]

/** The request with a way in's values filled in, and the framing header added after the generated fields. */
export const fillRequest = (req: FuzzRequest, fill: Fill): Filled => {
  const body = req.body === undefined ? undefined : fillBytes(req.body, fill)
  const headers: Array<readonly [string, string]> = req.headers.map(([n, v]) => [n, fillText(v, fill)] as const)
  const framing = framingHeader(req, body?.length ?? 0)
  if (framing !== undefined) headers.push(framing)
  return { method: req.method, target: fillText(req.target, fill), headers, body }
}

/** The request as HTTP/1.1 bytes. */
export const wireBytes = (req: FuzzRequest, fill: Fill): Buffer => {
  const f = fillRequest(req, fill)
  let head = `${f.method} ${f.target} HTTP/1.1\r\n`
  for (const [n, v] of f.headers) head += `${n}: ${v}\r\n`
  head += "\r\n"
  const parts: Array<Uint8Array> = [Buffer.from(head, "latin1")]
  if (f.body !== undefined) {
    if (req.framing === "chunked") {
      let at = 0
      for (const size of [...(req.chunks ?? []), Infinity]) {
        const piece = f.body.subarray(at, Math.min(f.body.length, at + size))
        at += piece.length
        if (piece.length > 0) parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n"))
        if (at >= f.body.length) break
      }
      parts.push(Buffer.from("0\r\n\r\n"))
    } else parts.push(f.body)
  }
  return Buffer.concat(parts)
}

/** What `Request` takes for the method: Fetch upper-cases the six it normalizes. */
const webMethodIsBodyless = (method: string) => /^(get|head)$/i.test(method)

/**
 * The Request a web server builds from the same bytes: the URL from `Host` and the target (or the absolute
 * target), every header field as received (Headers joins repeats with `, `), the body's bytes. The fields go
 * into a Headers first and that into the Request, as @hono/node-server does (the Request's copy normalizes
 * each joined value again: `b, ` from `b` and an empty field becomes `b,`).
 */
export const webRequest = (req: FuzzRequest, fill: Fill): Request => {
  const f = fillRequest(req, fill)
  const host = f.headers.find(([n]) => n.toLowerCase() === "host")?.[1] ?? "localhost"
  const url = f.target.startsWith("/") ? `http://${trimOws(host)}${f.target}` : f.target
  const headers = new Headers()
  for (const [n, v] of f.headers) headers.append(n, v)
  const body = f.body === undefined || webMethodIsBodyless(f.method) ? null : new Uint8Array(f.body)
  return new Request(url, { method: f.method, headers, body })
}

/** True when the request can go both on the wire and into a Request (what the generator keeps to). */
export const representable = (req: FuzzRequest): string | undefined => {
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(req.method)) return "the method is not a token"
  if (/^(connect|trace|track)$/i.test(req.method)) return "a method Request refuses"
  if (webMethodIsBodyless(req.method) && req.body !== undefined) return "a body on GET or HEAD"
  if (!/^[\x21-\x7e]+$/.test(req.target)) return "the target is not visible ASCII"
  for (const [n, v] of req.headers) {
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(n)) return `header name ${JSON.stringify(n)} is not a token`
    if (/[\0\r\n]/.test(v) || /[^\t\x20-\x7e\x80-\xff]/.test(v)) return `header ${n} has a byte no field may hold`
  }
  return undefined
}

/** A short, readable rendering of the request (placeholders shown as they are; long runs collapsed). */
export const describeRequest = (req: FuzzRequest, max = 3000): string => {
  let head = `${req.method} ${req.target} HTTP/1.1\r\n`
  for (const [n, v] of req.headers) head += `${n}: ${v}\r\n`
  const framing = framingHeader(
    req,
    req.body === undefined ? 0 : filledLength(Buffer.from(req.body).toString("latin1")),
  )
  if (framing !== undefined) {
    head += `${framing[0]}: ${framing[1]}${
      req.framing === "chunked" ? ` (chunks ${JSON.stringify(req.chunks ?? [])})` : ""
    }\r\n`
  }
  head += "\r\n"
  let body = ""
  if (req.body !== undefined && req.body.length > 0) {
    const buf = Buffer.from(req.body)
    let text: string
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(buf)
    } catch {
      text = [...buf].map((
        b,
      ) => (b >= 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, "0")}`))
        .join("")
    }
    body = text
  }
  return collapse(JSON.stringify(head + body), max)
}

/** Collapses runs of one character (over 24) into `«c×n»` and repeated short patterns into `«ab×n»`, then cuts. */
export const collapse = (s: string, max = 3000): string => {
  const out = s.replace(/(.)\1{23,}/gs, (run, c: string) => `«${c}×${run.length}»`)
    .replace(/(.{2,12}?)\1{9,}/gs, (run, p: string) => `«${p}×${run.length / p.length}»`)
  return out.length > max ? `${out.slice(0, max)}… (${out.length - max} more)` : out
}
