/** The README's Partner API walk-through, as written: provision a merchant, approve it, send a code for it. */
import { describe, expect, it } from "vitest"
import { latestCode, useServer } from "../support/server.ts"

const s = useServer()

describe("README: a merchant provisioned, approved in the console, and sending codes", () => {
  it("each step answers as the README says", async () => {
    const partner = await s.console("POST", "/accounts", { name: "Souq Platform", partner: true })
    await s.console("POST", `/accounts/${partner.id}/wallet/credit`, { amount_halalas: 10_000 })
    const key = (await s.console("POST", `/accounts/${partner.id}/keys`, { mode: "partner" })).key
    const made = await s.call("POST", "/v1/partner/applications", {
      key,
      headers: { "idempotency-key": "merchant-881" },
      body: {
        name: "Nour Sweets",
        website: "https://nour.example.sa",
        external_id: "merchant-881",
        verify_settings: { code_length: 4 },
      },
    })
    expect(made.status).toBe(201)
    expect(made.body.status).toBe("pending")
    const approved = await s.call("POST", `/console/v1/applications/${made.body.id}/approve`, {
      key: s.consoleToken,
      body: {},
    })
    expect(approved.status).toBe(200)
    const feed = await s.call("GET", "/v1/partner/events?types=service.approved", { key })
    expect(feed.status).toBe(200)
    expect(
      feed.body.data.map((e: { event: string; data: { application_id: string } }) => [e.event, e.data.application_id]),
    )
      .toEqual([["service.approved", made.body.id]])
    const started = await s.call("POST", "/v1/verify/start", {
      key,
      body: { to: "0551234567", application: "merchant-881" },
    })
    expect(started.body.status).toBe("pending")
    const code = await latestCode(s, "+966551234567")
    expect(code).toHaveLength(4)
    const checked = await s.call("POST", "/v1/verify/check", {
      key,
      body: { id: started.body.id, code, application: "merchant-881" },
    })
    expect(checked.body.status).toBe("verified")
  })
})
