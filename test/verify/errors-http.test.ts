/**
 * Verify over HTTP: the wire shapes of answers and of every Verify error code (spec Section 7,
 * DECISIONS 3): `{ error, ...extras }` exactly, with the HTTP status of the table.
 */
import { describe, expect, it } from "vitest"
import { latestCode, setupApplication, useServer } from "../support/server.ts"
import { balance, putSettings, texts } from "./http-harness.ts"

const s = useServer()

const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
let numberSeq = 0
/** A fresh valid Saudi mobile for each call, so the per-destination cap never interferes. */
const fresh = () => `+9665520${String(++numberSeq).padStart(5, "0")}`

const start = (key: string, body: unknown) => s.call("POST", "/v1/verify/start", { key, body })

describe("every Verify operation that succeeds answers 200 with the verification object", () => {
  it("start, check, GET, resend and cancel answer the Resources table's shape", async () => {
    const { app, key } = await setupApplication(s)
    const to = fresh()
    const started = await start(key, { to: to.replace("+966", "0"), reference: "r-1", client_ip: "203.0.113.9" })
    expect(started.status).toBe(200)
    const shape = {
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      status: "pending",
      application_id: app.id,
      reference: "r-1",
      channel: "sms",
      to,
      mode: "live",
      attempts: 0,
      expires_at: iso,
      verified_at: null,
      created_at: iso,
    }
    expect(started.body).toEqual(shape)
    const id = started.body.id
    const read = await s.call("GET", `/v1/verify/${id}`, { key })
    expect(read.status).toBe(200)
    expect(read.body).toEqual(started.body)
    const resent = await s.call("POST", `/v1/verify/${id}/resend`, { key })
    expect(resent.status).toBe(200)
    expect(resent.body).toEqual({ ...shape, expires_at: iso })
    const wrong = await s.call("POST", "/v1/verify/check", { key, body: { id, code: "0" } })
    expect(wrong.status).toBe(200)
    expect(wrong.body).toEqual({ ...shape, attempts: 1 })
    const right = await s.call("POST", "/v1/verify/check", { key, body: { id, code: await latestCode(s, to) } })
    expect(right.status).toBe(200)
    expect(right.body).toEqual({ ...shape, status: "verified", attempts: 2, verified_at: iso })

    const other = await start(key, { to: fresh() })
    const canceled = await s.call("POST", `/v1/verify/${other.body.id}/cancel`, { key })
    expect(canceled.status).toBe(200)
    expect(canceled.body).toMatchObject({ id: other.body.id, status: "canceled" })
  })
})

describe("400 invalid_request: required field missing (`to` on start; `id` or `code` on check), with fields", () => {
  it("start without `to`", async () => {
    const { key } = await setupApplication(s)
    const res = await start(key, {})
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ error: "invalid_request", fields: { to: expect.any(String) } })
  })

  it("check without `id` and `code` names both", async () => {
    const { key } = await setupApplication(s)
    const res = await s.call("POST", "/v1/verify/check", { key, body: {} })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe("invalid_request")
    expect(Object.keys(res.body.fields).sort()).toEqual(["code", "id"])
  })

  it("400 invalid_json: a body that is not JSON", async () => {
    const { key } = await setupApplication(s)
    const res = await s.call("POST", "/v1/verify/start", { key, rawBody: "{to:" })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: "invalid_json" })
  })
})

describe("422 unsupported_channel and 422 invalid_destination (step 4, before every step-5 gate)", () => {
  it("channel other than sms: 422 unsupported_channel; channel sms is accepted", async () => {
    const { key } = await setupApplication(s)
    const res = await start(key, { to: fresh(), channel: "whatsapp" })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ error: "unsupported_channel" })
    expect((await start(key, { to: fresh(), channel: "sms" })).status).toBe(200)
  })

  it("a number that is not a Saudi mobile: 422 invalid_destination, nothing charged", async () => {
    const { account, key } = await setupApplication(s, { balance: 100 })
    for (const to of ["+966112345678", "+14155550100", "05512345", "hello"]) {
      const res = await start(key, { to })
      expect(res.status, to).toBe(422)
      expect(res.body).toEqual({ error: "invalid_destination" })
    }
    expect(await balance(s, account.id)).toBe(100)
  })

  it("invalid_destination before sandbox_unverified_destination (test key)", async () => {
    const { key } = await setupApplication(s, { mode: "test" })
    const res = await start(key, { to: "+966112345678" })
    expect(res.body).toEqual({ error: "invalid_destination" })
  })

  it("invalid_destination before application_paused", async () => {
    const { app, key } = await setupApplication(s)
    await putSettings(s, app.id, { guard: { min_sends: 1, min_verified_percent: 50 } })
    expect((await start(key, { to: fresh() })).status).toBe(200)
    expect((await start(key, { to: fresh() })).body).toEqual({ error: "application_paused" })
    expect((await start(key, { to: "+966112345678" })).body).toEqual({ error: "invalid_destination" })
  })
})

describe("sandbox errors: 422 sandbox_unverified_destination, 429 sandbox_quota_exceeded", () => {
  it("an unproven number with a test key", async () => {
    const { key } = await setupApplication(s, { mode: "test" })
    const res = await start(key, { to: fresh() })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ error: "sandbox_unverified_destination" })
  })

  it("the eleventh sandbox start; the texts begin with [TEST] and answers carry mode test", async () => {
    const { account, app, key } = await setupApplication(s, { mode: "test" })
    const to = fresh()
    await s.console("POST", `/accounts/${account.id}/sandbox-destinations`, { to })
    await putSettings(s, app.id, { hourly_cap_per_destination: 100 })
    for (let i = 0; i < 10; i++) {
      const res = await start(key, { to })
      expect(res.status).toBe(200)
      expect(res.body.mode).toBe("test")
    }
    const res = await start(key, { to })
    expect(res.status).toBe(429)
    expect(res.body).toEqual({ error: "sandbox_quota_exceeded" })
    const sent = await texts(s, to)
    expect(sent).toHaveLength(10)
    for (const t of sent) expect(t.text.startsWith("[TEST]")).toBe(true)
  })
})

describe("429 rate_limited, 429 ip_rate_limited, 429 spend_cap_reached, 403 application_paused", () => {
  it("rate_limited: the destination's hourly cap", async () => {
    const { app, key } = await setupApplication(s)
    await putSettings(s, app.id, { hourly_cap_per_destination: 1 })
    const to = fresh()
    await start(key, { to })
    const res = await start(key, { to })
    expect(res.status).toBe(429)
    expect(res.body).toEqual({ error: "rate_limited" })
  })

  it("ip_rate_limited: the client_ip's hourly cap", async () => {
    const { app, key } = await setupApplication(s)
    await putSettings(s, app.id, { max_per_ip_per_hour: 1 })
    await start(key, { to: fresh(), client_ip: "198.51.100.1" })
    const res = await start(key, { to: fresh(), client_ip: "198.51.100.1" })
    expect(res.status).toBe(429)
    expect(res.body).toEqual({ error: "ip_rate_limited" })
  })

  it("a client_ip that is not an IP address: 400 invalid_request naming client_ip", async () => {
    const { key } = await setupApplication(s)
    const res = await start(key, { to: fresh(), client_ip: "not-an-ip" })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ error: "invalid_request", fields: { client_ip: expect.any(String) } })
  })

  it("spend_cap_reached: the day's charges plus this send would pass the cap", async () => {
    const { app, key } = await setupApplication(s)
    await putSettings(s, app.id, { daily_spend_cap_halalas: 10 })
    expect((await start(key, { to: fresh() })).status).toBe(200)
    const res = await start(key, { to: fresh() })
    expect(res.status).toBe(429)
    expect(res.body).toEqual({ error: "spend_cap_reached" })
  })

  it("application_paused: paused by the protection guard, on start and on resend", async () => {
    const { app, key } = await setupApplication(s)
    await putSettings(s, app.id, { guard: { min_sends: 1, min_verified_percent: 50 } })
    const first = await start(key, { to: fresh() })
    const res = await start(key, { to: fresh() })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ error: "application_paused" })
    const resent = await s.call("POST", `/v1/verify/${first.body.id}/resend`, { key })
    expect(resent.status).toBe(403)
    expect(resent.body).toEqual({ error: "application_paused" })
  })
})

describe("402 insufficient_credits adds message, balance_halalas, price_halalas", () => {
  it("start with 5 halalas", async () => {
    const { key } = await setupApplication(s, { balance: 5 })
    const res = await start(key, { to: fresh() })
    expect(res.status).toBe(402)
    expect(res.body).toEqual({
      error: "insufficient_credits",
      message: expect.stringMatching(/\S/),
      balance_halalas: 5,
      price_halalas: 9,
    })
  })

  it("resend with 0 halalas left", async () => {
    const { key } = await setupApplication(s, { balance: 9 })
    const started = await start(key, { to: fresh() })
    const res = await s.call("POST", `/v1/verify/${started.body.id}/resend`, { key })
    expect(res.status).toBe(402)
    expect(res.body).toMatchObject({ error: "insufficient_credits", balance_halalas: 0, price_halalas: 9 })
  })
})

describe("502 send_failed adds provider_code and message; the charge is refunded", () => {
  it("+966500000001: 502, provider_code simulated_refusal, the balance unchanged", async () => {
    const { account, key } = await setupApplication(s, { balance: 50 })
    const res = await start(key, { to: "+966500000001" })
    expect(res.status).toBe(502)
    expect(res.body).toEqual({
      error: "send_failed",
      provider_code: "simulated_refusal",
      message: expect.stringMatching(/\S/),
    })
    expect(await balance(s, account.id)).toBe(50)
  })

  it("a retry with the same Idempotency-Key runs again (and is refused again)", async () => {
    const { key } = await setupApplication(s)
    const headers = { "idempotency-key": "retry-me" }
    const body = { to: "+966500000001" }
    const first = await s.call("POST", "/v1/verify/start", { key, body, headers })
    const second = await s.call("POST", "/v1/verify/start", { key, body, headers })
    expect([first.status, second.status]).toEqual([502, 502])
    expect(second.headers.get("idempotent-replayed")).toBeNull()
  })
})

describe("404 not_found: check, status, resend, cancel of an unknown id or another application's", () => {
  it("every operation answers {error: not_found}", async () => {
    const mine = await setupApplication(s)
    const theirs = await setupApplication(s)
    const started = await start(theirs.key, { to: fresh() })
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid", started.body.id]) {
      const answers = [
        await s.call("POST", "/v1/verify/check", { key: mine.key, body: { id, code: "123456" } }),
        await s.call("GET", `/v1/verify/${id}`, { key: mine.key }),
        await s.call("POST", `/v1/verify/${id}/resend`, { key: mine.key }),
        await s.call("POST", `/v1/verify/${id}/cancel`, { key: mine.key }),
      ]
      for (const res of answers) {
        expect(res.status).toBe(404)
        expect(res.body).toEqual({ error: "not_found" })
      }
    }
  })
})

describe("409 not_resendable / 409 not_cancelable carry the current status; 429 resend_limit_reached", () => {
  it("a verified verification: resend 409 {status: verified}, cancel 409 {status: verified}", async () => {
    const { key } = await setupApplication(s)
    const to = fresh()
    const started = await start(key, { to })
    await s.call("POST", "/v1/verify/check", { key, body: { id: started.body.id, code: await latestCode(s, to) } })
    const resent = await s.call("POST", `/v1/verify/${started.body.id}/resend`, { key })
    expect(resent.status).toBe(409)
    expect(resent.body).toEqual({ error: "not_resendable", status: "verified" })
    const canceled = await s.call("POST", `/v1/verify/${started.body.id}/cancel`, { key })
    expect(canceled.status).toBe(409)
    expect(canceled.body).toEqual({ error: "not_cancelable", status: "verified" })
  })

  it("a canceled verification: resend 409 {status: canceled}", async () => {
    const { key } = await setupApplication(s)
    const started = await start(key, { to: fresh() })
    await s.call("POST", `/v1/verify/${started.body.id}/cancel`, { key })
    const resent = await s.call("POST", `/v1/verify/${started.body.id}/resend`, { key })
    expect(resent.body).toEqual({ error: "not_resendable", status: "canceled" })
  })

  it("the fourth resend: 429 {error: resend_limit_reached}", async () => {
    const { key } = await setupApplication(s)
    const started = await start(key, { to: fresh() })
    for (let i = 0; i < 3; i++) {
      expect((await s.call("POST", `/v1/verify/${started.body.id}/resend`, { key })).status).toBe(200)
    }
    const res = await s.call("POST", `/v1/verify/${started.body.id}/resend`, { key })
    expect(res.status).toBe(429)
    expect(res.body).toEqual({ error: "resend_limit_reached" })
  })
})
