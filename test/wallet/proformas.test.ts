/**
 * Proformas (DECISIONS 12, 14, 16): `POST /v1/account/wallet/proformas` `{ amount_halalas, buyer: { name,
 * vat_number? (15 digits, first and last 3), address? } }` answers `201 { data: { id, number:
 * "PF-YYYY-NNNNNN", status: "open", amount_halalas, vat_percent: 15, vat_halalas, total_halalas, buyer, bank:
 * { iban, reference }, issued_at, expires_at (+14 d) } }`, numbered without gaps or repeats, YYYY the Riyadh
 * year; the console's `POST /console/v1/proformas/{id}/settle` `{}` marks it paid and credits the wallet
 * (method `bank_transfer`); settling one that is not open is `409 invalid_state`.
 */
import { describe, expect, it } from "vitest"
import { Effect, TestClock } from "effect"
import { Console } from "../../core/console/service.ts"
import type { AccountId } from "../../core/shared/brands.ts"
import { WalletTopups } from "../../core/wallet/topups.ts"
import { useServer } from "../support/server.ts"
import { platformTest } from "../verify/harness.ts"
import { accountWithToken } from "./support.ts"

const DAY = 86_400_000
const buyer = { name: "Acme Trading", vat_number: "300000000000003", address: "Riyadh, King Fahd Road" }

describe("POST /v1/account/wallet/proformas (wallet.proformas.create): 201 with the proforma, open for 14 days", () => {
  const s = useServer()
  const create = (token: string, body: unknown) => s.call("POST", "/v1/account/wallet/proformas", { key: token, body })

  it("answers 201 { data } with every field: PF-YYYY-NNNNNN, VAT 15 % half up, the bank's iban and reference", async () => {
    const { token } = await accountWithToken(s)
    const res = await create(token, { amount_halalas: 1_030, buyer })
    expect(res.status).toBe(201)
    const p = res.body.data
    expect(p).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      number: expect.stringMatching(/^PF-\d{4}-\d{6}$/),
      status: "open",
      amount_halalas: 1_030,
      vat_percent: 15,
      vat_halalas: 155, // 154.5 rounds up
      total_halalas: 1_185,
      buyer,
      bank: { iban: expect.stringMatching(/^SA\d{22}$/), reference: p.number },
      issued_at: expect.any(String),
      expires_at: expect.any(String),
    })
    expect(Date.parse(p.expires_at) - Date.parse(p.issued_at)).toBe(14 * DAY)
  })

  it("numbers follow each other without gaps, across accounts; a buyer without vat_number or address", async () => {
    const a = await accountWithToken(s)
    const b = await accountWithToken(s)
    const first = (await create(a.token, { amount_halalas: 5_000, buyer: { name: "A" } })).body.data
    const second = (await create(b.token, { amount_halalas: 5_000, buyer: { name: "B" } })).body.data
    const refused = await create(a.token, { amount_halalas: 5, buyer: { name: "A" } })
    expect(refused.status).toBe(400)
    const third = (await create(a.token, { amount_halalas: 5_000, buyer: { name: "A" } })).body.data
    const n = (p: { number: string }) => Number(p.number.slice(8))
    expect([n(second) - n(first), n(third) - n(second)]).toEqual([1, 1])
    expect(first.buyer).toEqual({ name: "A", vat_number: null, address: null })
  })

  it('refused fields: errors { "buyer.vat_number": "invalid", "x": "unknown" } (DECISIONS 10\'s example)', async () => {
    const { token } = await accountWithToken(s)
    const res = await create(token, { amount_halalas: 5_000, buyer: { name: "A", vat_number: "123" }, x: 1 })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ error: "invalid_request", message: expect.any(String) })
    expect(res.body.errors).toEqual({ "buyer.vat_number": "invalid", x: "unknown" })
    expect(Object.keys(res.body.fields).sort()).toEqual(["buyer.vat_number", "x"])
  })

  it("vat_number: 15 digits, the first and the last 3 (DECISIONS 16)", async () => {
    const { token } = await accountWithToken(s)
    for (const good of ["300000000000003", "312345678901233"]) {
      expect((await create(token, { amount_halalas: 1_000, buyer: { name: "A", vat_number: good } })).status).toBe(201)
    }
    for (
      const bad of [
        "310000000000001",
        "100000000000003",
        "30000000000003",
        "3000000000000003",
        "3000000000000O3",
        "٣٠٠٠٠٠٠٠٠٠٠٠٠٠٣",
        300000000000003,
      ]
    ) {
      const res = await create(token, { amount_halalas: 1_000, buyer: { name: "A", vat_number: bad } })
      expect(res.status).toBe(400)
      expect(res.body.errors).toEqual({ "buyer.vat_number": "invalid" })
    }
  })

  it("amount bounds as top-up links; buyer and buyer.name required; an unknown buyer property is unknown", async () => {
    const { token } = await accountWithToken(s)
    expect((await create(token, { amount_halalas: 999, buyer: { name: "A" } })).body.errors).toEqual({
      amount_halalas: "invalid",
    })
    expect((await create(token, { amount_halalas: 10_000_001, buyer: { name: "A" } })).body.errors).toEqual({
      amount_halalas: "invalid",
    })
    expect((await create(token, { amount_halalas: 1_000 })).body.errors).toEqual({ buyer: "required" })
    expect((await create(token, { amount_halalas: 1_000, buyer: {} })).body.errors).toEqual({
      "buyer.name": "required",
    })
    expect((await create(token, { amount_halalas: 1_000, buyer: { name: "A", cr: "1" } })).body.errors).toEqual({
      "buyer.cr": "unknown",
    })
  })
})

describe("POST /console/v1/proformas/{id}/settle: paid, wallet credited (method bank_transfer); not open: 409 invalid_state", () => {
  const s = useServer()

  it("settling credits amount_halalas; last_topup is the proforma; settling again is 409 with status paid", async () => {
    const { token } = await accountWithToken(s, { balance: 100 })
    const p = (await s.call("POST", "/v1/account/wallet/proformas", {
      key: token,
      body: { amount_halalas: 250_000, buyer: { name: "A" } },
    })).body.data
    const settled = await s.call("POST", `/console/v1/proformas/${p.id}/settle`, { key: s.consoleToken, body: {} })
    expect(settled.status).toBe(200)
    expect(settled.body.data).toEqual({ ...p, status: "paid" })
    const wallet = (await s.call("GET", "/v1/account/wallet", { key: token })).body.data
    expect(wallet.balance_halalas).toBe(250_100)
    expect(wallet.last_topup).toEqual({
      id: p.id,
      method: "bank_transfer",
      amount_halalas: 250_000,
      at: expect.any(String),
    })
    const again = await s.call("POST", `/console/v1/proformas/${p.id}/settle`, { key: s.consoleToken, body: {} })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ error: "invalid_state", status: "paid", message: expect.any(String) })
    expect((await s.call("GET", "/v1/account/wallet", { key: token })).body.data.balance_halalas).toBe(250_100)
  })

  it("an expired proforma (14 days on) is 409 invalid_state, status expired; unknown: 404; a body property: 400", async () => {
    const { token } = await accountWithToken(s)
    const p = (await s.call("POST", "/v1/account/wallet/proformas", {
      key: token,
      body: { amount_halalas: 1_000, buyer: { name: "A" } },
    })).body.data
    const bad = await s.call("POST", `/console/v1/proformas/${p.id}/settle`, { key: s.consoleToken, body: { x: 1 } })
    expect(bad.status).toBe(400)
    await s.call("POST", "/console/v1/simulator/clock", { key: s.consoleToken, body: { advance_ms: 14 * DAY } })
    const expired = await s.call("POST", `/console/v1/proformas/${p.id}/settle`, { key: s.consoleToken, body: {} })
    expect(expired.status).toBe(409)
    expect(expired.body).toMatchObject({ error: "invalid_state", status: "expired" })
    const unknown = await s.call("POST", `/console/v1/proformas/${crypto.randomUUID()}/settle`, {
      key: s.consoleToken,
      body: {},
    })
    expect(unknown.status).toBe(404)
  })
})

describe("PF-YYYY-NNNNNN: YYYY is the Riyadh year; each year counts from 000001", () => {
  const issue = (accountId: AccountId) =>
    Effect.flatMap(WalletTopups, (t) => t.createProforma(accountId, { amount_halalas: 1_000, buyer: { name: "A" } }))

  platformTest(
    "20:59 UTC on 31 December is still the Riyadh year; 21:00 UTC is the next one, from 000001",
    function* () {
      const account = yield* Effect.orDie((yield* Console).createAccount({ name: "Shop" }))
      const id = account.id as AccountId
      yield* TestClock.setTime(Date.parse("2026-12-31T20:59:59.999Z"))
      expect((yield* issue(id)).number).toBe("PF-2026-000001")
      expect((yield* issue(id)).number).toBe("PF-2026-000002")
      yield* TestClock.setTime(Date.parse("2026-12-31T21:00:00Z"))
      expect((yield* issue(id)).number).toBe("PF-2027-000001")
      expect((yield* issue(id)).number).toBe("PF-2027-000002")
    },
  )
})
