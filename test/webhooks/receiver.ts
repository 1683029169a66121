/**
 * A webhook receiver for tests: node:http on 127.0.0.1:0 that records every request and answers as
 * `respond` says (status, optionally after a delay). `verify` checks a delivery as a receiver would,
 * with the `standardwebhooks` package; `at` sets the receiver's clock (for simulated-clock deliveries).
 */
import { createServer, type Server } from "node:http"
import { Webhook } from "standardwebhooks"
import { forSuite } from "../support/suite.ts"

export interface Received {
  readonly headers: Record<string, string>
  readonly body: string
  readonly json: any
  /** Real time of arrival. */
  readonly receivedAt: number
}

export interface Answer {
  readonly status: number
  readonly delayMs?: number
}

export interface Receiver {
  readonly url: string
  readonly received: Array<Received>
  respond: (r: Received) => Answer
  /** Resolves once `n` requests have arrived (rejects after `timeoutMs`). */
  readonly waitFor: (n: number, timeoutMs?: number) => Promise<void>
  readonly close: () => Promise<void>
}

export const startReceiver = async (respond: (r: Received) => Answer = () => ({ status: 200 })): Promise<Receiver> => {
  const received: Array<Received> = []
  let waiters: Array<() => void> = []
  const server: Server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8")
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v
      let json: any
      try {
        json = JSON.parse(body)
      } catch { /* not JSON */ }
      const r: Received = { headers, body, json, receivedAt: Date.now() }
      received.push(r)
      waiters.forEach((w) => w())
      const answer = receiver.respond(r)
      const send = () => {
        if (!res.destroyed) res.writeHead(answer.status, { "content-type": "text/plain" }).end("ok")
      }
      if (answer.delayMs) setTimeout(send, answer.delayMs)
      else send()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as { port: number }).port
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    respond,
    waitFor: (n, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`expected ${n} deliveries, got ${received.length}`)), timeoutMs)
        const check = () => {
          if (received.length >= n) {
            clearTimeout(timer)
            waiters = waiters.filter((w) => w !== check)
            resolve()
          }
        }
        waiters.push(check)
        check()
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  return receiver
}

/** The receiver of the enclosing suite (file or `describe`), see `forSuite`. */
export const useReceiver = (...args: Parameters<typeof startReceiver>): Receiver =>
  forSuite(() => startReceiver(...args))

/**
 * Verifies a delivery with `standardwebhooks` as a receiver does, answering the parsed payload (throws
 * if refused). `clockMs` is the receiver's clock (default: real time); the package checks the timestamp
 * against it with a 5-minute tolerance.
 */
export const verify = (secret: string, r: Pick<Received, "headers" | "body">, clockMs?: number): any => {
  const realNow = Date.now
  if (clockMs !== undefined) Date.now = () => clockMs
  try {
    return new Webhook(secret).verify(r.body, r.headers)
  } finally {
    Date.now = realNow
  }
}
