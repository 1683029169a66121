/** Network pieces shared by the test harnesses and the benchmarks: a free port, a JSON call over node:http. */
import { Agent, request } from "node:http"
import { createServer } from "node:net"

/** A port nobody listens on right now (for a child process whose banner cannot report a PORT=0 pick). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })

/**
 * A call to a server over node:http, with connections kept alive: `key` goes into `Authorization: Bearer`, `body` is
 * sent as JSON (`rawBody` as it is), and the answer's body is parsed as JSON when it is JSON. The path is read as
 * `new URL` reads it, as fetch did (dot segments resolved, what a URL cannot hold percent-encoded), and the request
 * carries fetch's `Accept` and `User-Agent`. Not fetch (undici): its side of a call cost a third of what the server's
 * answer cost: test/frame/parameters-fuzz.test.ts took 25-27 CPU-seconds with it against 18 (issue 28).
 */
export type Call = (
  method: string,
  path: string,
  opts?: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> },
) => Promise<{ status: number; headers: Headers; body: any }>

export const jsonCall = (baseUrl: string): Call => {
  // A connection idle for a second is closed by the client (every server here keeps one open longer), so a request
  // is never written on a connection the server is closing at that moment.
  const agent = new Agent({ keepAlive: true, timeout: 1_000 })
  return (method, path, opts = {}) =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = { accept: "*/*", "user-agent": "node", ...opts.headers }
      if (opts.key !== undefined) headers.authorization = `Bearer ${opts.key}`
      const body = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body))
      if (body !== undefined) {
        headers["content-type"] ??= "application/json"
        headers["content-length"] = String(Buffer.byteLength(body))
      }
      const req = request(new URL(baseUrl + path), { method, headers, agent }, (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (chunk: Buffer) => chunks.push(chunk))
        res.on("error", reject)
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8")
          let parsed: unknown = text
          try {
            parsed = JSON.parse(text)
          } catch { /* not JSON */ }
          const answered = new Headers()
          for (let i = 0; i < res.rawHeaders.length; i += 2) answered.append(res.rawHeaders[i], res.rawHeaders[i + 1])
          resolve({ status: res.statusCode!, headers: answered, body: parsed })
        })
      })
      req.on("error", reject)
      req.end(body)
    })
}

/** A console call with the console token: answers `data` on 2xx and throws otherwise. */
export type ConsoleCall = (method: string, path: string, body?: unknown) => Promise<any>

export const consoleCaller = (call: Call, consoleToken: string): ConsoleCall => async (method, path, body) => {
  const res = await call(method, `/console/v1${path}`, { key: consoleToken, body: body ?? {} })
  if (res.status >= 300) throw new Error(`console ${method} ${path} -> ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.data
}
