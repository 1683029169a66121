// The baseline: node:http answering a fixed JSON, nothing else (plain JS: Node 20 runs no TypeScript).
import { createServer } from "node:http"

const body = JSON.stringify({ error: "not_found" })
const server = createServer((_req, res) => {
  res.writeHead(404, { "content-type": "application/json" })
  res.end(body)
})
server.keepAliveTimeout = 65_000
server.listen(Number(process.env.PORT ?? 8080), process.env.HOST ?? "127.0.0.1", () => {
  const address = server.address()
  console.log(`listening on http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`)
})
process.on("SIGTERM", () => server.close(() => process.exit(0)))
