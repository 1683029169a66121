/**
 * Top-up links over HTTP (DECISIONS 10, 12, 14): `POST /v1/account/wallet/topups` `{ amount_halalas:
 * 1000-10000000 }` answers `201 { data: { id, url, status: "open", amount_halalas, vat_halalas,
 * total_halalas, expires_at (+24 h), created_at } }`, VAT 15 % rounded half up; the payment simulator's
 * `POST /console/v1/simulator/topups/{id}/pay` `{ save_card? }` marks it paid, credits the wallet
 * `amount_halalas` (method `link`) and with save_card keeps the card `visa` `4242`; paying twice or an
 * expired link is `409 invalid_state` with `status`.
 */
import { describe, expect, it } from "vitest"
import * as fc from "fast-check"
import { operationsOf, selectedProducts } from "../../adapters/products.ts"
import { vatOf, withVat } from "../../core/wallet/money.ts"
import { testSettings } from "../verify/harness.ts"
import { startServer, type TestServer, useServer } from "../support/server.ts"
import { accountWithToken } from "./support.ts"

const HOUR = 3_600_000

describe("VAT 15 % on top: vat_halalas = round half up(amount × 15 / 100), total = amount + VAT (DECISIONS 12)", () => {
  it("the half rounds up, below it down, in integer arithmetic", () => {
    expect(vatOf(1_010)).toBe(152) // 151.5
    expect(vatOf(1_030)).toBe(155) // 154.5
    expect(vatOf(1_003)).toBe(150) // 150.45
    expect(vatOf(1_007)).toBe(151) // 151.05
    expect(vatOf(1_009)).toBe(151) // 151.35
    expect(vatOf(1_000)).toBe(150)
    expect(withVat(10_000_000)).toEqual({
      amount_halalas: 10_000_000,
      vat_halalas: 1_500_000,
      total_halalas: 11_500_000,
    })
  })

  it("for every amount in bounds: 100 × VAT - 15 × amount lies in (-50, 50], 50 exactly on a half", () => {
    fc.assert(fc.property(fc.integer({ min: 1_000, max: 10_000_000 }), (amount) => {
      const gap = 100 * vatOf(amount) - 15 * amount
      expect(gap > -50 && gap <= 50).toBe(true)
      if ((15 * amount) % 100 === 50) expect(gap).toBe(50)
    }))
  })
})

describe("POST /v1/account/wallet/topups (wallet.topups.link): 201 with the link, open for 24 hours", () => {
  const s = useServer()

  it("answers 201 { data } with every field; the VAT's half rounds up", async () => {
    const { token } = await accountWithToken(s)
    const res = await s.call("POST", "/v1/account/wallet/topups", { key: token, body: { amount_halalas: 1_010 } })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual(["data"])
    const link = res.body.data
    expect(link).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: expect.stringMatching(/^https:\/\//),
      status: "open",
      amount_halalas: 1_010,
      vat_halalas: 152,
      total_halalas: 1_162,
      expires_at: expect.any(String),
      created_at: expect.any(String),
    })
    expect(Date.parse(link.expires_at) - Date.parse(link.created_at)).toBe(24 * HOUR)
    expect(link.url).toContain(link.id)
  })

  it("the bounds: 1000 and 10000000 are taken; 999, 10000001, a fraction, a string, none: 400 invalid_request", async () => {
    const { token } = await accountWithToken(s)
    for (const amount of [1_000, 10_000_000]) {
      const res = await s.call("POST", "/v1/account/wallet/topups", { key: token, body: { amount_halalas: amount } })
      expect(res.status).toBe(201)
    }
    for (const amount of [999, 10_000_001, 1_000.5, "5000", null]) {
      const res = await s.call("POST", "/v1/account/wallet/topups", { key: token, body: { amount_halalas: amount } })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ error: "invalid_request", errors: { amount_halalas: "invalid" } })
      expect(res.body.fields.amount_halalas).toEqual(expect.any(String))
    }
    const none = await s.call("POST", "/v1/account/wallet/topups", { key: token, body: {} })
    expect(none.body).toMatchObject({ error: "invalid_request", errors: { amount_halalas: "required" } })
  })

  it("an unknown property is 400 with code unknown", async () => {
    const { token } = await accountWithToken(s)
    const res = await s.call("POST", "/v1/account/wallet/topups", {
      key: token,
      body: { amount_halalas: 5_000, currency: "SAR" },
    })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ error: "invalid_request", errors: { currency: "unknown" } })
  })

  it("wallet.* is for owners and admins: an agent is 403 insufficient_role; an API key is 401", async () => {
    const admin = await accountWithToken(s, { role: "admin" })
    const ok = await s.call("POST", "/v1/account/wallet/topups", { key: admin.token, body: { amount_halalas: 1_000 } })
    expect(ok.status).toBe(201)
    const agent = await accountWithToken(s, { role: "agent" })
    for (
      const [method, path] of [["POST", "/v1/account/wallet/topups"], ["GET", "/v1/account/wallet"], [
        "POST",
        "/v1/account/wallet/proformas",
      ]] as const
    ) {
      const res = await s.call(method, path, {
        key: agent.token,
        ...(method === "POST" ? { body: { amount_halalas: 1_000 } } : {}),
      })
      expect(res.status).toBe(403)
      expect(res.body).toMatchObject({ error: "insufficient_role", needs: ["role:owner", "role:admin"] })
    }
    const app = await s.console("POST", `/accounts/${admin.account.id}/applications`, { name: "Shop", approved: true })
    const key = (await s.console("POST", `/applications/${app.id}/keys`, { mode: "live" })).key
    expect((await s.call("GET", "/v1/account/wallet", { key })).status).toBe(401)
  })
})

describe("POST /console/v1/simulator/topups/{id}/pay: link paid, wallet credited (method link), card visa 4242 with save_card", () => {
  const s = useServer()

  const link = async (token: string, amount: number) =>
    (await s.call("POST", "/v1/account/wallet/topups", { key: token, body: { amount_halalas: amount } })).body.data

  it("paying credits amount_halalas (not the total); last_topup is the link; paying twice is 409 invalid_state", async () => {
    const { token } = await accountWithToken(s, { balance: 500 })
    const l = await link(token, 2_030)
    const paid = await s.call("POST", `/console/v1/simulator/topups/${l.id}/pay`, { key: s.consoleToken, body: {} })
    expect(paid.status).toBe(200)
    expect(paid.body.data).toMatchObject({ id: l.id, status: "paid", amount_halalas: 2_030, vat_halalas: 305 })
    const wallet = (await s.call("GET", "/v1/account/wallet", { key: token })).body.data
    expect(wallet.balance_halalas).toBe(2_530)
    expect(wallet.last_topup).toEqual({ id: l.id, method: "link", amount_halalas: 2_030, at: expect.any(String) })
    expect(wallet.card).toBeNull()
    const again = await s.call("POST", `/console/v1/simulator/topups/${l.id}/pay`, { key: s.consoleToken, body: {} })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ error: "invalid_state", status: "paid", message: expect.any(String) })
    expect((await s.call("GET", "/v1/account/wallet", { key: token })).body.data.balance_halalas).toBe(2_530)
  })

  it("save_card keeps the card visa 4242 on the account", async () => {
    const { token } = await accountWithToken(s)
    const l = await link(token, 1_000)
    const paid = await s.call("POST", `/console/v1/simulator/topups/${l.id}/pay`, {
      key: s.consoleToken,
      body: { save_card: true },
    })
    expect(paid.status).toBe(200)
    const wallet = (await s.call("GET", "/v1/account/wallet", { key: token })).body.data
    expect(wallet).toMatchObject({ balance_halalas: 1_000, card: { brand: "visa", last4: "4242" } })
  })

  it("an expired link (24 hours on) is 409 invalid_state, status expired; it credits nothing", async () => {
    const { token } = await accountWithToken(s)
    const l = await link(token, 1_000)
    await s.call("POST", "/console/v1/simulator/clock", { key: s.consoleToken, body: { advance_ms: 24 * HOUR } })
    const res = await s.call("POST", `/console/v1/simulator/topups/${l.id}/pay`, { key: s.consoleToken, body: {} })
    expect(res.status).toBe(409)
    expect(res.body).toMatchObject({ error: "invalid_state", status: "expired" })
    expect((await s.call("GET", "/v1/account/wallet", { key: token })).body.data.balance_halalas).toBe(0)
  })

  it("an unknown link is 404 not_found; a bad body 400", async () => {
    const unknown = await s.call("POST", `/console/v1/simulator/topups/${crypto.randomUUID()}/pay`, {
      key: s.consoleToken,
      body: {},
    })
    expect(unknown.status).toBe(404)
    const { token } = await accountWithToken(s)
    const l = await link(token, 1_000)
    const bad = await s.call("POST", `/console/v1/simulator/topups/${l.id}/pay`, {
      key: s.consoleToken,
      body: { save_card: "yes" },
    })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ error: "invalid_request", errors: { save_card: "invalid" } })
  })
})

describe("the payment simulator's route exists only while PAYMENT_PROVIDER is simulator", () => {
  it("the payments-simulator product (its pay route) is selected with the simulator only", () => {
    const names = (paymentProvider: string) =>
      operationsOf(selectedProducts({ ...testSettings, paymentProvider })).map((o) => o.name)
    expect(names("simulator")).toContain("console.simulator.topups.pay")
    expect(names("moyasar")).not.toContain("console.simulator.topups.pay")
    expect(names("moyasar")).toContain("wallet.topups.link")
  })

  it("a provider the platform does not know does not start", async () => {
    let server: TestServer | undefined
    try {
      server = await startServer({ paymentProvider: "elsewhere" })
      expect.unreachable("an unknown PAYMENT_PROVIDER must not start")
    } catch (e) {
      expect(String(e)).toMatch(/PAYMENT_PROVIDER/)
    } finally {
      await server?.close()
    }
  })
})
