/** node:http straight into the shared dispatcher; used by the Node host, tests and benchmarks. */
import { randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { Dispatch, PlainResponse } from "../adapters/http/dispatcher.ts"
import { carriesBody } from "../adapters/http/body.ts"
import { apiError, bodyTooLarge, bodyUnreadable } from "../adapters/http/respond.ts"
import { InvalidRequest } from "../core/errors.ts"
import { Http } from "../core/limits.ts"

const maxBodyBytes = Http.maxBodyBytes

class BodyTooLarge extends Error {}

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    // An oversized body is drained, not kept, so the client still reads the answer.
    req.on("data", (c: Buffer) => {
      size += c.length
      if (size <= maxBodyBytes) chunks.push(c)
    })
    req.on("end", () =>
      size > maxBodyBytes
        ? reject(new BodyTooLarge())
        : resolve(chunks.length === 0 ? "" : Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

const write = (res: ServerResponse, answer: PlainResponse) => {
  res.writeHead(answer.status, answer.headers)
  res.end(answer.body)
}

export const nodeServer = (dispatch: Dispatch): Server => {
  const answer = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const answered = dispatch({
      method: req.method ?? "GET",
      url: req.url ?? "/",
      headers: (name) => {
        const v = req.headers[name]
        return Array.isArray(v) ? v.join(", ") : v
      },
      body,
      ip: req.socket.remoteAddress,
    })
    // Most answers are ready at once: written without a promise.
    if (answered instanceof Promise) answered.then((a) => write(res, a))
    else write(res, answered)
  }
  const server = createServer((req, res) => {
    if (!carriesBody(req.method ?? "GET")) return answer(req, res, "")
    readBody(req).then(
      (body) => answer(req, res, body),
      (e) => {
        // An oversized body was drained, not kept; the connection closes after the answer.
        const refused = e instanceof BodyTooLarge ? bodyTooLarge(randomUUID()) : bodyUnreadable(randomUUID())
        res.writeHead(refused.status, { ...refused.headers, connection: "close" })
        res.end(refused.body)
      },
    )
  })
  server.keepAliveTimeout = 65_000
  // A request Node's parser refuses still gets a JSON error with a request id.
  server.on("clientError", (_err, socket) => {
    if (!socket.writable) return socket.destroy()
    const refused = apiError(new InvalidRequest({ message: "The request could not be parsed." }), randomUUID())
    const headers = Object.entries(refused.headers).map(([name, value]) => `${name}: ${value}\r\n`).join("")
    socket.end(
      `HTTP/1.1 400 Bad Request\r\n${headers}content-length: ${Buffer.byteLength(refused.body)}\r\n` +
        `connection: close\r\n\r\n${refused.body}`,
    )
  })
  return server
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

/** Stops accepting, lets in-flight requests finish. */
export const close = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.close(() => resolve())
    server.closeIdleConnections()
  })
