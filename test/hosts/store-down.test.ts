/**
 * Issue 32: PostgreSQL stopped under a running host. Every call answered 500 and the jobs loop wrote about 55
 * log lines a second; now a call answers `503 store_unavailable` with `Retry-After`, `/readyz` 503, `/healthz`
 * stays 200, the jobs back off and log once, and all of it recovers by itself when PostgreSQL is back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { jsonCall } from "../support/net.ts"
import { type OwnPostgres, ownPostgres } from "../support/own-postgres.ts"
import { type HostProcess, startHost } from "./host-process.ts"

let pg: OwnPostgres | undefined
let host: HostProcess | undefined

beforeAll(async () => {
  pg = await ownPostgres()
  host = await startHost("node", { DATABASE_URL: pg.url, CONSOLE_TOKEN: "console-store-down-token", LOG_LEVEL: "info" })
}, 120_000)
afterAll(async () => {
  await host?.kill()
  pg?.destroy()
})

const until = async (what: string, check: () => Promise<boolean>, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`)
    await new Promise((ok) => setTimeout(ok, 250))
  }
}

describe("the store stopped and started again under a running Node host", () => {
  it(
    "503 store_unavailable with Retry-After and /readyz 503 while it is down, one log line, then 200 again",
    async () => {
      const p = host!
      const call = jsonCall(p.baseUrl)
      const key = p.banner.demoLiveKey!
      const read = () => call("GET", `/v1/verify/${crypto.randomUUID()}`, { key })

      expect(await read()).toMatchObject({ status: 404, body: { error: "not_found" } })
      expect((await call("GET", "/readyz")).status).toBe(200)

      pg!.stop()
      const logged = p.output().length
      const down = await read()
      expect(down.status).toBe(503)
      expect(down.body).toMatchObject({ error: "store_unavailable" })
      expect(down.headers.get("retry-after")).toBe("5")
      expect(down.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
      const start = await call("POST", "/v1/verify/start", { key, body: { to: "0551234567" } })
      expect(start).toMatchObject({ status: 503, body: { error: "store_unavailable" } })
      const console = await call("GET", "/console/v1/simulator/sms?to=0551234567", { key: "console-store-down-token" })
      expect(console).toMatchObject({ status: 503, body: { error: "store_unavailable" } })
      const ready = await call("GET", "/readyz")
      expect(ready).toMatchObject({ status: 503, body: { status: "not_ready", reason: "store_unreachable" } })
      expect((await call("GET", "/healthz")).status).toBe(200)

      // The jobs loop (a 1 s loop and the webhook dispatcher's 200 ms one) over 4 s down: one line, not ~200.
      await new Promise((ok) => setTimeout(ok, 4_000))
      // The lines besides each request's own (LOG_LEVEL=info: one per request).
      const whileDown = p.output().slice(logged).split("\n")
        .filter((l) => l.trim() !== "" && !l.startsWith('{"message":"request"'))
      expect(whileDown.length, whileDown.join("\n")).toBeLessThanOrEqual(3)
      expect(whileDown.join("\n")).toMatch(/store unreachable/)

      pg!.start()
      await until("/readyz 200", async () => (await call("GET", "/readyz")).status === 200, 30_000)
      expect(await read()).toMatchObject({ status: 404, body: { error: "not_found" } })
      const again = await call("POST", "/v1/verify/start", { key, body: { to: "0551234567" } })
      expect(again).toMatchObject({ status: 200, body: { status: "pending" } })
      // The jobs find it too, within their backoff (at most 30 s; here about the 4 s it was down).
      await until(
        "the jobs log the store back",
        () => Promise.resolve(/store reachable again/.test(p.output())),
        30_000,
      )
    },
    120_000,
  )
})
