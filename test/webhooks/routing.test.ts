/**
 * Routing over real flows: the application's endpoint gets its verification events; the partner
 * account's endpoint gets `service.paused`, `balance.low` and the `verification.*` it subscribed to,
 * with `external_id`, and not the others.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { useServer } from "../support/server.ts"
import { advance, deliveries, verifyFlow } from "./helpers.ts"
import { type Receiver, useReceiver, verify } from "./receiver.ts"

describe("webhook routing", () => {
  const s = useServer()
  const appHooks = useReceiver()
  const partnerHooks = useReceiver()
  let ids: { account: string; app: string; appSecret: string; partnerSecret: string }

  beforeAll(async () => {
    const account = await s.console("POST", "/accounts", { name: "Partner", partner: true })
    const app = await s.console("POST", `/accounts/${account.id}/applications`, {
      name: "Client",
      approved: true,
      external_id: "ext-42",
    })
    // 1,010 halalas: the second 9-halala send crosses the default 1,000 low-balance alert.
    await s.console("POST", `/accounts/${account.id}/wallet/credit`, { amount_halalas: 1_010 })
    const { key } = await s.console("POST", `/applications/${app.id}/keys`, { mode: "live" })
    const appEndpoint = await s.console("PUT", `/applications/${app.id}/webhook`, { url: appHooks.url })
    const partnerEndpoint = await s.console("PUT", `/accounts/${account.id}/webhook`, {
      url: partnerHooks.url,
      events: ["verification.verified"],
    })
    expect(partnerEndpoint.events).toEqual(["verification.verified"])
    ids = { account: account.id, app: app.id, appSecret: appEndpoint.secret, partnerSecret: partnerEndpoint.secret }

    expect((await verifyFlow(s, key, "+966551000001", [null])).status).toBe("verified")
    expect((await verifyFlow(s, key, "+966551000002", ["000000", "000000", "000000"])).status).toBe("failed")
    // Every send from now on trips the guard (1 of 3 verified is under 100 %).
    await s.console("PUT", `/applications/${app.id}/verify-settings`, {
      guard: { min_sends: 3, min_verified_percent: 100 },
    })
    await s.call("POST", "/v1/verify/start", { key, body: { to: "+966551000003" } })
    await advance(s, 0)
  })

  const events = (r: Receiver) => r.received.map((x) => x.json.event).sort()

  it("the application's endpoint gets its verification events, as the verification without external_id", () => {
    expect(events(appHooks)).toEqual(["verification.failed", "verification.verified"])
    for (const r of appHooks.received) {
      const payload = verify(ids.appSecret, r)
      expect(payload.data.application_id).toBe(ids.app)
      expect(payload.data).not.toHaveProperty("external_id")
      expect(payload).not.toHaveProperty("test")
    }
  })

  it("the partner's endpoint gets service.paused, balance.low and the subscribed verification.verified with external_id", () => {
    expect(events(partnerHooks)).toEqual(["balance.low", "service.paused", "verification.verified"])
    const byEvent = Object.fromEntries(partnerHooks.received.map((r) => [r.json.event, verify(ids.partnerSecret, r)]))
    expect(byEvent["verification.verified"].data).toMatchObject({
      status: "verified",
      application_id: ids.app,
      external_id: "ext-42",
    })
    expect(byEvent["service.paused"].data).toMatchObject({ service_id: ids.app, external_id: "ext-42" })
    expect(byEvent["balance.low"].data).toMatchObject({ account_id: ids.account, low_balance_alert_halalas: 1_000 })
  })

  it("each endpoint's copy has its own webhook-id, and the delivery logs show them", async () => {
    const appVerified = appHooks.received.find((r) => r.json.event === "verification.verified")!
    const partnerVerified = partnerHooks.received.find((r) => r.json.event === "verification.verified")!
    expect(appVerified.json.data.id).toBe(partnerVerified.json.data.id)
    expect(appVerified.headers["webhook-id"]).not.toBe(partnerVerified.headers["webhook-id"])
    const log = await deliveries(s, { account: ids.account })
    expect(log.map((d) => d.event).sort()).toEqual(["balance.low", "service.paused", "verification.verified"])
    expect(log.every((d) => d.status === "succeeded" && d.attempts.length === 1 && d.event_id !== null)).toBe(true)
  })

  it("an event is routed once, however often the dispatcher runs", async () => {
    await advance(s, 0)
    await advance(s, 60_000)
    expect(appHooks.received).toHaveLength(2)
    expect(partnerHooks.received).toHaveLength(3)
  })
})
