/**
 * The wallet's account operations in the account API's catalogue and by name (DECISIONS 10, 16): rows with the
 * whole `/v1` path, `roles` ["owner","admin"], `output` a sentence, `idempotent` false for
 * `wallet.topups.link` and `wallet.proformas.create` (true for the read); `POST /v1/operations/{name}` answers
 * as the route would (201 for the two creates; unknown input properties 400 `unknown`).
 */
import { describe, expect, it } from "vitest"
import { useServer } from "../support/server.ts"
import { accountWithToken } from "./support.ts"

describe("the wallet's rows in GET /v1/operations, and call by name (DECISIONS 10, 16)", () => {
  const s = useServer()

  it("four rows: path, roles owner and admin, a sentence of output, idempotent false for the two creates", async () => {
    const { token } = await accountWithToken(s)
    const res = await s.call("GET", "/v1/operations", { key: token })
    expect(res.status).toBe(200)
    const rows: Record<string, any> = Object.fromEntries(
      (res.body.data as Array<any>).filter((r) => r.name.startsWith("wallet.")).map((r) => [r.name, r]),
    )
    expect(Object.keys(rows).sort()).toEqual([
      "wallet.proformas.create",
      "wallet.proformas.pdf",
      "wallet.show",
      "wallet.topups.link",
    ])
    expect(rows["wallet.proformas.pdf"]).toMatchObject({
      method: "GET",
      path: "/v1/account/wallet/proformas/{id}/pdf",
      idempotent: true,
    })
    expect(rows["wallet.show"]).toMatchObject({ method: "GET", path: "/v1/account/wallet", idempotent: true })
    expect(rows["wallet.topups.link"]).toMatchObject({
      method: "POST",
      path: "/v1/account/wallet/topups",
      idempotent: false,
    })
    expect(rows["wallet.proformas.create"]).toMatchObject({
      method: "POST",
      path: "/v1/account/wallet/proformas",
      idempotent: false,
    })
    for (const row of Object.values(rows)) {
      expect(row.roles).toEqual(["owner", "admin"])
      expect(row.output).toMatch(/^\S.*\.$/)
      expect(row.requires_approval).toBe(false)
    }
    expect(rows["wallet.proformas.create"].input_schema).toMatchObject({
      type: "object",
      properties: { amount_halalas: expect.any(Object), buyer: expect.any(Object) },
    })
  })

  it("by name: the two creates answer 201 { data } as their routes; the read 200; an unknown property 400 unknown", async () => {
    const { token } = await accountWithToken(s, { balance: 700 })
    const link = await s.call("POST", "/v1/operations/wallet.topups.link", {
      key: token,
      body: { amount_halalas: 1_010 },
    })
    expect(link.status).toBe(201)
    expect(link.body.data).toMatchObject({ status: "open", amount_halalas: 1_010, vat_halalas: 152 })
    const proforma = await s.call("POST", "/v1/operations/wallet.proformas.create", {
      key: token,
      body: { amount_halalas: 1_000, buyer: { name: "A" } },
    })
    expect(proforma.status).toBe(201)
    expect(proforma.body.data.number).toMatch(/^PF-\d{4}-\d{6}$/)
    const read = await s.call("POST", "/v1/operations/wallet.show", { key: token, body: {} })
    expect(read.status).toBe(200)
    expect(read.body.data).toMatchObject({ balance_halalas: 700 })
    const bad = await s.call("POST", "/v1/operations/wallet.proformas.create", {
      key: token,
      body: { amount_halalas: 1_000, buyer: { name: "A", vat_number: "1" }, x: 1 },
    })
    expect(bad.status).toBe(400)
    expect(bad.body.errors).toEqual({ "buyer.vat_number": "invalid", x: "unknown" })
  })

  it("not repeatable, but Idempotency-Key applies: the same key answers the same link; none makes a new one", async () => {
    const { token } = await accountWithToken(s)
    const call = (headers: Record<string, string> = {}) =>
      s.call("POST", "/v1/account/wallet/topups", { key: token, body: { amount_halalas: 2_000 }, headers })
    const first = await call({ "idempotency-key": "topup-1" })
    const replay = await call({ "idempotency-key": "topup-1" })
    expect(first.status).toBe(201)
    expect(replay.status).toBe(201)
    expect(replay.body.data.id).toBe(first.body.data.id)
    expect(replay.headers.get("idempotent-replayed")).toBe("true")
    const fresh = await call()
    expect(fresh.body.data.id).not.toBe(first.body.data.id)
  })
})
