/** The Node host: node:http straight into the shared dispatcher. */
import { createServer, type IncomingMessage } from "node:http"
import { banner, boot, hostname } from "./start.ts"

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => resolve(chunks.length === 0 ? "" : Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

const started = await boot()
const { dispatch } = started.platform

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

server.listen(started.settings.port, hostname(), () => {
  const address = server.address()
  const port = typeof address === "object" && address ? address.port : started.settings.port
  for (const line of banner(started, port)) console.log(line)
})

let stopping = false
const stop = async () => {
  if (stopping) return
  stopping = true
  // Stop accepting, let in-flight requests finish, then close the pool.
  await new Promise<void>((resolve) => {
    server.close(() => resolve())
    server.closeIdleConnections()
  })
  await started.platform.dispose()
  process.exit(0)
}
process.on("SIGINT", stop)
process.on("SIGTERM", stop)
