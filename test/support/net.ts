/** Network pieces shared by the test harnesses and the benchmarks: a free port, a JSON call over fetch. */
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
 * fetch against a server: `key` goes into `Authorization: Bearer`, `body` is sent as JSON (`rawBody` as
 * it is), and the answer's body is parsed as JSON when it is JSON.
 */
export type Call = (
  method: string,
  path: string,
  opts?: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> },
) => Promise<{ status: number; headers: Headers; body: any }>

export const jsonCall = (baseUrl: string): Call => async (method, path, opts = {}) => {
  const headers: Record<string, string> = { ...opts.headers }
  if (opts.key !== undefined) headers.authorization = `Bearer ${opts.key}`
  const body = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body))
  if (body !== undefined) headers["content-type"] ??= "application/json"
  const res = await fetch(baseUrl + path, { method, headers, body })
  const text = await res.text()
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch { /* not JSON */ }
  return { status: res.status, headers: res.headers, body: parsed }
}

/** A console call with the console token: answers `data` on 2xx and throws otherwise. */
export type ConsoleCall = (method: string, path: string, body?: unknown) => Promise<any>

export const consoleCaller = (call: Call, consoleToken: string): ConsoleCall => async (method, path, body) => {
  const res = await call(method, `/console/v1${path}`, { key: consoleToken, body: body ?? {} })
  if (res.status >= 300) throw new Error(`console ${method} ${path} -> ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.data
}
