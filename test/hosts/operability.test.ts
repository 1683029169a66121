/**
 * Issue 32, health: `/readyz` beside `/healthz` on every host, and requests whose head or body stops arriving
 * answered `408 request_timeout` after `REQUEST_TIMEOUT_MS` (here 1 s) instead of holding the connection
 * (node:http's own limits were 300 s, checked every 30 s: 308 s).
 */
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type HostName, type HostProcess, startHost } from "./host-process.ts"
import { startServer, type TestServer } from "../support/server.ts"

/** Writes `text` on a fresh connection; the first answer's bytes and when they came, or "" after `waitMs`. */
const stalled = (port: number, text: string, waitMs = 8_000) =>
  new Promise<{ ms: number; answer: string }>((resolve) => {
    const started = Date.now()
    const socket = connect(port, "127.0.0.1", () => socket.write(text))
    let answer = ""
    let done = false
    const finish = () => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket.destroy()
      resolve({ ms: Date.now() - started, answer })
    }
    socket.setEncoding("latin1").on("data", (chunk: string) => {
      answer += chunk
      const end = answer.indexOf("\r\n\r\n")
      const length = /content-length: (\d+)/i.exec(answer)
      if (end !== -1 && length && answer.length >= end + 4 + Number(length[1])) finish()
    })
    socket.on("close", finish)
    socket.on("error", finish)
    const timer = setTimeout(finish, waitMs)
  })

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))

const stalledBody = "POST /v1/verify/start HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
  'Content-Length: 100\r\n\r\n{"to": "05'
const stalledHead = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: a"

/** The three hosts, and Bun's on Bun.serve over the web handler (`BUN_SERVER=serve`). */
type Served = HostName | "bun-serve"
const hosts: ReadonlyArray<Served> = ["node", "deno", "bun", "bun-serve"]
const started = new Map<Served, HostProcess>()

beforeAll(async () => {
  await Promise.all(hosts.map(async (host) => {
    const env = {
      STORE: "memory",
      REQUEST_TIMEOUT_MS: "1000",
      ...(host === "bun-serve" ? { BUN_SERVER: "serve" } : {}),
    }
    started.set(host, await startHost(host === "bun-serve" ? "bun" : host, env, { demo: false }))
  }))
}, 120_000)
afterAll(async () => {
  await Promise.all([...started.values()].map((p) => p.kill()))
})

describe.each(hosts.map((h) => [h] as [Served]))("the %s host", (host) => {
  it("/readyz answers 200 { status: ready }; /healthz stays 200 { status: ok }", async () => {
    const p = started.get(host)!
    const ready = await fetch(`${p.baseUrl}/readyz`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: "ready" })
    expect(ready.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
    expect(ready.headers.get("cache-control")).toBe("no-store")
    const health = await fetch(`${p.baseUrl}/healthz`)
    expect(await health.json()).toEqual({ status: "ok" })
  })

  it("a body that stops arriving (Content-Length 100, 10 bytes sent) answers 408 request_timeout after about 1 s", async () => {
    const { ms, answer } = await stalled(started.get(host)!.port, stalledBody)
    expect(answer).toMatch(/^HTTP\/1\.1 408 /)
    expect(answer).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/i)
    expect(bodyOf(answer)).toMatchObject({ error: "request_timeout" })
    expect(ms).toBeGreaterThanOrEqual(900)
    expect(ms).toBeLessThan(5_000)
  })
})

describe.each((["node", "bun"] as const).map((h) => [h]))("the %s host's node:http", (host) => {
  it("a head that stops arriving answers 408 request_timeout after about 1 s", async () => {
    const { ms, answer } = await stalled(started.get(host)!.port, stalledHead)
    expect(answer).toMatch(/^HTTP\/1\.1 408 /)
    expect(bodyOf(answer)).toMatchObject({ error: "request_timeout" })
    expect(ms).toBeLessThan(5_000)
  })
})

describe("readiness and the web handler's body timeout, in process", () => {
  let s: TestServer
  beforeAll(async () => {
    s = await startServer({ requestTimeoutMs: 300 })
  })
  afterAll(async () => {
    await s?.close()
  })

  it("/readyz answers 503 { status: not_ready, reason: stopping } with Retry-After once the platform is stopping", async () => {
    expect((await s.platform.fetch(new Request("http://h/readyz"))).status).toBe(200)
    s.platform.stopping()
    const res = await s.platform.fetch(new Request("http://h/readyz"))
    expect(res.status).toBe(503)
    expect(res.headers.get("retry-after")).toBe("5")
    expect(await res.json()).toEqual({ status: "not_ready", reason: "stopping" })
    expect((await s.platform.fetch(new Request("http://h/healthz"))).status).toBe(200)
  })

  it("the web handler answers a body that stops arriving 408 request_timeout", async () => {
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode('{"to": "05')),
    })
    const startedAt = Date.now()
    const res = await s.platform.fetch(
      new Request("http://h/v1/verify/start", { method: "POST", body, duplex: "half" } as RequestInit),
    )
    expect(res.status).toBe(408)
    expect(await res.json()).toMatchObject({ error: "request_timeout" })
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(250)
  })
})
