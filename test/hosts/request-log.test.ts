/**
 * Issue 32, "Logs": one structured JSON line per request (time, level, request id, method, route template, status,
 * error code, duration, host, key prefix or account token id), the request id the caller's when valid, LOG_LEVEL,
 * a defect's cause once with its request id; and a Node host as a newcomer starts it prints JSON lines.
 */
import { connect } from "node:net"
import { ConfigProvider, Effect, ManagedRuntime } from "effect"
import { readEntry, settingsTable } from "../../adapters/config.ts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeDispatcher } from "../../adapters/http/dispatcher.ts"
import { close, listen, nodeServer } from "../../adapters/http/node.ts"
import { webHandler } from "../../adapters/http/web.ts"
import { type LogLevelName, platformLogger } from "../../adapters/logging.ts"
import type { Route } from "../../core/pipeline/handler.ts"
import { jsonCall } from "../support/net.ts"
import { setupApplication, startServer } from "../support/server.ts"
import { forSuite } from "../support/suite.ts"
import { type HostProcess, startHost } from "./host-process.ts"
import { captureLogs } from "./log-capture.ts"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** A server of the suite logging at `level`, its lines captured. */
const serverLogging = (level: LogLevelName) => {
  const logs = captureLogs()
  const s = forSuite(() => startServer({ logLevel: level }, { jobs: false, logger: logs.layer }))
  return { s, logs }
}

describe("one structured JSON line per request: time, level, request id, method, route template, status, error code, duration, host, key prefix or account token id", () => {
  const { s, logs } = serverLogging("info")

  it("a keyed request's line names it with the route's template, never the raw path", async () => {
    const { key, keyId } = await setupApplication(s)
    logs.clear()
    const id = crypto.randomUUID()
    const res = await s.call("GET", `/v1/verify/${id}`, { key })
    expect(res.status).toBe(404)
    const lines = logs.requests()
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ message: "request", logLevel: "INFO" })
    expect(new Date(lines[0].timestamp).toISOString()).toBe(lines[0].timestamp)
    expect(lines[0].annotations).toEqual({
      request_id: res.headers.get("x-request-id"),
      method: "GET",
      route: "/v1/verify/:id",
      status: 404,
      error: "not_found",
      duration_ms: expect.any(Number),
      host: new URL(s.baseUrl).host,
      key_prefix: "svc_live_",
      credential_id: keyId,
    })
    expect(logs.text()).not.toContain(id)
  })

  it("an account token's line names the token's id and its prefix", async () => {
    const { account } = await setupApplication(s)
    const made = await s.console("POST", `/accounts/${account.id}/account-tokens`, { role: "owner" })
    logs.clear()
    const res = await s.call("GET", "/v1/account/wallet", { key: made.token })
    expect(res.status).toBe(200)
    expect(logs.requests().map((l) => l.annotations)).toEqual([expect.objectContaining({
      route: "/v1/account/wallet",
      status: 200,
      error: null,
      key_prefix: "svc_acct_",
      credential_id: made.id,
    })])
  })

  it("a path no route serves is logged without a route (its raw path nowhere), a success with no error code", async () => {
    logs.clear()
    await s.call("GET", "/v1/nothing-here/some-raw-segment")
    await s.call("GET", "/healthz")
    const [unknown, health] = logs.requests().map((l) => l.annotations)
    expect(unknown).toMatchObject({ method: "GET", route: null, status: 404, error: "not_found" })
    expect(health).toMatchObject({ method: "GET", route: "/healthz", status: 200, error: null })
    expect(health.key_prefix).toBeUndefined()
    expect(logs.text()).not.toContain("some-raw-segment")
  })

  it("each line's duration is the request's, in milliseconds", async () => {
    logs.clear()
    await s.call("GET", "/healthz")
    const duration = logs.requests()[0].annotations.duration_ms as number
    expect(duration).toBeGreaterThan(0)
    expect(duration).toBeLessThan(10_000)
  })
})

describe("the request id: the caller's `x-request-id` when it is a valid one, else a fresh one", () => {
  const { s, logs } = serverLogging("info")

  it("a valid caller id is the answer's X-Request-Id and the line's request_id", async () => {
    for (
      const given of ["0f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a", "01HZY3J6Q7K8M9N0P1R2S3T4V5", "edge-7.proxy:1234567890"]
    ) {
      logs.clear()
      const res = await s.call("GET", "/healthz", { headers: { "x-request-id": given } })
      expect(res.headers.get("x-request-id")).toBe(given)
      expect(logs.requests().map((l) => l.annotations.request_id)).toEqual([given])
    }
  })

  it("an invalid one (too short, too long, a character outside letters, digits, - . :) gets a fresh UUID instead", async () => {
    const invalid = [
      "short-id",
      "a".repeat(129),
      "svc_live_abcdefghijklmnop",
      "has space in it 123",
      "<script>alert(1)</script>",
    ]
    for (const given of invalid) {
      logs.clear()
      const res = await s.call("GET", "/healthz", { headers: { "x-request-id": given } })
      const answered = res.headers.get("x-request-id")
      expect(answered).toMatch(UUID)
      expect(logs.requests().map((l) => l.annotations.request_id)).toEqual([answered])
      expect(logs.text()).not.toContain(given)
    }
  })
})

describe("`LOG_LEVEL` (debug, info, warn, error, none): the least severe level logged", () => {
  const quiet = serverLogging("warn")
  const none = serverLogging("none")
  const debug = serverLogging("debug")

  it("at warn, a request (even a refused one) logs nothing", async () => {
    quiet.logs.clear()
    await quiet.s.call("GET", "/healthz")
    await quiet.s.call("GET", "/v1/verify/x", { key: "svc_live_nothing" })
    expect(quiet.logs.lines()).toEqual([])
  })

  it("at none, nothing at all, from the start on", async () => {
    await setupApplication(none.s)
    await none.s.call("GET", "/healthz")
    expect(none.logs.lines()).toEqual([])
  })

  it("at debug, the request lines and the debug lines (an SMS sent), which info leaves out", async () => {
    const { key } = await setupApplication(debug.s)
    debug.logs.clear()
    const started = await debug.s.call("POST", "/v1/verify/start", { key, body: { to: "0551234567" } })
    expect(started.status).toBe(200)
    const levels = debug.logs.lines().map((l) => `${l.logLevel} ${l.message}`)
    expect(levels).toContain("DEBUG sms sent")
    expect(levels).toContain("INFO request")
    expect(debug.logs.lines().find((l) => l.message === "sms sent")?.annotations).toMatchObject({
      provider: "simulator",
    })
  })

  it("LOG_LEVEL is read from the environment, and a value outside the five is refused at start", async () => {
    const of = (value: string) =>
      Effect.runPromise(
        Effect.either(
          readEntry(settingsTable.logLevel).pipe(
            Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["LOG_LEVEL", value]]))),
          ),
        ),
      )
    for (const level of ["debug", "info", "warn", "error", "none"]) {
      expect(await of(level)).toMatchObject({ _tag: "Right", right: level })
    }
    const refused = await of("verbose")
    expect(refused._tag).toBe("Left")
    expect(refused._tag === "Left" && refused.left.oneLine).toBe(
      `configuration: LOG_LEVEL="verbose" is not accepted; expected "debug" or "info" or "warn" or "error" or "none" (the least severe level logged; none: no logs)`,
    )
  })
})

describe("the jobs loop, outbox deliveries, SMS calls, migrations and the start log at their level", () => {
  const logs = captureLogs()
  const s = forSuite(() =>
    startServer({ logLevel: "debug", store: "sql", pgliteDir: "memory://" }, { jobs: true, logger: logs.layer })
  )

  it("the start at info; migrations at info; each jobs pass at debug; an SMS at debug; a failed delivery at warn", async () => {
    const { app, key } = await setupApplication(s)
    await s.console("PUT", `/applications/${app.id}/webhook`, { url: "http://127.0.0.1:9/hooks" })
    await s.console("POST", `/applications/${app.id}/webhook/test`, {})
    await s.call("POST", "/v1/verify/start", { key, body: { to: "0551234567" } })
    const has = (level: string, message: RegExp) =>
      logs.lines().some((l) => l.logLevel === level && message.test(l.message))
    for (let i = 0; i < 100 && !(has("DEBUG", /^jobs pass$/) && has("WARN", /^webhook delivery failed$/)); i++) {
      await new Promise((ok) => setTimeout(ok, 50))
    }
    expect(has("INFO", /^platform started$/)).toBe(true)
    expect(has("INFO", /^migrations: /)).toBe(true)
    expect(has("DEBUG", /^jobs pass$/)).toBe(true)
    expect(has("DEBUG", /^sms sent$/)).toBe(true)
    const delivery = logs.lines().find((l) => l.message === "webhook delivery failed")
    expect(delivery).toMatchObject({ logLevel: "WARN", annotations: { status: "pending", status_code: null } })
    expect(JSON.stringify(delivery)).not.toContain("127.0.0.1:9")
  })
})

describe("a defect (an unexpected 500) logs its cause with the request id once", () => {
  const logs = captureLogs()
  const runtime = ManagedRuntime.make(platformLogger("info", logs.layer))
  const broken: Array<Route<never>> = [
    { method: "GET", path: "/v1/broken/:id", handler: () => Effect.die(new Error("the disk is on fire")) },
  ]
  let server: ReturnType<typeof nodeServer>
  let base = ""
  beforeAll(async () => {
    server = nodeServer(makeDispatcher(runtime, broken))
    base = `http://127.0.0.1:${await listen(server, 0, "127.0.0.1")}`
  })
  afterAll(async () => {
    await close(server)
    await runtime.dispose()
  })

  it("one error line with the cause and the request id, and the request's own line (500, internal_error)", async () => {
    const res = await jsonCall(base)("GET", "/v1/broken/abc")
    expect(res.body).toEqual({ error: "internal_error", request_id: res.headers.get("x-request-id") })
    const requestId = res.body.request_id
    const withCause = logs.lines().filter((l) => l.cause?.includes("the disk is on fire"))
    expect(withCause).toHaveLength(1)
    expect(withCause[0]).toMatchObject({
      message: "internal_error",
      logLevel: "ERROR",
      annotations: { request_id: requestId },
    })
    expect(logs.requests().map((l) => l.annotations)).toEqual([expect.objectContaining({
      request_id: requestId,
      route: "/v1/broken/:id",
      status: 500,
      error: "internal_error",
    })])
    expect(logs.text().split("the disk is on fire")).toHaveLength(2)
  })
})

describe("Done when: a newcomer starting the Node host sees JSON logs with request ids", () => {
  let p: HostProcess
  beforeAll(async () => {
    p = await startHost("node", { PGLITE_DIR: "memory://", LOG_LEVEL: "info", CONSOLE_TOKEN: "console-logs-token" })
  }, 120_000)
  afterAll(async () => {
    await p?.kill()
  })

  it("stdout holds the start's lines and one JSON line per request, with the answer's request id", async () => {
    const res = await jsonCall(p.baseUrl)("GET", "/healthz")
    const requestId = res.headers.get("x-request-id")!
    const json = () =>
      p.output().split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, any>)
    for (let i = 0; i < 100 && !json().some((l) => l.annotations?.request_id === requestId); i++) {
      await new Promise((ok) => setTimeout(ok, 20))
    }
    const lines = json()
    expect(lines.map((l) => l.message)).toContain("platform started")
    expect(lines.find((l) => l.annotations?.request_id === requestId)).toMatchObject({
      message: "request",
      logLevel: "INFO",
      annotations: { method: "GET", route: "/healthz", status: 200, error: null },
    })
  })
})

describe("requests a host answers itself (a body over 1 MiB, a body that stops arriving, an unparsable head) have their line too", () => {
  const logs = captureLogs()
  const runtime = ManagedRuntime.make(platformLogger("info", logs.layer))
  let server: ReturnType<typeof nodeServer>
  let port = 0
  beforeAll(async () => {
    server = nodeServer(makeDispatcher(runtime, []), { requestTimeoutMs: 400 })
    port = await listen(server, 0, "127.0.0.1")
  })
  afterAll(async () => {
    await close(server)
    await runtime.dispose()
  })
  /** What the server answers to these raw bytes: its status line and X-Request-Id. */
  const raw = (bytes: string) =>
    new Promise<{ status: number; requestId: string | undefined }>((ok, fail) => {
      const socket = connect(port, "127.0.0.1", () => socket.write(bytes))
      let got = ""
      socket.on("data", (d) => (got += d.toString("latin1")))
      socket.on("close", () =>
        ok({
          status: Number(got.split(" ")[1]),
          requestId: /x-request-id: ([^\r\n]+)/i.exec(got)?.[1],
        }))
      socket.on("error", fail)
    })
  const lineOf = async (requestId: string | undefined) => {
    for (let i = 0; i < 100 && !logs.requests().some((l) => l.annotations.request_id === requestId); i++) {
      await new Promise((ok) => setTimeout(ok, 10))
    }
    return logs.requests().find((l) => l.annotations.request_id === requestId)?.annotations
  }

  it("a body over the limit: 400 and its line (no route: none was matched), the body in neither", async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/verify`, {
      method: "POST",
      body: "x".repeat(1024 * 1024 + 1),
    })
    expect(res.status).toBe(400)
    expect(await lineOf(res.headers.get("x-request-id")!)).toMatchObject({
      status: 400,
      error: "invalid_request",
      route: null,
      method: "POST",
    })
    expect(logs.text()).not.toContain("xxxxxxxx")
  })

  it("a body that stops arriving (Content-Length 100, 10 bytes sent): 408 and its line", async () => {
    const res = await raw("POST /v1/verify HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n0123456789")
    expect(res.status).toBe(408)
    expect(await lineOf(res.requestId)).toMatchObject({ status: 408, error: "request_timeout" })
  })

  it("a head the parser refuses: 400 and its line", async () => {
    const res = await raw("GET /v1/verify HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n")
    expect(res.status).toBe(400)
    expect(await lineOf(res.requestId)).toMatchObject({ status: 400, error: "invalid_request" })
  })

  it("the web handler (Deno, Bun, embedded): a body over the limit has its line too", async () => {
    const handler = webHandler(makeDispatcher(runtime, []))
    const res = await handler(new Request("http://x/v1/verify", { method: "POST", body: "y".repeat(1024 * 1024 + 1) }))
    expect(res.status).toBe(400)
    expect(await lineOf(res.headers.get("x-request-id")!)).toMatchObject({ status: 400, route: null, method: "POST" })
  })
})
