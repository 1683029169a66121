/**
 * The order of checks (spec Section 5, Errors Section 7 "Shared by every endpoint (in check order)",
 * Limits Section 8, DECISIONS 3 and 4), over HTTP against the in-process server: memory store,
 * simulators, simulated clock. One `describe` per rule; each test makes its own account and key, so
 * rate-limit windows and caps never leak between tests.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { nodeServer } from "../../adapters/http/node.ts"
import { phone } from "../support/phone.ts"
import { setupApplication, useServer } from "../support/server.ts"

const s = useServer()

const SCOPE_HEADER_SEND = "Bearer error=insufficient_scope, scope=verify:send"
const SCOPE_HEADER_CHECK = "Bearer error=insufficient_scope, scope=verify:check"

const nowMs = async (): Promise<number> => (await s.console("POST", "/simulator/clock", { advance_ms: 0 })).now_ms
const advance = (ms: number) => s.console("POST", "/simulator/clock", { advance_ms: ms })
const smsCount = async (to: string): Promise<number> =>
  (await s.call("GET", `/console/v1/simulator/sms?to=${encodeURIComponent(to)}`, { key: s.consoleToken })).body.data
    .length

/** A cheap key-authenticated request: reading an unknown verification answers 404 not_found once every check passed. */
const probe = (key: string, headers?: Record<string, string>) =>
  s.call("GET", `/v1/verify/${crypto.randomUUID()}`, { key, ...(headers ? { headers } : {}) })

const start = (key: string, body: unknown = { to: phone() }, headers?: Record<string, string>) =>
  s.call("POST", "/v1/verify/start", { key, body, ...(headers ? { headers } : {}) })

const newKey = async (applicationId: string, body: Record<string, unknown>) =>
  (await s.console("POST", `/applications/${applicationId}/keys`, body)) as { id: string; key: string }

/** A partner account with one approved client application and a funded wallet. */
const setupPartner = async (opts: { approved?: boolean; mode?: "partner" | "partner_test" } = {}) => {
  const account = await s.console("POST", "/accounts", { name: "Partner", partner: true })
  const client = await s.console("POST", `/accounts/${account.id}/applications`, {
    name: "Client",
    approved: opts.approved ?? true,
    external_id: `ext-${crypto.randomUUID()}`,
  })
  await s.console("POST", `/accounts/${account.id}/wallet/credit`, { amount_halalas: 10_000 })
  const key = await s.console("POST", `/accounts/${account.id}/keys`, { mode: opts.mode ?? "partner" })
  return { account, client, key: key.key as string }
}

describe('Order of checks, step 1: "Per-key rate limit (`429 too_many_requests`), before authentication" — 120 requests per minute per key, fixed 60-second window', () => {
  /** Fires `n` requests with `key` one after another; answers their statuses. */
  const burst = async (n: number, send: () => Promise<{ status: number }>) => {
    const statuses: Array<number> = []
    for (let i = 0; i < n; i++) statuses.push((await send()).status)
    return statuses
  }

  it("the 121st request in a window answers 429 {error: too_many_requests} with Retry-After = seconds to the window's end rounded up (1..60)", async () => {
    const { key } = await setupApplication(s)
    const statuses = await burst(120, () => probe(key))
    expect(statuses.every((st) => st === 404)).toBe(true)
    const now = await nowMs()
    const limited = await probe(key)
    expect(limited.status).toBe(429)
    expect(limited.body).toEqual({ error: "too_many_requests" })
    const retryAfter = Number(limited.headers.get("retry-after"))
    const windowEnd = now - (now % 60_000) + 60_000
    expect(retryAfter).toBe(Math.ceil((windowEnd - now) / 1000))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(limited.headers.get("x-request-id")).toBeTruthy()
  })

  it("Retry-After is 60 at the very start of a window and 1 in its last second; the window resets once the simulated clock passes the window end", async () => {
    const { key } = await setupApplication(s)
    const now = await nowMs()
    await advance(now - (now % 60_000) + 60_000 - now) // exactly the start of the next window
    await burst(120, () => probe(key))
    const atStart = await probe(key)
    expect(atStart.status).toBe(429)
    expect(atStart.headers.get("retry-after")).toBe("60")

    await advance(59_500) // the window's last half second
    const atEnd = await probe(key)
    expect(atEnd.status).toBe(429)
    expect(atEnd.headers.get("retry-after")).toBe("1")

    await advance(500) // the next window begins
    const served = await probe(key)
    expect(served.status).toBe(404)
    expect((await burst(119, () => probe(key))).every((st) => st === 404)).toBe(true)
    expect((await probe(key)).status).toBe(429)
  })

  it('"checked before authentication": unknown keys are counted too — the 121st request with an unknown key answers 429, not 401', async () => {
    const unknown = `svc_live_unknown${crypto.randomUUID().replaceAll("-", "")}`
    const statuses = await burst(120, () => probe(unknown))
    expect(statuses.every((st) => st === 401)).toBe(true)
    const limited = await probe(unknown)
    expect(limited.status).toBe(429)
    expect(limited.body.error).toBe("too_many_requests")
  })

  it("a revoked or expired key is counted as well, and answers 429 before 401 once over the limit", async () => {
    const { key, keyId } = await setupApplication(s)
    await s.console("DELETE", `/keys/${keyId}`)
    await burst(120, () => probe(key))
    expect((await probe(key)).body.error).toBe("too_many_requests")
  })

  it("the limit is per presented credential: another key of the same application is unaffected", async () => {
    const { app, key } = await setupApplication(s)
    const other = await newKey(app.id, { mode: "live" })
    await burst(120, () => probe(key))
    expect((await probe(key)).status).toBe(429)
    expect((await probe(other.key)).status).toBe(404)
  })

  it("`Authorization: Bearer` and `x-api-key` present the same key and share one window", async () => {
    const { key } = await setupApplication(s)
    await burst(60, () => probe(key))
    await burst(60, () => s.call("GET", `/v1/verify/${crypto.randomUUID()}`, { headers: { "x-api-key": key } }))
    const limited = await s.call("GET", `/v1/verify/${crypto.randomUUID()}`, { headers: { "x-api-key": key } })
    expect(limited.status).toBe(429)
    expect((await probe(key)).status).toBe(429)
  })

  it("a limited request runs nothing: the 121st start sends no SMS", async () => {
    const { key } = await setupApplication(s)
    await burst(120, () => probe(key))
    const to = phone()
    const limited = await start(key, { to })
    expect(limited.status).toBe(429)
    expect(await smsCount(to)).toBe(0)
  })

  it("account tokens are rate limited (on their own routes too); the console token is not", async () => {
    const account = await s.console("POST", "/accounts", { name: "Tokens" })
    const token = (await s.console("POST", `/accounts/${account.id}/account-tokens`, {})).token as string
    const served = await burst(120, () => s.call("GET", "/v1/account/wallet", { key: token }))
    expect(served.every((st) => st === 200)).toBe(true)
    const limited = await s.call("GET", "/v1/account/wallet", { key: token })
    expect(limited.status).toBe(429)
    expect(limited.body).toEqual({ error: "too_many_requests", message: expect.any(String) }) // account API: always a message
    expect((await probe(token)).status).toBe(429)

    const consoleStatuses = await burst(
      130,
      () => s.call("POST", "/console/v1/simulator/clock", { key: s.consoleToken, body: { advance_ms: 0 } }),
    )
    expect(consoleStatuses.every((st) => st === 200)).toBe(true)
  })

  it("a request with no credential answers 401 unauthorized (there is nothing to count)", async () => {
    const res = await s.call("POST", "/v1/verify/start", { body: { to: phone() } })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: "unauthorized" })
  })
})

describe('Order of checks, step 2: "Key recognised" — `401 unauthorized` for a missing, unknown, revoked or mode-mismatched key', () => {
  it("missing key: no header, an empty x-api-key, a non-Bearer Authorization scheme", async () => {
    for (
      const headers of [
        {},
        { "x-api-key": "" },
        { authorization: "Basic dXNlcjpwYXNz" },
        { authorization: "Bearer" },
      ] as Array<Record<string, string>>
    ) {
      const res = await s.call("POST", "/v1/verify/start", { headers, body: { to: phone() } })
      expect(res.status, JSON.stringify(headers)).toBe(401)
      expect(res.body).toEqual({ error: "unauthorized" })
    }
  })

  it("unknown key: a well-formed key nobody issued, and a string that is no key at all", async () => {
    for (const key of [`svc_live_${"A".repeat(32)}`, `svc_test_${"B".repeat(32)}`, "hello"]) {
      const res = await start(key)
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ error: "unauthorized" })
    }
  })

  it("the key works the same as `Authorization: Bearer <API_KEY>` or in the header `x-api-key: <API_KEY>`", async () => {
    const { key } = await setupApplication(s)
    expect((await start(key)).status).toBe(200)
    const viaHeader = await s.call("POST", "/v1/verify/start", { headers: { "x-api-key": key }, body: { to: phone() } })
    expect(viaHeader.status).toBe(200)
  })

  it('"a revoked key answers `401 unauthorized`"', async () => {
    const { key, keyId } = await setupApplication(s)
    expect((await start(key)).status).toBe(200)
    const revoked = await s.console("DELETE", `/keys/${keyId}`)
    expect(revoked).toEqual({ id: keyId, revoked: true })
    const res = await start(key)
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: "unauthorized" })
    expect((await probe(key)).status).toBe(401)
  })

  it('"A live key on a sandbox-only account ... answers `401 unauthorized`"; a test key on that account works', async () => {
    const live = await setupApplication(s, { sandboxOnly: true })
    const res = await start(live.key)
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: "unauthorized" })

    const test = await newKey(live.app.id, { mode: "test" })
    const to = phone()
    await s.console("POST", `/accounts/${live.account.id}/sandbox-destinations`, { to })
    expect((await start(test.key, { to })).status).toBe(200)
  })

  it("an account token (`svc_acct_`) on a key route answers 401 unauthorized", async () => {
    const { account } = await setupApplication(s)
    const token = (await s.console("POST", `/accounts/${account.id}/account-tokens`, {})).token as string
    expect(token.startsWith("svc_acct_")).toBe(true)
    const res = await start(token)
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: "unauthorized" })
    expect((await probe(token)).status).toBe(401)
  })

  it("an API key (live, test, partner) on an account-API route (`GET /v1/account/wallet`) answers 401 unauthorized; the account token passes", async () => {
    const { account, app, key } = await setupApplication(s)
    const test = await newKey(app.id, { mode: "test" })
    const partner = await setupPartner()
    for (const k of [key, test.key, partner.key]) {
      const res = await s.call("GET", "/v1/account/wallet", { key: k })
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ error: "unauthorized", message: expect.any(String) }) // account API: always a message
    }
    const token = (await s.console("POST", `/accounts/${account.id}/account-tokens`, {})).token as string
    const wallet = await s.call("GET", "/v1/account/wallet", { key: token })
    expect(wallet.status).toBe(200)
    expect(wallet.body.data.balance_halalas).toBe(10_000)
  })

  it("the console token is not an API key: on a key route it answers 401 unauthorized", async () => {
    const res = await start(s.consoleToken)
    expect(res.status).toBe(401)
  })
})

describe('`401 key_expired`: "once `expires_at` passes, every call answers `401 key_expired`"', () => {
  it("a key created with expires_at in the near future works until the simulated clock passes it, then every call answers 401 key_expired", async () => {
    const { app } = await setupApplication(s)
    const now = await nowMs()
    const { key } = await newKey(app.id, { mode: "live", expires_at: new Date(now + 60_000).toISOString() })
    const started = await start(key)
    expect(started.status).toBe(200)

    await advance(59_000)
    expect((await probe(key)).status).toBe(404) // not yet

    await advance(1_000) // exactly expires_at: passed
    for (
      const res of [
        await start(key),
        await s.call("POST", "/v1/verify/check", { key, body: { id: started.body.id, code: "000000" } }),
        await s.call("GET", `/v1/verify/${started.body.id}`, { key }),
        await s.call("POST", `/v1/verify/${started.body.id}/cancel`, { key, body: {} }),
      ]
    ) {
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ error: "key_expired" })
    }
  })

  it("a key without expires_at never expires (a year later it still works)", async () => {
    const { key } = await setupApplication(s)
    await advance(366 * 24 * 3_600_000)
    expect((await probe(key)).status).toBe(404)
  })
})

describe('`403 ip_not_allowed`: "IP allowlist: exact IPs and CIDR ranges, IPv4 and IPv6; a caller outside it gets `403 ip_not_allowed`; empty means every address"', () => {
  it("a CIDR range that excludes 127.0.0.1 answers 403 ip_not_allowed", async () => {
    const { app } = await setupApplication(s)
    const { key } = await newKey(app.id, { mode: "live", ip_allowlist: ["10.0.0.0/8", "192.168.1.7"] })
    const res = await start(key)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ error: "ip_not_allowed" })
  })

  it("a CIDR range or an exact IP that includes 127.0.0.1 passes", async () => {
    const { app } = await setupApplication(s)
    for (const list of [["127.0.0.0/8"], ["10.0.0.0/8", "127.0.0.1"], ["::ffff:127.0.0.0/104"]]) {
      const { key } = await newKey(app.id, { mode: "live", ip_allowlist: list })
      expect((await start(key)).status, JSON.stringify(list)).toBe(200)
    }
  })

  it("an empty allowlist admits every address", async () => {
    const { app } = await setupApplication(s)
    const { key } = await newKey(app.id, { mode: "live", ip_allowlist: [] })
    expect((await start(key)).status).toBe(200)
  })

  it("the caller's address is the socket's: an X-Forwarded-For header inside the allowlist does not let 127.0.0.1 in", async () => {
    const { app } = await setupApplication(s)
    const { key } = await newKey(app.id, { mode: "live", ip_allowlist: ["203.0.113.0/24"] })
    const res = await start(key, { to: phone() }, { "x-forwarded-for": "203.0.113.5" })
    expect(res.status).toBe(403)
    expect(res.body.error).toBe("ip_not_allowed")
  })

  describe("IPv6: a caller on ::1", () => {
    let v6: { url: string; close: () => Promise<void> } | undefined
    beforeAll(async () => {
      const server = nodeServer(s.platform.dispatch)
      const ok = await new Promise<boolean>((resolve) => {
        server.once("error", () => resolve(false))
        server.listen(0, "::1", () => resolve(true))
      })
      if (!ok) return
      const address = server.address()
      const port = typeof address === "object" && address ? address.port : 0
      v6 = {
        url: `http://[::1]:${port}`,
        close: () => new Promise((resolve) => server.close(() => resolve())),
      }
    })
    afterAll(() => v6?.close())

    const startV6 = (key: string) =>
      fetch(`${v6!.url}/v1/verify/start`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ to: phone() }),
      }).then(async (r) => ({ status: r.status, body: await r.json() }))

    it("an IPv6 range holding ::1 (::1/128, ::/64) admits ::1 and refuses 127.0.0.1; one without it refuses ::1", async () => {
      if (v6 === undefined) return expect.fail("this host cannot listen on ::1")
      const { app } = await setupApplication(s)
      for (const list of [["::1/128"], ["::/64"], ["::1"]]) {
        const { key } = await newKey(app.id, { mode: "live", ip_allowlist: list })
        expect((await startV6(key)).status, JSON.stringify(list)).toBe(200)
        const fromV4 = await start(key)
        expect(fromV4.status).toBe(403)
        expect(fromV4.body.error).toBe("ip_not_allowed")
      }
      const { key } = await newKey(app.id, { mode: "live", ip_allowlist: ["2001:db8::/32", "127.0.0.1"] })
      const refused = await startV6(key)
      expect(refused.status).toBe(403)
      expect(refused.body).toEqual({ error: "ip_not_allowed" })
    })
  })
})

describe('`403 insufficient_scope`: "A call outside the key\'s access answers `403 insufficient_scope` with the `WWW-Authenticate` header naming the needed scope"', () => {
  it("a legacy `check` key calling start answers 403 with exactly `WWW-Authenticate: Bearer error=insufficient_scope, scope=verify:send`", async () => {
    const { app } = await setupApplication(s)
    const { key } = await newKey(app.id, { mode: "live", access: "check" })
    const to = phone()
    const res = await start(key, { to })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ error: "insufficient_scope" })
    expect(res.headers.get("www-authenticate")).toBe(SCOPE_HEADER_SEND)
    expect(await smsCount(to)).toBe(0)
  })

  it('a `["verify:check"]` key calling start, resend or cancel answers 403 insufficient_scope naming verify:send', async () => {
    const { app, key: full } = await setupApplication(s)
    const started = await start(full)
    const { key } = await newKey(app.id, { mode: "live", access: ["verify:check"] })
    for (
      const res of [
        await start(key),
        await s.call("POST", `/v1/verify/${started.body.id}/resend`, { key, body: {} }),
        await s.call("POST", `/v1/verify/${started.body.id}/cancel`, { key, body: {} }),
      ]
    ) {
      expect(res.status).toBe(403)
      expect(res.body.error).toBe("insufficient_scope")
      expect(res.headers.get("www-authenticate")).toBe(SCOPE_HEADER_SEND)
    }
  })

  it('"a check-scoped key may only call `check` and `GET /v1/verify/{id}`"', async () => {
    const { app, key: full } = await setupApplication(s)
    const started = await start(full)
    for (const access of ["check", ["verify:check"]]) {
      const { key } = await newKey(app.id, { mode: "live", access })
      const read = await s.call("GET", `/v1/verify/${started.body.id}`, { key })
      expect(read.status).toBe(200)
      expect(read.body.id).toBe(started.body.id)
      const checked = await s.call("POST", "/v1/verify/check", { key, body: { id: started.body.id, code: "00000000" } })
      expect(checked.status).toBe(200)
    }
  })

  it('"`verify:send` (includes check)": a `["verify:send"]` key may start, check and read', async () => {
    const { app } = await setupApplication(s)
    const { key } = await newKey(app.id, { mode: "live", access: ["verify:send"] })
    const started = await start(key)
    expect(started.status).toBe(200)
    expect((await s.call("GET", `/v1/verify/${started.body.id}`, { key })).status).toBe(200)
    expect((await s.call("POST", "/v1/verify/check", { key, body: { id: started.body.id, code: "0000" } })).status)
      .toBe(200)
  })

  it("a key holding only other products' scopes answers insufficient_scope naming verify:check on check and read", async () => {
    const { app, key: full } = await setupApplication(s)
    const started = await start(full)
    const { key } = await newKey(app.id, { mode: "live", access: ["email:send", "notifications:send"] })
    for (
      const res of [
        await s.call("POST", "/v1/verify/check", { key, body: { id: started.body.id, code: "0000" } }),
        await s.call("GET", `/v1/verify/${started.body.id}`, { key }),
      ]
    ) {
      expect(res.status).toBe(403)
      expect(res.body.error).toBe("insufficient_scope")
      expect(res.headers.get("www-authenticate")).toBe(SCOPE_HEADER_CHECK)
    }
  })

  it("a connected app's key holding only chat scopes calling start answers insufficient_scope naming verify:send", async () => {
    const { app } = await setupApplication(s)
    const connected = await s.console("POST", `/applications/${app.id}/connected-app-keys`, {
      app_name: "Menus app",
      scopes: ["chat:menus", "chat:attendant"],
    })
    const res = await start(connected.key)
    expect(res.status).toBe(403)
    expect(res.headers.get("www-authenticate")).toBe(SCOPE_HEADER_SEND)
  })
})

describe('`400 service_required` / `404 service_not_found`: "partner key without `application` (or `service`)" / "partner key with unmatched `application`"', () => {
  it("a partner key without `application` answers 400 service_required, on writes and on reads", async () => {
    const { key } = await setupPartner()
    const res = await start(key)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: "service_required" })
    const read = await s.call("GET", `/v1/verify/${crypto.randomUUID()}`, { key })
    expect(read.status).toBe(400)
    expect(read.body).toEqual({ error: "service_required" })
  })

  it('"A partner request whose body is not JSON has no `application`: `400 service_required`"', async () => {
    const { key } = await setupPartner()
    const res = await s.call("POST", "/v1/verify/start", { key, rawBody: "{not json" })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: "service_required" })
  })

  it("a partner key naming an unknown application, or another account's, answers 404 service_not_found", async () => {
    const { key } = await setupPartner()
    const other = await setupPartner()
    for (const application of [crypto.randomUUID(), other.client.id, "not-a-uuid"]) {
      const res = await start(key, { to: phone(), application })
      expect(res.status, application).toBe(404)
      expect(res.body).toEqual({ error: "service_not_found" })
    }
    const read = await s.call("GET", `/v1/verify/${crypto.randomUUID()}?application=${other.client.id}`, { key })
    expect(read.status).toBe(404)
    expect(read.body).toEqual({ error: "service_not_found" })
  })

  it("a partner key naming its own client application (`application` in the body, `service` too, `?application=` on reads) passes", async () => {
    const { key, client } = await setupPartner()
    const started = await start(key, { to: phone(), application: client.id })
    expect(started.status).toBe(200)
    expect(started.body.application_id).toBe(client.id)
    expect((await start(key, { to: phone(), service: client.id })).status).toBe(200)
    const read = await s.call("GET", `/v1/verify/${started.body.id}?application=${client.id}`, { key })
    expect(read.status).toBe(200)
    expect(read.body.id).toBe(started.body.id)
  })
})

describe('Order of checks, step 3: "Account and application state (`403 account_not_active`)"', () => {
  it('"a live key works only once its application is approved (before that: `403 account_not_active`)"', async () => {
    const { app, key } = await setupApplication(s, { approved: false })
    const to = phone()
    const res = await start(key, { to })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ error: "account_not_active" })
    expect(await smsCount(to)).toBe(0)

    const approved = await s.console("POST", `/applications/${app.id}/approve`, {})
    expect(approved.status).toBe("active")
    expect((await start(key, { to })).status).toBe(200)
  })

  it('"a test key works before approval (that is what the sandbox is for)"', async () => {
    const { account, key } = await setupApplication(s, { approved: false, mode: "test" })
    const to = phone()
    await s.console("POST", `/accounts/${account.id}/sandbox-destinations`, { to })
    const res = await start(key, { to })
    expect(res.status).toBe(200)
    expect(res.body.mode).toBe("test")
  })

  it("a partner key naming a client application not yet approved answers 403 account_not_active", async () => {
    const { key, client } = await setupPartner({ approved: false })
    const res = await start(key, { to: phone(), application: client.id })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ error: "account_not_active" })
  })
})

describe('Order of checks, step 4: "Request shape (`400 invalid_json`, `400 invalid_request`), channel and destination (`422`)"', () => {
  it('`400 invalid_json`: "body not valid JSON"', async () => {
    const { key } = await setupApplication(s)
    for (const rawBody of ["{", "not json", '{"to": "0551234567",}']) {
      const res = await s.call("POST", "/v1/verify/start", { key, rawBody })
      expect(res.status, rawBody).toBe(400)
      expect(res.body).toEqual({ error: "invalid_json" })
    }
    const check = await s.call("POST", "/v1/verify/check", { key, rawBody: "{" })
    expect(check.body).toEqual({ error: "invalid_json" })
  })

  it('`400 invalid_request`: "required field missing (`to` on start; `id` or `code` on check)"', async () => {
    const { key } = await setupApplication(s)
    const noTo = await start(key, { channel: "sms" })
    expect(noTo.status).toBe(400)
    expect(noTo.body.error).toBe("invalid_request")
    expect(Object.keys(noTo.body.fields)).toEqual(["to"])

    const noId = await s.call("POST", "/v1/verify/check", { key, body: { code: "123456" } })
    expect(noId.status).toBe(400)
    expect(noId.body.error).toBe("invalid_request")
    expect(Object.keys(noId.body.fields)).toEqual(["id"])

    const noCode = await s.call("POST", "/v1/verify/check", { key, body: { id: crypto.randomUUID() } })
    expect(noCode.status).toBe(400)
    expect(Object.keys(noCode.body.fields)).toEqual(["code"])

    const empty = await s.call("POST", "/v1/verify/check", { key, rawBody: "" })
    expect(empty.status).toBe(400)
    expect(empty.body.error).toBe("invalid_request")
  })

  it("after the shape, channel and destination: 422 unsupported_channel, 422 invalid_destination", async () => {
    const { key } = await setupApplication(s)
    const channel = await start(key, { to: phone(), channel: "email" })
    expect(channel.status).toBe(422)
    expect(channel.body).toEqual({ error: "unsupported_channel" })
    const destination = await start(key, { to: "12345" })
    expect(destination.status).toBe(422)
    expect(destination.body).toEqual({ error: "invalid_destination" })
  })
})

describe("Precedence: when two checks fail at once, the earlier step of the order of checks answers", () => {
  it("rate limit beats unknown key (429, not 401) — and beats a valid key's every later check", async () => {
    const unknown = `svc_test_${crypto.randomUUID().replaceAll("-", "")}`
    for (let i = 0; i < 120; i++) await probe(unknown)
    expect((await start(unknown)).status).toBe(429)
  })

  it("revoked AND expired → 401 unauthorized", async () => {
    const { app } = await setupApplication(s)
    const now = await nowMs()
    const k = await newKey(app.id, { mode: "live", expires_at: new Date(now + 1_000).toISOString() })
    await s.console("DELETE", `/keys/${k.id}`)
    await advance(2_000)
    const res = await start(k.key)
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: "unauthorized" })
  })

  it("expired AND IP not allowed → 401 key_expired", async () => {
    const { app } = await setupApplication(s)
    const now = await nowMs()
    const { key } = await newKey(app.id, {
      mode: "live",
      expires_at: new Date(now + 1_000).toISOString(),
      ip_allowlist: ["10.0.0.0/8"],
    })
    await advance(2_000)
    const res = await start(key)
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: "key_expired" })
  })

  it("IP not allowed AND wrong scope → 403 ip_not_allowed", async () => {
    const { app } = await setupApplication(s)
    const { key } = await newKey(app.id, { mode: "live", access: "check", ip_allowlist: ["10.0.0.0/8"] })
    const res = await start(key)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ error: "ip_not_allowed" })
    expect(res.headers.get("www-authenticate")).toBeNull()
  })

  it("wrong scope AND unapproved application → 403 insufficient_scope", async () => {
    const { key } = await setupApplication(s, { approved: false, access: "check" })
    const res = await start(key)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ error: "insufficient_scope" })
    expect(res.headers.get("www-authenticate")).toBe(SCOPE_HEADER_SEND)
  })

  it("service_required AND invalid JSON → 400 service_required; service_not_found AND unapproved → 404 service_not_found", async () => {
    const { key } = await setupPartner({ approved: false })
    expect((await s.call("POST", "/v1/verify/start", { key, rawBody: "[" })).body.error).toBe("service_required")
    expect((await start(key, { to: phone(), application: crypto.randomUUID() })).body.error).toBe("service_not_found")
  })

  it("account_not_active AND invalid JSON → 403 account_not_active", async () => {
    const { key } = await setupApplication(s, { approved: false })
    const res = await s.call("POST", "/v1/verify/start", { key, rawBody: "{oops" })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ error: "account_not_active" })
  })

  it("invalid JSON AND empty wallet → 400 invalid_json; missing `to` AND empty wallet → 400 invalid_request; bad destination AND empty wallet → 422 invalid_destination", async () => {
    const { key } = await setupApplication(s, { balance: 0 })
    expect((await s.call("POST", "/v1/verify/start", { key, rawBody: "{" })).body.error).toBe("invalid_json")
    expect((await start(key, {})).body.error).toBe("invalid_request")
    expect((await start(key, { to: "0000" })).body.error).toBe("invalid_destination")
    const broke = await start(key, { to: phone() })
    expect(broke.status).toBe(402)
    expect(broke.body.error).toBe("insufficient_credits")
  })
})
