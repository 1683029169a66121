/**
 * node:http into the shared dispatcher: `nodeHandler` is the `(req, res)` listener an Express, Fastify or
 * plain node:http app mounts; `nodeServer` is the server of the Node and Bun hosts, tests and benchmarks.
 * Both read the body themselves (the platform's 1 MiB limit, not a framework's) and hand over its bytes.
 */
import { randomUUID } from "node:crypto"
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from "node:http"
import type { Socket } from "node:net"
import { HeadersTooLarge, InvalidRequest } from "../../core/errors.ts"
import { Http } from "../../core/limits.ts"
import { carriesBody } from "./body.ts"
import type { Dispatch, PlainRequest, PlainResponse } from "./dispatcher.ts"
import { headerBytes, normalizeMethod, rawHeaderBytes, rawHeaderLookup, stripPrefix } from "./edge.ts"
import { apiError, bodyTooLarge, bodyUnreadable } from "./respond.ts"

export interface NodeHandlerOptions {
  /** A path prefix the app mounts the platform under (`/messaging`), taken off before routing. */
  readonly prefix?: string
}

class BodyTooLarge extends Error {}

const readBody = (req: IncomingMessage): Promise<Uint8Array> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    // An oversized body is drained, not kept, so the client still reads the answer.
    req.on("data", (c: Buffer) => {
      size += c.length
      if (size <= Http.maxBodyBytes) chunks.push(c)
    })
    req.on("end", () =>
      size > Http.maxBodyBytes
        ? reject(new BodyTooLarge())
        : resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)))
    req.on("error", reject)
    req.on("aborted", () =>
      reject(new Error("aborted")))
  })

const write = (res: ServerResponse, answer: PlainResponse) => {
  if (res.headersSent || res.destroyed) return
  // A length, not chunks: the answer is whole already (and Bun's node:http then frames it the same way).
  // A 204 or 304 carries neither a body nor a length.
  if (answer.status !== 204 && answer.status !== 304) res.setHeader("content-length", Buffer.byteLength(answer.body))
  res.writeHead(answer.status, answer.headers)
  res.end(answer.body)
}

/**
 * A node:http request as the dispatcher reads it. A class, not an object literal with an `ip` getter: V8
 * makes such a literal in about 300 ns, an instance whose getter is on its prototype in about 12 (Node 20).
 */
class NodeRequest implements PlainRequest {
  readonly method: string
  readonly headers: (name: string) => string | undefined
  readonly headerBytes: number
  constructor(private readonly req: IncomingMessage, readonly url: string, readonly body: Uint8Array | string) {
    this.method = req.method ?? "GET"
    // Read once: Bun's node:http builds the list anew at each read. From the raw list: the same fields
    // whatever server options the app's server was made with.
    const raw = req.rawHeaders
    this.headers = rawHeaderLookup(raw)
    this.headerBytes = rawHeaderBytes(raw)
  }
  /** Read only when a key has an IP allowlist (Bun's node:http builds the request's socket when first asked). */
  get ip(): string | undefined {
    return this.req.socket.remoteAddress
  }
}

/** The platform as a node:http request listener (Express: `app.use("/messaging", handler)`). */
export const nodeHandler = (dispatch: Dispatch, options: NodeHandlerOptions = {}) => {
  const prefix = options.prefix
  const answer = (req: IncomingMessage, res: ServerResponse, body: Uint8Array | string) => {
    const answered = dispatch(new NodeRequest(req, stripPrefix(prefix, req.url ?? "/"), body))
    // Most answers are ready at once: written without a promise.
    if (answered instanceof Promise) answered.then((a) => write(res, a))
    else write(res, answered)
  }
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (!carriesBody(req.method ?? "GET")) return answer(req, res, "")
    readBody(req).then(
      (body) => answer(req, res, body),
      (e) => {
        // An oversized body was drained, not kept; the connection closes after the answer.
        const refused = e instanceof BodyTooLarge ? bodyTooLarge(randomUUID()) : bodyUnreadable(randomUUID())
        write(res, { ...refused, headers: { ...refused.headers, connection: "close" } })
      },
    )
  }
}

const reasons: Record<number, string> = {
  200: "OK",
  204: "No Content",
  304: "Not Modified",
  400: "Bad Request",
  401: "Unauthorized",
  404: "Not Found",
  405: "Method Not Allowed",
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
 * The options of every node:http server that serves the platform (the Node and Bun hosts' own, and an
 * embedding app's `createServer(nodeServerOptions, app)`): repeated header fields joined as Fetch joins
 * them; the parser's limit above the platform's own 16 KiB, so the platform counts and answers it; a request
 * without Host answered like any other (web servers do; the platform never reads Host).
 */
export const nodeServerOptions: ServerOptions = {
  joinDuplicateHeaders: true,
  maxHeaderSize: Http.parserMaxHeaderBytes,
  requireHostHeader: false,
}

export interface NodeServerOptions extends NodeHandlerOptions {
  /**
   * The app that answers the requests (an Express or Fastify app that mounts `platform.node`), if not the
   * platform alone. The requests node:http itself refuses are still answered by the platform, as JSON.
   */
  readonly app?: RequestListener
}

/**
 * Gives a node:http server the platform's answers to what its parser refuses (a head over the parser's
 * limit: `431`; a method it does not know, `get` or `FOO`: answered as the web hosts answer it; anything
 * else: `400 invalid_request`) and to CONNECT (`404`, not a closed socket). `createServer` does this itself.
 */
export const answerParserRefusals = (server: Server, dispatch: Dispatch, options: NodeHandlerOptions = {}): Server => {
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
  /**
   * Bun's node:http hands over no bytes after the refused packet, so a body still arriving is never read:
   * the request is answered as the other hosts answer it where that answer does not depend on the body (a
   * Content-Length over the limit: the body is too large; a method no route has: 404 or 405, the body
   * unread), and as unparsable where it would.
   */
  const answerWithoutBody = (socket: Socket, bytes: Buffer) => {
    const head = refusedHead(bytes)
    if (head === undefined || head === "partial") return writeRaw(socket, unparsable())
    if (typeof head.framing === "number" && head.framing > Http.maxBodyBytes) {
      return writeRaw(socket, bodyTooLarge(randomUUID()))
    }
    if (head.framing === "chunked" || routeMethodsWithBody.has(normalizeMethod(head.method))) {
      return writeRaw(socket, unparsable())
    }
    answerHead(socket, head, "")
  }
  const taken = new WeakSet<Socket>()

  server.on("clientError", (err: Error & { code?: string; rawPacket?: Buffer }, socket: Socket) => {
    if (taken.has(socket)) return
    if (!socket.writable) return socket.destroy()
    if (err.code === "HPE_HEADER_OVERFLOW") {
      return writeRaw(
        socket,
        apiError(
          new HeadersTooLarge({ message: `The header fields are larger than ${Http.maxHeaderBytes} bytes.` }),
          randomUUID(),
        ),
      )
    }
    if (err.rawPacket === undefined) return writeRaw(socket, unparsable())
    let bytes: Buffer = err.rawPacket
    const settle = (): boolean => {
      const request = refusedRequest(bytes)
      if (request === "partial") return false
      taken.delete(socket)
      if (request === undefined) writeRaw(socket, unparsable())
      else if (request.body === "too large") writeRaw(socket, bodyTooLarge(randomUUID()))
      else answerHead(socket, request.head, request.body)
      return true
    }
    if (settle()) return
    if (onBun) return answerWithoutBody(socket, bytes)
    // The rest of the request is still arriving: the socket is taken from the parser and read here (adding a
    // `data` listener makes node:http hand the socket back from its native parser).
    taken.add(socket)
    socket.removeAllListeners("data")
    const onData = (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk])
      // Past the body limit only the framing is still followed; the bytes of a Content-Length body are not kept.
      if (settle()) socket.removeListener("data", onData)
    }
    socket.on("data", onData)
    socket.resume()
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

/**
 * A node:http server for the platform: the Node and Bun hosts', and an embedding app's
 * (`nodeServer(platform.dispatch, { app })`, then `listen`): `nodeServerOptions`, the platform's answers to
 * what the parser refuses, and `app` (default: the platform's own `nodeHandler`) for every other request.
 */
export const nodeServer = (dispatch: Dispatch, options: NodeServerOptions = {}): Server => {
  const server = createServer(nodeServerOptions, options.app ?? nodeHandler(dispatch, options))
  server.keepAliveTimeout = 65_000
  return answerParserRefusals(server, dispatch, options)
}

/** Listens and answers the bound port. */
export const listen = (server: Server, port: number, host: string): Promise<number> =>
  new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, host, () => {
      const address = server.address()
      resolve(typeof address === "object" && address ? address.port : port)
    })
  })

/**
 * From now on no connection of `server` is kept alive: the idle ones close at once, a busy one as soon as
 * its answer is written, and a request that still arrives on an open one is answered with
 * `Connection: close`. For a server being closed: node:http's `close()` closes only the connections idle at
 * that moment, so one answering a request then stays open (and the close unfinished) until its keep-alive
 * timeout. `close` does this; before a framework's own close, call it first (Fastify:
 * `stopKeepAlive(app.server)`, then `await app.close()`).
 */
export const stopKeepAlive = (server: Server): void => {
  server.prependListener("request", (_req: IncomingMessage, res: ServerResponse) => {
    if (!res.headersSent) res.setHeader("connection", "close")
  })
  server.closeIdleConnections()
  // node:http tells nobody when a connection turns idle: looked for until the server has closed.
  const sweep = setInterval(() => server.closeIdleConnections(), 50)
  sweep.unref()
  server.once("close", () => clearInterval(sweep))
}

/**
 * Stops accepting, lets in-flight requests finish, and closes every keep-alive connection once it is
 * idle (`stopKeepAlive`); resolves when the last connection has closed.
 */
export const close = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.close(() => resolve())
    stopKeepAlive(server)
  })
