/**
 * The proforma as a PDF (DECISIONS 12, suggested): `GET /v1/account/wallet/proformas/{id}/pdf`, made with a
 * maintained PDF library (pdf-lib) and read back here with another (unpdf, on Mozilla's pdf.js).
 */
import { extractText, getDocumentProxy } from "unpdf"
import { describe, expect, it } from "vitest"
import { useServer } from "../support/server.ts"
import { accountWithToken } from "./support.ts"

const s = useServer()
const buyer = { name: "Acme Trading", vat_number: "300000000000003", address: "Riyadh, King Fahd Road" }

const pdfOf = async (token: string, id: string) => {
  const res = await fetch(`${s.baseUrl}/v1/account/wallet/proformas/${id}/pdf`, {
    headers: { authorization: `Bearer ${token}` },
  })
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) }
}

const textOf = async (bytes: Uint8Array) => {
  const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true })
  return text
}

describe("wallet.proformas.pdf: the proforma as a PDF file, read back", () => {
  it("a PDF with the number, the buyer, amount, VAT 15 % and total in SAR, the IBAN and the reference", async () => {
    const { token } = await accountWithToken(s)
    const p = (await s.call("POST", "/v1/account/wallet/proformas", {
      key: token,
      body: { amount_halalas: 10_005, buyer },
    })).body.data
    const { bytes, res } = await pdfOf(token, p.id)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("application/pdf")
    expect(res.headers.get("content-disposition")).toBe(`inline; filename="${p.number}.pdf"`)
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-")
    const text = await textOf(bytes)
    for (
      const expected of [
        `Number: ${p.number}`,
        "Acme Trading",
        "VAT number: 300000000000003",
        "Riyadh, King Fahd Road",
        "Amount: SAR 100.05",
        "VAT 15%: SAR 15.01", // 1500.75 halalas, rounded half up
        "Total: SAR 115.06",
        `IBAN: ${p.bank.iban}`,
        `Reference: ${p.number}`,
      ]
    ) expect(text).toContain(expected)
  })

  it("another account's proforma, or none, is 404 not_found; an agent's token is 403 insufficient_role", async () => {
    const owner = await accountWithToken(s)
    const p = (await s.call("POST", "/v1/account/wallet/proformas", {
      key: owner.token,
      body: { amount_halalas: 5_000, buyer: { name: "A" } },
    })).body.data
    const stranger = await accountWithToken(s)
    const foreign = await s.call("GET", `/v1/account/wallet/proformas/${p.id}/pdf`, { key: stranger.token })
    expect(foreign.status).toBe(404)
    expect(foreign.body).toMatchObject({ error: "not_found" })
    const none = await s.call("GET", `/v1/account/wallet/proformas/${crypto.randomUUID()}/pdf`, { key: owner.token })
    expect(none.status).toBe(404)
    const agent = await s.console("POST", `/accounts/${owner.account.id}/account-tokens`, { role: "agent" })
    const refused = await s.call("GET", `/v1/account/wallet/proformas/${p.id}/pdf`, { key: agent.token })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe("insufficient_role")
  })

  it("by name too: POST /v1/operations/wallet.proformas.pdf answers the same file", async () => {
    const { token } = await accountWithToken(s)
    const p = (await s.call("POST", "/v1/account/wallet/proformas", {
      key: token,
      body: { amount_halalas: 5_000, buyer: { name: "B" } },
    })).body.data
    const res = await fetch(`${s.baseUrl}/v1/operations/wallet.proformas.pdf`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ id: p.id }),
    })
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("application/pdf")
    expect(await textOf(new Uint8Array(await res.arrayBuffer()))).toContain(`Number: ${p.number}`)
  })
})
