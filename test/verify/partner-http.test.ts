/**
 * Partner keys on Verify (spec Sections 5 and 7, DECISIONS 2 and 3): an account-level key names the
 * client application with `application` in the body (or `?application=` on GET), by id or external id.
 */
import { describe, expect, it } from "vitest"
import { latestCode, useServer } from "../support/server.ts"
import { balance, eventsOf, outbox, putSettings } from "./http-harness.ts"

const s = useServer()

let seq = 0
const fresh = () => `+9665530${String(++seq).padStart(5, "0")}`

/** A partner account, funded, with one client application (external_id) and a partner key. */
const partner = async (opts: { mode?: "partner" | "partner_test"; balance?: number } = {}) => {
  const account = await s.console("POST", "/accounts", { name: "Platform", partner: true })
  expect(account.partner).toBe(true)
  const externalId = `merchant-${++seq}`
  const app = await s.console("POST", `/accounts/${account.id}/applications`, {
    name: "Merchant shop",
    approved: true,
    external_id: externalId,
  })
  expect(app.external_id).toBe(externalId)
  if ((opts.balance ?? 1_000) > 0) {
    await s.console("POST", `/accounts/${account.id}/wallet/credit`, { amount_halalas: opts.balance ?? 1_000 })
  }
  const key = await s.console("POST", `/accounts/${account.id}/keys`, { mode: opts.mode ?? "partner" })
  expect(key.key.startsWith(opts.mode === "partner_test" ? "svc_partner_test_" : "svc_partner_")).toBe(true)
  return { account, app, externalId, key: key.key as string }
}

describe("a partner key names the client application: `application` in the body, `?application=` on GET", () => {
  it("start, check and GET for the client application, by its id; charged to the partner's wallet", async () => {
    const { account, app, key } = await partner({ balance: 100 })
    const to = fresh()
    const started = await s.call("POST", "/v1/verify/start", { key, body: { to, application: app.id } })
    expect(started.status).toBe(200)
    expect(started.body).toMatchObject({ application_id: app.id, mode: "partner", status: "pending" })
    expect(started.body).not.toHaveProperty("external_id")
    expect(await balance(s, account.id)).toBe(91)
    const read = await s.call("GET", `/v1/verify/${started.body.id}?application=${app.id}`, { key })
    expect(read.status).toBe(200)
    expect(read.body).toEqual(started.body)
    const checked = await s.call("POST", "/v1/verify/check", {
      key,
      body: { id: started.body.id, code: await latestCode(s, to), application: app.id },
    })
    expect(checked.body).toMatchObject({ status: "verified", application_id: app.id })
  })

  it("the client application may be named by its external_id", async () => {
    const { app, externalId, key } = await partner()
    const to = fresh()
    const started = await s.call("POST", "/v1/verify/start", { key, body: { to, application: externalId } })
    expect(started.status).toBe(200)
    expect(started.body.application_id).toBe(app.id)
    const read = await s.call("GET", `/v1/verify/${started.body.id}?application=${encodeURIComponent(externalId)}`, {
      key,
    })
    expect(read.body.id).toBe(started.body.id)
  })

  it("resend and cancel name the application too", async () => {
    const { app, key } = await partner()
    const started = await s.call("POST", "/v1/verify/start", { key, body: { to: fresh(), application: app.id } })
    const resent = await s.call("POST", `/v1/verify/${started.body.id}/resend`, { key, body: { application: app.id } })
    expect(resent.status).toBe(200)
    const canceled = await s.call("POST", `/v1/verify/${started.body.id}/cancel`, {
      key,
      body: { application: app.id },
    })
    expect(canceled.body.status).toBe("canceled")
  })

  it("a verification of one client application is not_found under another of the same partner", async () => {
    const { account, app, key } = await partner()
    const second = await s.console("POST", `/accounts/${account.id}/applications`, { name: "Other", approved: true })
    const started = await s.call("POST", "/v1/verify/start", { key, body: { to: fresh(), application: app.id } })
    const read = await s.call("GET", `/v1/verify/${started.body.id}?application=${second.id}`, { key })
    expect(read.status).toBe(404)
    expect(read.body).toEqual({ error: "not_found" })
  })
})

describe("400 service_required: a partner key without `application`", () => {
  it("start, check and GET without application; a body that is not JSON has no application either", async () => {
    const { key } = await partner()
    const answers = [
      await s.call("POST", "/v1/verify/start", { key, body: { to: fresh() } }),
      await s.call("POST", "/v1/verify/check", {
        key,
        body: { id: "00000000-0000-4000-8000-000000000000", code: "1" },
      }),
      await s.call("GET", "/v1/verify/00000000-0000-4000-8000-000000000000", { key }),
      await s.call("POST", "/v1/verify/start", { key, rawBody: "not json" }),
    ]
    for (const res of answers) {
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ error: "service_required" })
    }
  })
})

describe("404 service_not_found: a partner key with an unmatched `application`", () => {
  it("an unknown id or external id, and another partner's client application", async () => {
    const { key } = await partner()
    const other = await partner()
    for (
      const application of ["00000000-0000-4000-8000-000000000000", "no-such-merchant", other.app.id, other.externalId]
    ) {
      const res = await s.call("POST", "/v1/verify/start", { key, body: { to: fresh(), application } })
      expect(res.status, application).toBe(404)
      expect(res.body).toEqual({ error: "service_not_found" })
    }
    const read = await s.call("GET", "/v1/verify/00000000-0000-4000-8000-000000000000?application=nope", { key })
    expect(read.body).toEqual({ error: "service_not_found" })
  })
})

describe("partner_test keys: the partner sandbox is free and mode partner_test", () => {
  it("a partner_test start to the partner's proven number is free and answers mode partner_test", async () => {
    const { account, app, key } = await partner({ mode: "partner_test", balance: 40 })
    const to = fresh()
    const unproven = await s.call("POST", "/v1/verify/start", { key, body: { to, application: app.id } })
    expect(unproven.body).toEqual({ error: "sandbox_unverified_destination" })
    await s.console("POST", `/accounts/${account.id}/sandbox-destinations`, { to })
    const started = await s.call("POST", "/v1/verify/start", { key, body: { to, application: app.id } })
    expect(started.status).toBe(200)
    expect(started.body.mode).toBe("partner_test")
    await s.call("POST", `/v1/verify/${started.body.id}/resend`, { key, body: { application: app.id } })
    expect(await balance(s, account.id)).toBe(40)
    const checked = await s.call("POST", "/v1/verify/check", {
      key,
      body: { id: started.body.id, code: await latestCode(s, to), application: app.id },
    })
    expect(checked.body.status).toBe("verified")
    const [event] = await eventsOf(s, started.body.id)
    expect(event.data.mode).toBe("partner_test")
  })
})

describe("events of a client application carry its external_id for the partner's copy", () => {
  it("verification.verified in the outbox has the application's externalId; data is the verification", async () => {
    const { account, app, externalId, key } = await partner()
    const to = fresh()
    const started = await s.call("POST", "/v1/verify/start", { key, body: { to, application: app.id } })
    const checked = await s.call("POST", "/v1/verify/check", {
      key,
      body: { id: started.body.id, code: await latestCode(s, to), application: app.id },
    })
    const events = await eventsOf(s, started.body.id)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({
      event: "verification.verified",
      externalId,
      applicationId: app.id,
      accountId: account.id,
    })
    expect(events[0].data).toEqual(checked.body)
  })

  it("service.paused of a client application carries external_id in data and on the event", async () => {
    const { app, externalId, key } = await partner()
    await putSettings(s, app.id, { guard: { min_sends: 1, min_verified_percent: 50 } })
    await s.call("POST", "/v1/verify/start", { key, body: { to: fresh(), application: app.id } })
    const paused = (await outbox(s)).filter((e) => e.event === "service.paused" && e.applicationId === app.id)
    expect(paused).toHaveLength(1)
    expect(paused[0]).toMatchObject({ externalId, data: { external_id: externalId, application_id: app.id } })
    const refused = await s.call("POST", "/v1/verify/start", { key, body: { to: fresh(), application: app.id } })
    expect(refused.body).toEqual({ error: "application_paused" })
  })
})
