/** `GET /v1/partner/services` (DECISIONS 13) over HTTP. */
import { describe, expect, it } from "vitest"
import { useServer } from "../support/server.ts"
import { partnerAccount } from "./support.ts"

const s = useServer()

describe('DECISIONS 13: "GET /services: { data: [{ id: \\"verify\\", channels: [\\"sms\\"], price_per_code_halalas, bounds, defaults }] }"', () => {
  it("answers Verify with its channel, its price and the bounds and defaults of its six settings (DECISIONS 3, spec Limits)", async () => {
    const p = await partnerAccount(s, 0)
    for (const key of [p.key, p.testKey]) {
      const res = await s.call("GET", "/v1/partner/services", { key })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        data: [{
          id: "verify",
          channels: ["sms"],
          price_per_code_halalas: 9,
          bounds: {
            code_length: { min: 4, max: 8 },
            code_lifetime_minutes: { min: 1, max: 15 },
            max_attempts: { min: 1, max: 5 },
            hourly_cap_per_destination: { min: 1, max: 10_000 },
            max_per_ip_per_hour: { min: 1, max: 100_000 },
            daily_spend_cap_halalas: { min: 0, max: null },
          },
          defaults: {
            code_length: 6,
            code_lifetime_minutes: 10,
            max_attempts: 3,
            hourly_cap_per_destination: 5,
            max_per_ip_per_hour: 20,
            daily_spend_cap_halalas: null,
          },
        }],
      })
    }
  })

  it("is also served under /api/v1; a parameter it does not take is 400; other keys are 401", async () => {
    const p = await partnerAccount(s, 0)
    expect((await s.call("GET", "/api/v1/partner/services", { key: p.key })).status).toBe(200)
    const res = await s.call("GET", "/v1/partner/services?x=1", { key: p.key })
    expect(res.status).toBe(400)
    expect(res.body.errors).toEqual({ x: "unknown" })
    const account = await s.console("POST", "/accounts", { name: "Shop" })
    const app = await s.console("POST", `/accounts/${account.id}/applications`, { name: "Shop", approved: true })
    const key = await s.console("POST", `/applications/${app.id}/keys`, { mode: "live" })
    expect((await s.call("GET", "/v1/partner/services", { key: key.key })).status).toBe(401)
    expect((await s.call("GET", "/v1/partner/services")).status).toBe(401)
  })
})
