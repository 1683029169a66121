/**
 * The platform's answers to what node:http's parser refuses (`answerParserRefusals`), on Node and on Bun's
 * node:http, and the one place that leans on how those report a refusal beyond their documented API:
 *
 * - `clientError`'s `err.code` is llhttp's (`HPE_HEADER_OVERFLOW` for a head over `maxHeaderSize`), and
 *   `err.rawPacket` holds the bytes read of the refused request so far (`parserRefusal`).
 * - A `data` listener added to the socket of a refused request takes the socket from node:http's native
 *   parser: the request's later bytes (a body still arriving) reach that listener (`takeFromParser`; Node's
 *   lib/_http_server.js unconsumes the parser when a `data` listener is added). Bun's node:http hands over no
 *   bytes after the refused packet: there the request is answered from that packet alone.
 *
 * Checked against Node 20.20.2 (Node is not a dependency: the fence runs on the Node that runs the tests) and
 * Bun 1.4.5, pinned exactly in package.json (the `bun` package); test/fences/node-parser.test.ts runs a probe
 * on both and fails, naming what moved, when either reports a refusal otherwise. Upgrade `bun` only with that
 * test passing.
 *
 * Why: a head the parser refuses although a web server takes it (a method it does not know, `FOO` or `get`;
 * `OPTIONS *` on Bun) would get a bare `400` and one over the limit a bare `431`, where the Deno host and the
 * web handler answer the platform's JSON (`404`, `405`, `431 headers_too_large`); the request is read back
 * from the refused bytes here, its body included, and answered by the dispatcher like any other
 * (docs/decisions.md, HTTP edge).
 */
import { randomUUID } from "node:crypto"
import type { IncomingMessage, Server } from "node:http"
import type { Socket } from "node:net"
import { HeadersTooLarge, InvalidRequest, RequestTimeout } from "../../core/errors.ts"
import { Http } from "../../core/limits.ts"
import type { Dispatch, PlainRequest, PlainResponse } from "./dispatcher.ts"
import { headerBytes, normalizeMethod, rawHeaderBytes, rawHeaderLookup, stripPrefix } from "./edge.ts"
import { apiError, bodyTooLarge } from "./respond.ts"

/** The runtimes whose parsers' refusals this module was checked against (the fence test holds them to it). */
export const checkedAgainst = { node: "20.20.2", bun: "1.4.5" } as const

/** What node:http (or Bun's) says of a request its parser refused, from the `clientError` event's error. */
export interface ParserRefusal {
  /** The head is over the parser's `maxHeaderSize`. */
  readonly headOverflow: boolean
  /** The bytes of the request read so far, when the parser says. */
  readonly bytes: Buffer | undefined
}

export const parserRefusal = (err: Error & { code?: string; rawPacket?: Buffer }): ParserRefusal => ({
  headOverflow: err.code === "HPE_HEADER_OVERFLOW",
  bytes: err.rawPacket,
})

/** The refused request's later bytes go to `onData`, not to node:http's parser. */
export const takeFromParser = (socket: Socket, onData: (chunk: Buffer) => void): void => {
  socket.removeAllListeners("data")
  socket.on("data", onData)
  socket.resume()
}

const reasons: Record<number, string> = {
  200: "OK",
  204: "No Content",
  304: "Not Modified",
  400: "Bad Request",
  401: "Unauthorized",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  431: "Request Header Fields Too Large",
}

/** An answer written straight to the socket (the parser refused the request, so there is no response object). */
const writeRaw = (socket: Socket, answer: PlainResponse) => {
  if (!socket.writable) return
  const headers = Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}\r\n`).join("")
  const bodyless = answer.status === 204 || answer.status === 304
  const length = bodyless ? "" : `content-length: ${Buffer.byteLength(answer.body)}\r\n`
  const head = `HTTP/1.1 ${answer.status} ${reasons[answer.status] ?? "Error"}\r\n${headers}${length}` +
    `connection: close\r\n\r\n`
  // Bytes (a logo) after the head as they are; text in the same write.
  if (typeof answer.body === "string") socket.end(head + answer.body)
  else socket.end(Buffer.concat([Buffer.from(head), bodyless ? Buffer.alloc(0) : answer.body]))
}

interface RefusedHead {
  readonly method: string
  readonly url: string
  readonly headers: Map<string, string>
  readonly bytes: number
  /** Where the body starts in the bytes read. */
  readonly bodyAt: number
  /** A Content-Length, or "chunked". */
  readonly framing: number | "chunked"
}

/** Bun's node:http (it runs the Node host there). */
const onBun = typeof process !== "undefined" && process.versions?.bun !== undefined

/** The methods whose answer may depend on the body: the routes that read one. */
const routeMethodsWithBody = new Set(["POST", "PUT", "PATCH", "DELETE"])

const tokenPattern = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

/**
 * A request head the HTTP parser refused although another server would take it (a method it does not know,
 * `FOO` or `get`; `OPTIONS *` on Bun): its request line and header fields read from the refused bytes.
 * Only a head of visible ASCII with one framing (a Content-Length or `Transfer-Encoding: chunked`) is
 * taken; `"partial"` while the head has not all arrived, undefined when it is none of these.
 */
const refusedHead = (raw: Buffer): RefusedHead | "partial" | undefined => {
  const text = raw.toString("latin1")
  const end = text.indexOf("\r\n\r\n")
  if (end === -1) return raw.length < Http.parserMaxHeaderBytes ? "partial" : undefined
  const [line, ...fields] = text.slice(0, end).split("\r\n")
  const m = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+) ([\x21-\x7e]+) HTTP\/1\.[01]$/.exec(line)
  if (m === null) return undefined
  const headers = new Map<string, string>()
  for (const field of fields) {
    const colon = field.indexOf(":")
    if (colon <= 0 || !tokenPattern.test(field.slice(0, colon))) return undefined
    const name = field.slice(0, colon).toLowerCase()
    const value = field.slice(colon + 1).trim()
    headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value)
  }
  const te = headers.get("transfer-encoding")
  const length = headers.get("content-length")
  if (te !== undefined && (length !== undefined || te.toLowerCase() !== "chunked")) return undefined
  if (length !== undefined && !/^\d{1,15}$/.test(length)) return undefined
  return {
    method: m[1],
    url: m[2],
    headers,
    bytes: headerBytes(headers),
    bodyAt: end + 4,
    framing: te !== undefined ? "chunked" : Number(length ?? 0),
  }
}

/**
 * A chunked body's data from its bytes: `"partial"` until the last chunk and the trailer section have
 * arrived, undefined when the framing is broken. `limit` stops keeping data past it (the size still counts).
 */
const dechunk = (bytes: Buffer, limit: number): { data: Buffer; size: number } | "partial" | undefined => {
  const parts: Array<Buffer> = []
  let size = 0
  let at = 0
  for (;;) {
    const eol = bytes.indexOf("\r\n", at, "latin1")
    if (eol === -1) return bytes.length - at > 1024 ? undefined : "partial"
    const m = /^([0-9A-Fa-f]{1,8})(;[^\r\n]*)?$/.exec(bytes.toString("latin1", at, eol))
    if (m === null) return undefined
    const n = parseInt(m[1], 16)
    at = eol + 2
    if (n === 0) {
      // Trailer fields, then an empty line.
      for (;;) {
        const next = bytes.indexOf("\r\n", at, "latin1")
        if (next === -1) return "partial"
        if (next === at) return { data: Buffer.concat(parts), size }
        at = next + 2
      }
    }
    if (bytes.length < at + n + 2) return "partial"
    if (bytes[at + n] !== 0x0d || bytes[at + n + 1] !== 0x0a) return undefined
    size += n
    if (size <= limit) parts.push(bytes.subarray(at, at + n))
    at += n + 2
  }
}

/** What the refused bytes hold so far: a whole request, one still arriving, or none the platform can read. */
const refusedRequest = (
  raw: Buffer,
): { head: RefusedHead; body: Buffer | "too large" } | "partial" | undefined => {
  const head = refusedHead(raw)
  if (head === undefined || head === "partial") return head
  const rest = raw.subarray(head.bodyAt)
  if (head.framing === "chunked") {
    const body = dechunk(rest, Http.maxBodyBytes)
    if (body === undefined || body === "partial") return body
    return { head, body: body.size > Http.maxBodyBytes ? "too large" : body.data }
  }
  if (rest.length < head.framing) return "partial"
  return { head, body: head.framing > Http.maxBodyBytes ? "too large" : rest.subarray(0, head.framing) }
}

/**
 * Gives a node:http server the platform's answers to what its parser refuses (a head over the parser's
 * limit: `431`; a method it does not know, `get` or `FOO`: answered as the web hosts answer it; anything
 * else: `400 invalid_request`) and to CONNECT (`404`, not a closed socket). `nodeServer` (node.ts) does this itself.
 */
/** A request the parser refused: nothing of it is read. */
const unparsed: PlainRequest = { method: "", url: "", headers: () => undefined, body: "", ip: undefined }

export const answerParserRefusals = (
  server: Server,
  dispatch: Dispatch,
  options: { readonly prefix?: string } = {},
): Server => {
  const answerHead = (socket: Socket, head: RefusedHead, body: Buffer | string) => {
    const answered = dispatch({
      method: head.method,
      url: stripPrefix(options.prefix, head.url),
      headers: (name) => head.headers.get(name),
      body,
      ip: socket.remoteAddress,
      headerBytes: head.bytes,
    })
    if (answered instanceof Promise) answered.then((a) => writeRaw(socket, a))
    else writeRaw(socket, answered)
  }
  const unparsable = () => apiError(new InvalidRequest({ message: "The request could not be parsed." }), randomUUID())
  /** What the parser refused, answered here: its log line (no method or route is known), then the answer. */
  const refuse = (socket: Socket, res: PlainResponse) => {
    dispatch.refused?.(unparsed, res, performance.now())
    writeRaw(socket, res)
  }
  /**
   * Bun's node:http hands over no bytes after the refused packet, so a body still arriving is never read:
   * the request is answered as the other hosts answer it where that answer does not depend on the body (a
   * Content-Length over the limit: the body is too large; a method no route has: 404 or 405, the body
   * unread), and as unparsable where it would.
   */
  const answerWithoutBody = (socket: Socket, bytes: Buffer) => {
    const head = refusedHead(bytes)
    if (head === undefined || head === "partial") return refuse(socket, unparsable())
    if (typeof head.framing === "number" && head.framing > Http.maxBodyBytes) {
      return refuse(socket, bodyTooLarge(randomUUID()))
    }
    if (head.framing === "chunked" || routeMethodsWithBody.has(normalizeMethod(head.method))) {
      return refuse(socket, unparsable())
    }
    answerHead(socket, head, "")
  }
  const taken = new WeakSet<Socket>()

  server.on("clientError", (err: Error & { code?: string }, socket: Socket) => {
    if (!socket.writable) return socket.destroy()
    // node:http's `requestTimeout` or `headersTimeout` passed (nodeServer's `requestTimeoutMs`) with the head or
    // the body still arriving: answered, and the connection closed, whoever holds the socket.
    if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") {
      taken.delete(socket)
      socket.removeAllListeners("data")
      return refuse(
        socket,
        apiError(new RequestTimeout({ message: "The request did not arrive whole in time." }), randomUUID()),
      )
    }
    if (taken.has(socket)) return
    const refusal = parserRefusal(err)
    if (refusal.headOverflow) {
      return refuse(
        socket,
        apiError(
          new HeadersTooLarge({ message: `The header fields are larger than ${Http.maxHeaderBytes} bytes.` }),
          randomUUID(),
        ),
      )
    }
    if (refusal.bytes === undefined) return refuse(socket, unparsable())
    let bytes: Buffer = refusal.bytes
    const settle = (): boolean => {
      const request = refusedRequest(bytes)
      if (request === "partial") return false
      taken.delete(socket)
      if (request === undefined) refuse(socket, unparsable())
      else if (request.body === "too large") refuse(socket, bodyTooLarge(randomUUID()))
      else answerHead(socket, request.head, request.body)
      return true
    }
    if (settle()) return
    if (onBun) return answerWithoutBody(socket, bytes)
    // The rest of the request is still arriving: the socket is taken from the parser and read here.
    taken.add(socket)
    const onData = (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk])
      // Past the body limit only the framing is still followed; the bytes of a Content-Length body are not kept.
      if (settle()) socket.removeListener("data", onData)
    }
    takeFromParser(socket, onData)
  })
  // CONNECT is no route here (`404`), answered like on every other host rather than by closing the socket.
  server.on("connect", (req: IncomingMessage, socket: Socket) => {
    const headers = new Map<string, string>()
    const lookup = rawHeaderLookup(req.rawHeaders)
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i].toLowerCase()
      headers.set(name, lookup(name) ?? "")
    }
    answerHead(socket, {
      method: req.method ?? "CONNECT",
      url: req.url ?? "",
      headers,
      bytes: rawHeaderBytes(req.rawHeaders),
      bodyAt: 0,
      framing: 0,
    }, "")
  })
  return server
}
