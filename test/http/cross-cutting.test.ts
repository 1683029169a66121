/**
 * Cross-cutting HTTP behaviour (DECISIONS 4, spec Sections 4, 7 and 9): `X-Request-Id` everywhere,
 * the `/api/v1` alias, unknown routes, the retired product, and the 500 that leaks nothing.
 */
import { connect } from "node:net"
import { Cause, Effect, Exit, Logger, ManagedRuntime } from "effect"
import { platformLogger } from "../../adapters/logging.ts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeDispatcher } from "../../adapters/http/dispatcher.ts"
import type { Route } from "../../core/pipeline/handler.ts"
import { fromExit } from "../../adapters/http/respond.ts"
import { NotFound } from "../../core/errors.ts"
import { close, listen, nodeServer } from "../../adapters/http/node.ts"
import { phone } from "../support/phone.ts"
import { setupApplication, useServer } from "../support/server.ts"

const s = useServer()

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe('"Every response, error or not, unknown route included, carries `X-Request-Id`"', () => {
  it("successes, catalogue errors, unknown routes, console answers and 429s all carry a distinct X-Request-Id", async () => {
    const { key } = await setupApplication(s)
    const answers = [
      await s.call("GET", "/healthz"),
      await s.call("POST", "/v1/verify/start", { key, body: { to: phone() } }),
      await s.call("POST", "/v1/verify/start", { key, rawBody: "{" }),
      await s.call("POST", "/v1/verify/start", { body: {} }),
      await s.call("GET", `/v1/verify/${crypto.randomUUID()}`, { key }),
      await s.call("GET", "/v1/nothing-here"),
      await s.call("GET", "/"),
      await s.call("DELETE", "/v1/verify/start", { key }),
      await s.call("GET", "/console/v1/nothing-here"),
      await s.call("POST", "/console/v1/accounts", { body: { name: "x" } }),
      await s.call("POST", "/console/v1/accounts", { key: s.consoleToken, body: { name: "x" } }),
      await s.call("POST", "/v1/messages", { key }),
      await s.call("GET", "/api/v1/nothing-here"),
    ]
    const statuses = answers.map((a) => a.status)
    expect(statuses).toEqual([200, 200, 400, 401, 404, 404, 404, 405, 404, 401, 201, 410, 404])
    const ids = answers.map((a) => a.headers.get("x-request-id"))
    for (const id of ids) expect(id).toMatch(UUID)
    expect(new Set(ids).size).toBe(ids.length)

    for (let i = 0; i < 120; i++) await s.call("GET", `/v1/verify/${crypto.randomUUID()}`, { key: "svc_live_rl-probe" })
    const limited = await s.call("GET", `/v1/verify/${crypto.randomUUID()}`, { key: "svc_live_rl-probe" })
    expect(limited.status).toBe(429)
    expect(limited.headers.get("x-request-id")).toMatch(UUID)
  })
})

describe('"`/api/v1/...` answers exactly as `/v1/...`"', () => {
  it("start through /api/v1, read through both: the same status and body", async () => {
    const { key } = await setupApplication(s)
    const started = await s.call("POST", "/api/v1/verify/start", { key, body: { to: phone() } })
    expect(started.status).toBe(200)
    expect(started.body.status).toBe("pending")
    const viaAlias = await s.call("GET", `/api/v1/verify/${started.body.id}`, { key })
    const viaV1 = await s.call("GET", `/v1/verify/${started.body.id}`, { key })
    expect(viaAlias.status).toBe(200)
    expect(viaAlias.body).toEqual(viaV1.body)
    expect(viaAlias.body).toEqual(started.body)
  })

  it("errors are the same through both prefixes (401, 400, 404, 403 with WWW-Authenticate, 410)", async () => {
    const { app, key } = await setupApplication(s)
    const check = await s.console("POST", `/applications/${app.id}/keys`, { mode: "live", access: "check" })
    const cases: Array<[string, string, { key?: string; body?: unknown; rawBody?: string }]> = [
      ["POST", "/verify/start", { body: { to: phone() } }],
      ["POST", "/verify/start", { key, rawBody: "{" }],
      ["POST", "/verify/start", { key, body: {} }],
      ["GET", `/verify/${crypto.randomUUID()}`, { key }],
      ["POST", "/verify/start", { key: check.key, body: { to: phone() } }],
      ["POST", "/messages", {}],
    ]
    for (const [method, path, opts] of cases) {
      const a = await s.call(method, `/api/v1${path}`, opts)
      const b = await s.call(method, `/v1${path}`, opts)
      expect(a.status, path).toBe(b.status)
      expect(a.body, path).toEqual(b.body)
      expect(a.headers.get("www-authenticate")).toBe(b.headers.get("www-authenticate"))
    }
  })

  it("one rate-limit window and one idempotency record serve both prefixes", async () => {
    const { key } = await setupApplication(s)
    const to = phone()
    const first = await s.call("POST", "/v1/verify/start", {
      key,
      body: { to },
      headers: { "idempotency-key": "alias-1" },
    })
    const replay = await s.call("POST", "/api/v1/verify/start", {
      key,
      body: { to },
      headers: { "idempotency-key": "alias-1" },
    })
    expect(replay.status).toBe(200)
    expect(replay.headers.get("idempotent-replayed")).toBe("true")
    expect(replay.body).toEqual(first.body)

    for (let i = 0; i < 59; i++) await s.call("GET", `/v1/verify/${crypto.randomUUID()}`, { key })
    for (let i = 0; i < 59; i++) await s.call("GET", `/api/v1/verify/${crypto.randomUUID()}`, { key })
    expect((await s.call("GET", `/api/v1/verify/${crypto.randomUUID()}`, { key })).status).toBe(429)
    expect((await s.call("GET", `/v1/verify/${crypto.randomUUID()}`, { key })).status).toBe(429)
  })

  it("/api alone, /api/v2 and /apiv1 are not aliases: 404 not_found", async () => {
    for (const path of ["/api", "/api/v2/verify/start", "/apiv1/verify/start", "/api/api/v1/verify/start"]) {
      const res = await s.call("POST", path, { body: {} })
      expect(res.status, path).toBe(404)
      expect(res.body).toEqual({ error: "not_found" })
    }
  })
})

describe('"unknown routes (console included) answer `404 { \\"error\\": \\"not_found\\" }` before any other check, and count toward no limit"', () => {
  it('an unknown route answers exactly {"error":"not_found"} with or without a key', async () => {
    const { key } = await setupApplication(s)
    for (
      const [method, path, opts] of [
        ["GET", "/v1/unknown", {}],
        ["POST", "/v1/verify", { key }],
        ["GET", "/v1/verify/start", { key }],
        ["POST", "/v1/verify/start/extra", { key: "svc_live_nobody" }],
        ["GET", "/v1/verify/a/b/c", { key }],
      ] as Array<[string, string, { key?: string; rawBody?: string }]>
    ) {
      const res = await s.call(method, path, opts)
      expect(res.status, `${method} ${path}`).toBe(404)
      expect(res.body).toEqual({ error: "not_found" })
      expect(res.headers.get("content-type")).toContain("application/json")
    }
  })

  it("a known path asked with a method it does not serve answers 405 method_not_allowed with Allow, before any check", async () => {
    const { key } = await setupApplication(s)
    for (
      const [method, path, allow] of [
        ["PUT", "/v1/verify/check", "GET, HEAD, POST, OPTIONS"],
        ["DELETE", "/v1/verify/start", "GET, HEAD, POST, OPTIONS"],
        ["PATCH", `/api/v1/verify/${crypto.randomUUID()}/resend`, "POST, OPTIONS"],
        ["POST", "/healthz", "GET, HEAD, OPTIONS"],
      ] as Array<[string, string, string]>
    ) {
      for (const opts of [{}, { key }, { key: "svc_live_nobody", rawBody: "{" }]) {
        const res = await s.call(method, path, opts)
        expect(res.status, `${method} ${path}`).toBe(405)
        expect(res.headers.get("allow")).toBe(allow)
        expect(res.body).toEqual({
          error: "method_not_allowed",
          message: `${method} is not allowed here; use ${allow}.`,
        })
        expect(res.headers.get("x-request-id")).toMatch(UUID)
      }
    }
  })

  it('console unknown routes answer 404 {"error":"not_found"} before the console token is checked', async () => {
    for (const key of [undefined, "wrong", s.consoleToken]) {
      const res = await s.call("POST", "/console/v1/no-such-thing", { ...(key ? { key } : {}), body: {} })
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ error: "not_found" })
    }
  })

  it("unknown routes count toward no limit: 150 of them with a key leave its 120 requests untouched", async () => {
    const { key } = await setupApplication(s)
    for (let i = 0; i < 150; i++) {
      expect((await s.call("GET", `/v1/nowhere/${i}`, { key })).status).toBe(404)
    }
    for (let i = 0; i < 120; i++) {
      expect((await s.call("GET", `/v1/verify/${crypto.randomUUID()}`, { key })).status).toBe(404)
    }
    expect((await s.call("GET", `/v1/verify/${crypto.randomUUID()}`, { key })).status).toBe(429)
  })
})

describe('"`POST /v1/messages` (retired) answers `410 product_retired`"', () => {
  it("with or without a key, through /v1 and /api/v1", async () => {
    const { key } = await setupApplication(s)
    for (const path of ["/v1/messages", "/api/v1/messages"]) {
      for (const opts of [{}, { key }, { key, body: { to: phone(), text: "hi" } }]) {
        const res = await s.call("POST", path, opts)
        expect(res.status).toBe(410)
        expect(res.body.error).toBe("product_retired")
        expect(Object.keys(res.body).every((k) => k === "error" || k === "message")).toBe(true)
      }
    }
  })
})

describe('"`500 internal_error`: unhandled; quote `X-Request-Id`" — the answer leaks nothing but the request id', () => {
  const secret = "database password is hunter2 at /srv/secret.ts:42"
  let base: string
  let server: ReturnType<typeof nodeServer>
  const logged: Array<string> = []
  // The platform's logger at `error`, its JSON lines captured.
  const runtime = ManagedRuntime.make(
    platformLogger("error", Logger.replace(Logger.defaultLogger, Logger.map(Logger.jsonLogger, (l) => logged.push(l)))),
  )

  beforeAll(async () => {
    // The shared dispatcher over the real platform runtime, with handlers that break in every way a handler can.
    const broken: Array<Route<never>> = [
      { method: "GET", path: "/v1/broken/die", handler: () => Effect.die(new Error(secret)) },
      { method: "GET", path: "/v1/broken/fail", handler: () => Effect.fail(new Error(secret)) },
      {
        method: "GET",
        path: "/v1/broken/fail-object",
        handler: () => Effect.fail({ _tag: "db_error", detail: secret }),
      },
      {
        method: "GET",
        path: "/v1/broken/throw",
        handler: () => {
          throw new Error(secret)
        },
      },
      { method: "GET", path: "/v1/broken/interrupt", handler: () => Effect.interrupt },
      { method: "GET", path: "/v1/broken/ok", handler: () => Effect.succeed({ status: 200, body: { fine: true } }) },
    ]
    server = nodeServer(makeDispatcher(runtime, broken))
    base = `http://127.0.0.1:${await listen(server, 0, "127.0.0.1")}`
  })
  afterAll(async () => {
    await close(server)
    await runtime.dispose()
  })

  it("a defect, an uncatalogued failure, a thrown exception and an interruption each answer 500 {error: internal_error, request_id} and nothing else", async () => {
    for (const path of ["die", "fail", "fail-object", "throw", "interrupt"]) {
      const res = await fetch(`${base}/v1/broken/${path}`)
      const text = await res.text()
      const requestId = res.headers.get("x-request-id")
      expect(res.status, path).toBe(500)
      expect(requestId).toMatch(UUID)
      expect(JSON.parse(text)).toEqual({ error: "internal_error", request_id: requestId })
      expect(text).not.toContain("hunter2")
      expect(text).not.toContain("secret")
      const transport = new Set(["connection", "content-length", "transfer-encoding", "date", "keep-alive"])
      expect([...res.headers.keys()].filter((h) => !transport.has(h)).sort()).toEqual(["content-type", "x-request-id"])
      // The operator can find the cause in the log by the request id.
      expect(logged.some((line) => line.includes(requestId!))).toBe(true)
    }
    expect((await fetch(`${base}/v1/broken/ok`)).status).toBe(200)
  })

  it("respond.fromExit: a defect becomes 500 with only the request id, and the cause goes to the defect log, not the body", () => {
    const causes: Array<Cause.Cause<unknown>> = []
    const res = fromExit(Exit.die(new Error(secret)), "req-1", (_id, c) => causes.push(c))
    expect(res.status).toBe(500)
    expect(JSON.parse(res.body as string)).toEqual({ error: "internal_error", request_id: "req-1" })
    expect(res.headers["x-request-id"]).toBe("req-1")
    expect(res.body).not.toContain("hunter2")
    expect(causes).toHaveLength(1)
    expect(Cause.pretty(causes[0])).toContain("hunter2")

    const console500 = fromExit(Exit.fail(new Error(secret)), "req-2", () => {}, true)
    expect(JSON.parse(console500.body as string)).toEqual({ error: "internal_error", request_id: "req-2" })

    const known = fromExit(Exit.fail(new NotFound({})), "req-3", () => expect.fail("not a defect"))
    expect(known.status).toBe(404)
    expect(JSON.parse(known.body as string)).toEqual({ error: "not_found" })
  })
})

describe("a request the Node host cannot parse still gets a JSON error with a request id", () => {
  const raw = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(s.baseUrl).port), "127.0.0.1", () => socket.end(text))
      let answer = ""
      socket.on("data", (chunk) => (answer += chunk.toString()))
      socket.on("end", () => resolve(answer))
      socket.on("error", reject)
    })

  it("a malformed request line answers 400 invalid_request and closes", async () => {
    const answer = await raw("GARBAGE\r\n\r\n")
    expect(answer).toMatch(/^HTTP\/1\.1 400 /)
    expect(answer).toMatch(/x-request-id: [0-9a-f-]{36}\r\n/)
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({
      error: "invalid_request",
      message: "The request could not be parsed.",
    })
  })
})
