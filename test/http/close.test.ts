/**
 * `close(server)` and `stopKeepAlive(server)` (adapters/http/node.ts): a server being closed finishes its
 * requests in flight and then closes their keep-alive connections, instead of holding the close open until
 * each connection's keep-alive timeout (node:http's own `close()` closes only the connections idle at the
 * moment it is called).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { connect, type Socket } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { close, listen } from "../../adapters/http/node.ts"

/** A server whose answers wait until `release()`; `arrived` resolves with the count of requests it holds. */
const slowServer = () => {
  const held: Array<() => void> = []
  let arrive: () => void = () => {}
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume()
    const body = `answered ${req.url}`
    held.push(() => res.writeHead(200, { "content-type": "text/plain", "content-length": body.length }).end(body))
    arrive()
  })
  server.keepAliveTimeout = 65_000
  return {
    server,
    arrived: (n: number) =>
      new Promise<void>((ok) => {
        arrive = () => held.length >= n && ok()
        arrive()
      }),
    release: () => held.splice(0).forEach((answer) => answer()),
  }
}

/** What the server sends until it closes the connection. */
const untilClosed = (socket: Socket) =>
  new Promise<string>((ok) => {
    let text = ""
    socket.setEncoding("utf8").on("data", (s: string) => (text += s))
    socket.once("close", () => ok(text))
  })

const refused = (port: number) =>
  new Promise<boolean>((ok) => {
    const s = connect(port, "127.0.0.1")
    s.once("connect", () => (s.destroy(), ok(false)))
    s.once("error", (e: NodeJS.ErrnoException) => ok(e.code === "ECONNREFUSED"))
  })

let server: Server | undefined
afterEach(() => {
  server?.closeAllConnections()
  server?.close()
})

describe("close(server) finishes the requests in flight, then closes their connections at once", () => {
  it("a keep-alive request in flight at the close is answered, new connections are refused, the close ends within a second", async () => {
    const slow = slowServer()
    server = slow.server
    const port = await listen(server, 0, "127.0.0.1")
    const socket = connect(port, "127.0.0.1")
    const received = untilClosed(socket)
    socket.write("GET /first HTTP/1.1\r\nhost: x\r\nconnection: keep-alive\r\n\r\n")
    await slow.arrived(1)

    const started = Date.now()
    let closed = false
    const closing = close(server).then(() => (closed = true))
    expect(await refused(port)).toBe(true)
    await new Promise((ok) => setTimeout(ok, 100))
    expect(closed, "closed with a request in flight").toBe(false)

    slow.release()
    const text = await received
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
    expect(text).toMatch(/answered \/first$/)
    await closing
    expect(Date.now() - started).toBeLessThan(1_000)
  })

  it("a request that still arrives on an open connection is answered with `Connection: close`", async () => {
    const slow = slowServer()
    server = slow.server
    const port = await listen(server, 0, "127.0.0.1")
    const socket = connect(port, "127.0.0.1")
    const received = untilClosed(socket)
    socket.write("GET /first HTTP/1.1\r\nhost: x\r\n\r\n")
    await slow.arrived(1)
    const closing = close(server)
    // Pipelined behind the first, after the close began (the connection is busy, so it is still open).
    socket.write("GET /second HTTP/1.1\r\nhost: x\r\n\r\n")
    await slow.arrived(2)
    slow.release()
    const text = await received
    const [first, second] = text.split(/(?=HTTP\/1\.1 )/)
    expect(first).toMatch(/answered \/first$/)
    expect(second).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
    expect(second.toLowerCase()).toContain("\r\nconnection: close\r\n")
    expect(second).toMatch(/answered \/second$/)
    await closing
  })
})
