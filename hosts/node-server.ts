/** node:http straight into the shared dispatcher; used by the Node host, tests and benchmarks. */
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { Dispatch } from "../adapters/http/dispatcher.ts"

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => resolve(chunks.length === 0 ? "" : Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

export const nodeServer = (dispatch: Dispatch): Server => {
  const server = createServer(async (req, res) => {
    const body = req.method === "GET" || req.method === "HEAD" ? "" : await readBody(req)
    const answer = await dispatch({
      method: req.method ?? "GET",
      url: req.url ?? "/",
      headers: (name) => {
        const v = req.headers[name]
        return Array.isArray(v) ? v.join(", ") : v
      },
      body,
      ip: req.socket.remoteAddress,
    })
    res.writeHead(answer.status, answer.headers)
    res.end(answer.body)
  })
  server.keepAliveTimeout = 65_000
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
