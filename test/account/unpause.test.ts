import { describe, expect, it } from "vitest"
import { setupApplication, useServer } from "../support/server.ts"

describe("POST /v1/applications/{application}/unpause lifts the pause the protection guard set", () => {
  const s = useServer()

  it("the guard pauses (403 application_paused); unpause with the account token lets codes go out again", async () => {
    const { account, app, key } = await setupApplication(s)
    await s.console("PUT", `/applications/${app.id}/verify-settings`, {
      guard: { enabled: true, min_sends: 2, min_verified_percent: 50 },
    })
    const token = (await s.console("POST", `/accounts/${account.id}/account-tokens`)).token
    for (const to of ["0551000001", "0551000002"]) {
      expect((await s.call("POST", "/v1/verify/start", { key, body: { to } })).status).toBe(200)
    }
    const refused = await s.call("POST", "/v1/verify/start", { key, body: { to: "0551000003" } })
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual({ error: "application_paused" })

    await s.call("POST", "/console/v1/simulator/clock", { key: s.consoleToken, body: { advance_ms: 1_000 } })
    // Unpausing resumes spending: it needs an approval by default (DECISIONS 11).
    const asked = await s.call("POST", `/v1/applications/${app.id}/unpause`, { key: token, body: {} })
    expect(asked.status).toBe(428)
    await s.console("POST", `/approvals/${asked.body.approval.id}/approve`, {})
    const unpaused = await s.call("POST", `/v1/applications/${app.id}/unpause`, { key: token, body: {} })
    expect(unpaused.status).toBe(200)
    expect(unpaused.body.data).toMatchObject({ id: app.id, paused: false })
    // The guard counts only the sends after the pause was lifted: the next ones go out.
    expect((await s.call("POST", "/v1/verify/start", { key, body: { to: "0551000003" } })).status).toBe(200)
    expect((await s.call("POST", "/v1/verify/start", { key, body: { to: "0551000004" } })).status).toBe(200)
    // Two more unverified sends after the unpause trip it again.
    expect((await s.call("POST", "/v1/verify/start", { key, body: { to: "0551000005" } })).status).toBe(403)
  })

  it("another account's application is 404 not_found; an API key is 401 unauthorized", async () => {
    const mine = await setupApplication(s)
    const other = await setupApplication(s)
    const token = (await s.console("POST", `/accounts/${mine.account.id}/account-tokens`)).token
    const res = await s.call("POST", `/v1/applications/${other.app.id}/unpause`, { key: token, body: {} })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: "not_found", message: expect.any(String) })
    const withKey = await s.call("POST", `/v1/applications/${mine.app.id}/unpause`, { key: mine.key, body: {} })
    expect(withKey.status).toBe(401)
  })

  it("GET /v1/account/wallet reads the balance in halalas and its state", async () => {
    const { account } = await setupApplication(s, { balance: 999 })
    const token = (await s.console("POST", `/accounts/${account.id}/account-tokens`)).token
    const res = await s.call("GET", "/v1/account/wallet", { key: token })
    expect(res.status).toBe(200)
    // Below the default low-balance alert of 1,000 halalas (DECISIONS 12).
    expect(res.body.data).toMatchObject({ balance_halalas: 999, state: "low", codes_left: 111 })
  })
})
