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
import { Http } from "../../core/limits.ts"
import { carriesBody } from "./body.ts"
import type { Dispatch, PlainRequest, PlainResponse } from "./dispatcher.ts"
import { rawHeaderBytes, rawHeaderLookup, stripPrefix } from "./edge.ts"
import { answerParserRefusals } from "./node-parser-refusals.ts"
import { bodyTooLarge, bodyUnreadable } from "./respond.ts"

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
    const startedAt = performance.now()
    readBody(req).then(
      (body) => answer(req, res, body),
      (e) => {
        // An oversized body was drained, not kept; the connection closes after the answer.
        const refused = e instanceof BodyTooLarge ? bodyTooLarge(randomUUID()) : bodyUnreadable(randomUUID())
        dispatch.refused?.(new NodeRequest(req, stripPrefix(prefix, req.url ?? "/"), ""), refused, startedAt)
        write(res, { ...refused, headers: { ...refused.headers, connection: "close" } })
      },
    )
  }
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
  /**
   * The longest a request's head and body may take to arrive (`REQUEST_TIMEOUT_MS`, default 30 s); past it the
   * platform answers `408 request_timeout` and closes the connection.
   */
  readonly requestTimeoutMs?: number
}

/** Node's own default is 300 s, checked every 30 s: a stalled body held its connection 308 s. */
export const defaultRequestTimeoutMs = 30_000

/**
 * A node:http server for the platform: the Node and Bun hosts', and an embedding app's
 * (`nodeServer(platform.dispatch, { app })`, then `listen`): `nodeServerOptions`, the platform's answers to
 * what the parser refuses (node-parser-refusals.ts), and `app` (default: the platform's own `nodeHandler`) for
 * every other request.
 */
export const nodeServer = (dispatch: Dispatch, options: NodeServerOptions = {}): Server => {
  const timeout = options.requestTimeoutMs ?? defaultRequestTimeoutMs
  const server = createServer({
    ...nodeServerOptions,
    requestTimeout: timeout,
    headersTimeout: timeout,
    // How often node:http looks for requests past their time: a quarter of it, so a 408 comes at most 25% late.
    connectionsCheckingInterval: Math.max(25, Math.min(30_000, Math.floor(timeout / 4))),
  }, options.app ?? nodeHandler(dispatch, options))
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
