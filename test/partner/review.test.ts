/**
 * The re-review rule and the console's moves over HTTP (DECISIONS 13, 14): a merchant approved once keeps
 * sending codes while a brand change is reviewed; approve, reject and pause fire their `service.*` events.
 */
import { describe, expect, it } from "vitest"
import { accountWebhookId } from "../../core/webhooks/envelope.ts"
import { latestCode, useServer } from "../support/server.ts"
import { useReceiver, verify } from "../webhooks/receiver.ts"
import { app, approve, ISO, makePartner, merchant, provisioned, reject, serviceEvents, UUID } from "./helpers.ts"

const s = useServer()

let seq = 0
const fresh = () => `+9665540${String(++seq).padStart(5, "0")}`

const start = (key: string, application: string, to = fresh()) =>
  s.call("POST", "/v1/verify/start", { key, body: { to, application } })

describe('DECISIONS 13: "a pending application under re-review that was approved before (approved_at set)" keeps sending', () => {
  it("provision, console approve, change the website: pending with service.review_requested, and a code still starts and checks", async () => {
    const { key } = await makePartner(s, { balance: 1_000 })
    const made = await provisioned(s, key, merchant({ external_id: "typo-shop" }))
    const approved = await s.call("POST", `/console/v1/applications/${made.id}/approve`, {
      key: s.consoleToken,
      body: {},
    })
    expect(approved.status).toBe(200)
    const active = (await s.call("GET", app(made.id), { key })).body
    expect(active).toMatchObject({ status: "active", approved_at: expect.stringMatching(ISO) })

    const changed = await s.call("POST", app(made.id), { key, body: { website: "https://typo-fixed.example.sa" } })
    expect(changed.body).toMatchObject({ status: "pending", approved_at: active.approved_at })
    const review = (await serviceEvents(s, made.id)).at(-1)!
    expect(review.event).toBe("service.review_requested")
    expect(review.data).toMatchObject({ previous_status: "active", status: "pending", changed: ["website"] })

    // By id and by external_id.
    for (const application of [made.id, "typo-shop"]) {
      const to = fresh()
      const started = await start(key, application, to)
      expect(started.status, JSON.stringify(started.body)).toBe(200)
      expect(started.body).toMatchObject({ status: "pending", application_id: made.id, mode: "partner" })
      const checked = await s.call("POST", "/v1/verify/check", {
        key,
        body: { id: started.body.id, code: await latestCode(s, to), application },
      })
      expect(checked.body).toMatchObject({ status: "verified" })
    }
  })

  it("403 account_not_active: a pending never approved, rejected, suspended, archived", async () => {
    const { key } = await makePartner(s)
    const pending = await provisioned(s, key)
    const rejected = await provisioned(s, key)
    await reject(s, rejected.id)
    const suspended = await provisioned(s, key)
    await approve(s, suspended.id)
    await s.call("POST", `${app(suspended.id)}/disable`, { key, body: {} })
    const archived = await provisioned(s, key)
    await approve(s, archived.id)
    await s.call("POST", `${app(archived.id)}/archive`, { key, body: {} })
    // Rejected after a re-review: approved once, but rejected does not send.
    const rereviewed = await provisioned(s, key)
    await approve(s, rereviewed.id)
    await s.call("POST", app(rereviewed.id), { key, body: { name: "Brand new" } })
    await reject(s, rereviewed.id, "brand_mismatch")
    for (const a of [pending, rejected, suspended, archived, rereviewed]) {
      const res = await start(key, a.id)
      expect(res.status, a.id).toBe(403)
      expect(res.body).toEqual({ error: "account_not_active" })
    }
    // Resumed and restored, they send again.
    await s.call("POST", `${app(suspended.id)}/resume`, { key, body: {} })
    await s.call("POST", `${app(archived.id)}/restore`, { key, body: {} })
    expect((await start(key, suspended.id)).status).toBe(200)
    expect((await start(key, archived.id)).status).toBe(200)
  })
})

describe("DECISIONS 14: console approve, reject with reason_code, pause — over HTTP, their events in the outbox", () => {
  it("approve: pending → active with service.approved; approving active is no move; suspended 409 invalid_state", async () => {
    const { account, key } = await makePartner(s)
    const made = await provisioned(s, key, merchant({ external_id: "cons-1" }))
    await approve(s, made.id)
    await approve(s, made.id)
    const events = await serviceEvents(s, made.id)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ event: "service.approved", accountId: account.id, externalId: "cons-1" })
    // data.id is the webhook-id of the event's delivery to the partner's account (DECISIONS 13, 15).
    expect(events[0].data.id).toBe(accountWebhookId(events[0].id))
    expect(events[0].data).toEqual({
      id: expect.any(String),
      service_id: made.id,
      application_id: made.id,
      external_id: "cons-1",
      status: "active",
      previous_status: "pending",
      occurred_at: expect.stringMatching(ISO),
    })
    await s.call("POST", `${app(made.id)}/disable`, { key, body: {} })
    const refused = await s.call("POST", `/console/v1/applications/${made.id}/approve`, {
      key: s.consoleToken,
      body: {},
    })
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ error: "invalid_state", status: "suspended", message: expect.any(String) })
  })

  it("reject: reason_code and appealable in the record and in service.rejected; rejecting rejected is 409; a bad reason_code is 400", async () => {
    const { key } = await makePartner(s)
    const made = await provisioned(s, key)
    const bad = await s.call("POST", `/console/v1/applications/${made.id}/reject`, {
      key: s.consoleToken,
      body: { reason_code: "ugly" },
    })
    expect(bad.status).toBe(400)
    await reject(s, made.id, "duplicate_application")
    expect((await s.call("GET", app(made.id), { key })).body).toMatchObject({
      status: "rejected",
      reason_code: "duplicate_application",
      appealable: false,
    })
    const [event] = await serviceEvents(s, made.id)
    expect(event.event).toBe("service.rejected")
    expect(event.data).toMatchObject({
      status: "rejected",
      previous_status: "pending",
      reason_code: "duplicate_application",
      appealable: false,
    })
    const again = await s.call("POST", `/console/v1/applications/${made.id}/reject`, {
      key: s.consoleToken,
      body: { reason_code: "brand_mismatch" },
    })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ error: "invalid_state", status: "rejected" })
    // Approving a rejected application is a move of the table.
    await approve(s, made.id)
    expect((await serviceEvents(s, made.id)).at(-1)!.data).toMatchObject({
      status: "active",
      previous_status: "rejected",
    })
  })

  it("pause (as the guard): paused true beside the status, service.paused; sends answer 403 application_paused; unpause fires service.unpaused", async () => {
    const { account, key } = await makePartner(s)
    const made = await provisioned(s, key)
    await approve(s, made.id)
    await s.console("POST", `/applications/${made.id}/pause`, {})
    await s.console("POST", `/applications/${made.id}/pause`, {})
    expect((await s.call("GET", app(made.id), { key })).body).toMatchObject({ status: "active", paused: true })
    const paused = (await serviceEvents(s, made.id)).filter((e) => e.event === "service.paused")
    expect(paused).toHaveLength(1)
    expect(paused[0].data).toMatchObject({ status: "active", previous_status: "active", paused: true })
    const res = await start(key, made.id)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ error: "application_paused" })
    // The account API's unpause (no approval asked once the policy is empty).
    await s.call("PUT", `/console/v1/accounts/${account.id}/approval-policy`, {
      key: s.consoleToken,
      body: { operations: [] },
    })
    const token = (await s.console("POST", `/accounts/${account.id}/account-tokens`, {})).token
    const unpaused = await s.call("POST", `/v1/applications/${made.id}/unpause`, { key: token, body: {} })
    expect(unpaused.status).toBe(200)
    const last = (await serviceEvents(s, made.id)).at(-1)!
    expect(last.event).toBe("service.unpaused")
    expect(last.data).toMatchObject({ paused: false, id: expect.stringMatching(/.+/) })
    expect(last.id).toMatch(UUID)
    expect((await start(key, made.id)).status).toBe(200)
  })
})

describe('DECISIONS 13: "service.* … through the durable outbox to the partner account\'s webhook by default"', () => {
  const hooks = useReceiver()

  it("the partner's endpoint gets each move, signed, with data.id equal to the webhook-id header", async () => {
    const { account, key } = await makePartner(s)
    const endpoint = await s.console("PUT", `/accounts/${account.id}/webhook`, { url: hooks.url })
    const made = await provisioned(s, key, merchant({ external_id: "hooked" }))
    await approve(s, made.id)
    await s.call("POST", app(made.id), { key, body: { website: "https://hooked-2.example.sa" } })
    await reject(s, made.id, "website_unreachable")
    await s.call("POST", `${app(made.id)}/appeal`, { key, body: {} })
    await s.console("POST", "/simulator/clock", { advance_ms: 0 })
    await hooks.waitFor(4)
    const mine = hooks.received.filter((r) => r.json.data.application_id === made.id)
    expect(mine.map((r) => r.json.event)).toEqual([
      "service.approved",
      "service.review_requested",
      "service.rejected",
      "service.review_requested",
    ])
    for (const r of mine) {
      const payload = verify(endpoint.secret, r)
      expect(payload.data.id).toBe(r.headers["webhook-id"])
      expect(payload.data).toMatchObject({ service_id: made.id, external_id: "hooked" })
      expect(payload).not.toHaveProperty("test")
    }
    expect(mine[2].json.data).toMatchObject({ reason_code: "website_unreachable", appealable: true })
    expect(mine[3].json.data.changed).toEqual(["appeal"])
  })
})
