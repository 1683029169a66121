/**
 * Run by Node (through tsx) and by Bun for test/fences/node-parser.test.ts: a node:http server with the
 * platform's options refuses two requests, and what its `clientError` reports is read as
 * adapters/http/node-parser-refusals.ts reads it. Prints one JSON line.
 */
import { createServer } from "node:http"
import { connect, type Socket } from "node:net"
import { nodeServerOptions } from "../../../adapters/http/node.ts"
import { type ParserRefusal, parserRefusal, takeFromParser } from "../../../adapters/http/node-parser-refusals.ts"
import { Http } from "../../../core/limits.ts"

const refusals: Array<(r: { refusal: ParserRefusal; socket: Socket }) => void> = []
const server = createServer(nodeServerOptions, (_req, res) => res.end())
server.on("clientError", (err: Error, socket: Socket) => refusals.shift()?.({ refusal: parserRefusal(err), socket }))
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
const port = (server.address() as { port: number }).port

/** Sends `bytes` on a new connection; resolves with what the server's `clientError` reports of them. */
const refuse = async (bytes: string) => {
  const refused = new Promise<{ refusal: ParserRefusal; socket: Socket }>((resolve) => refusals.push(resolve))
  const client = connect(port, "127.0.0.1")
  client.on("error", () => {})
  await new Promise((resolve) => client.once("connect", resolve))
  client.write(bytes)
  return { client, ...(await refused) }
}

// A method the parser does not know, its body's first bytes in the refused packet and the rest after.
const head = "FOO /fence HTTP/1.1\r\nHost: fence\r\nContent-Length: 5\r\n\r\nab"
const method = await refuse(head)
let later = ""
const taken = new Promise<void>((resolve) => {
  takeFromParser(method.socket, (chunk) => {
    later += chunk.toString("latin1")
    if (later.length >= 3) resolve()
  })
  // Bun hands over nothing after the refused packet: given up after a second.
  setTimeout(resolve, 1000)
})
method.client.write("cde")
await taken
method.socket.destroy()
method.client.destroy()

// A head over the parser's limit.
const big = await refuse(`GET / HTTP/1.1\r\nHost: fence\r\nX-Big: ${"a".repeat(Http.parserMaxHeaderBytes)}\r\n\r\n`)
big.socket.destroy()
big.client.destroy()
server.close()

console.log(JSON.stringify({
  runtime: process.versions.bun === undefined ? "node" : "bun",
  version: process.versions.bun ?? process.versions.node,
  method: { headOverflow: method.refusal.headOverflow, bytes: method.refusal.bytes?.toString("latin1"), later },
  overflow: { headOverflow: big.refusal.headOverflow },
}))
process.exit(0)
