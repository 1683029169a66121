/**
 * The proforma as a PDF (DECISIONS 12, suggested): `GET /v1/account/wallet/proformas/{id}/pdf`, made with a
 * maintained PDF library (pdf-lib) and read back here with another (unpdf, on Mozilla's pdf.js); every buyer
 * name the proforma accepted renders, Arabic and mixed scripts included (DECISIONS 18).
 */
import { Effect, Option } from "effect"
import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream } from "pdf-lib"
import { extractText, getDocumentProxy } from "unpdf"
import { describe, expect, it } from "vitest"
import { DocumentsPdfLib } from "../../adapters/documents/pdf-lib.ts"
import { Documents, type ProformaDocument } from "../../ports/documents.ts"
import { createSchema, dropSchema, withSearchPath } from "../support/pg.ts"
import { startServer, type TestServer, useServer } from "../support/server.ts"
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

/**
 * The glyph ids the page's text shows (pdf-lib writes each run as `<hex> Tj`, four hex digits a glyph of the
 * embedded subset); id 0 is `.notdef`, the box a font draws for a character it has no glyph for.
 */
const runsOf = async (bytes: Uint8Array): Promise<Array<Array<number>>> => {
  const page = (await PDFDocument.load(bytes)).getPage(0).node
  const contents = page.Contents()
  const streams = contents instanceof PDFArray ? contents.asArray().map((r) => page.context.lookup(r)) : [contents]
  const runs: Array<Array<number>> = []
  for (const stream of streams) {
    if (!(stream instanceof PDFRawStream)) continue
    const ops = new TextDecoder("latin1").decode(decodePDFRawStream(stream).decode())
    for (const [, hex] of ops.matchAll(/<([0-9A-Fa-f]*)> Tj/g)) {
      runs.push(Array.from({ length: hex.length / 4 }, (_, i) => parseInt(hex.slice(4 * i, 4 * i + 4), 16)))
    }
  }
  return runs
}
const glyphIdsOf = async (bytes: Uint8Array) => (await runsOf(bytes)).flat()

/**
 * What pdf.js reads back for a line the page shows: the line in logical order, but a lam-alef ligature (one glyph
 * for two letters) as alef then lam and a bracket inside Arabic as its mirror (pdf.js reverses a right-to-left
 * line's characters, a ligature's and a mirrored glyph's too), and without format characters (bidi marks,
 * joiners), which show nothing.
 */
const readBack = (name: string) =>
  name
    .replace(/\p{Default_Ignorable_Code_Point}/gu, "")
    .replace(/\u0644([\u0622\u0623\u0625\u0627])/g, "$1\u0644")
    .replace(/\((\p{Script=Arabic}[^)]*)\)/gu, ")$1(")

const stores: Array<[string, () => Promise<TestServer>]> = [
  ["memory", () => startServer()],
  ["PGlite", () => startServer({ store: "sql", pgliteDir: "memory://" })],
]
const databaseUrl = process.env.DATABASE_URL
if (databaseUrl !== undefined) {
  stores.push(["PostgreSQL", async () => {
    const schema = `pdf_${Date.now()}_${Math.floor(Math.random() * 1e6)}`
    await createSchema(databaseUrl, schema)
    const server = await startServer({ store: "sql", databaseUrl: Option.some(withSearchPath(databaseUrl, schema)) })
    return { ...server, close: async () => (await server.close(), await dropSchema(databaseUrl, schema)) }
  }])
}

const names = {
  arabic: "مؤسسة النور للتجارة",
  mixed: "شركة ABC المحدودة 123",
  latin: "Acme Trading Co.",
  "Latin with diacritics": "Société Générale Zoë Ångström",
  "Arabic with harakat and lam-alef": "مُؤَسَّسَة السَّلام لِلتِّجارة",
  "Arabic in brackets, digits and a dash": "شركة (النور) - 2024",
  "bidi marks and a joiner": "\u200Fشركة\u200C النور",
  "an emoji (the font has it)": "Café 😀",
}
const arabicAddress = "الرياض، طريق الملك فهد 12"

describe("DECISIONS 18: a proforma's PDF is rendered for every buyer name the proforma accepted, Arabic and mixed scripts included (an embedded font that covers Arabic, shaped right to left)", () => {
  for (const [store, make] of stores) {
    it(
      `${store}: Arabic, mixed, Latin, harakat and lam-alef names, an Arabic address: 200 application/pdf, read back, no .notdef glyph`,
      async () => {
        const server = await make()
        try {
          const { token } = await accountWithToken(server)
          for (const [kind, name] of Object.entries(names)) {
            const created = await server.call("POST", "/v1/account/wallet/proformas", {
              key: token,
              body: { amount_halalas: 10_000, buyer: { name, address: arabicAddress } },
            })
            expect(created.status, kind).toBe(201)
            expect(created.body.data.buyer.name).toBe(name)
            const res = await fetch(`${server.baseUrl}/v1/account/wallet/proformas/${created.body.data.id}/pdf`, {
              headers: { authorization: `Bearer ${token}` },
            })
            expect(res.status, kind).toBe(200)
            expect(res.headers.get("content-type")).toBe("application/pdf")
            const bytes = new Uint8Array(await res.arrayBuffer())
            const ids = await glyphIdsOf(bytes)
            expect(ids.length, kind).toBeGreaterThan(100)
            expect(ids, kind).not.toContain(0)
            const lines = (await textOf(bytes)).normalize("NFKC").split("\n")
            expect(lines, kind).toContain(readBack(name))
            expect(lines, kind).toContain(arabicAddress)
            expect(lines).toContain(`Number: ${created.body.data.number}`)
          }
        } finally {
          await server.close()
        }
      },
      60_000,
    )
  }

  it("Arabic is shaped (joining forms, the lam-alef ligature) and laid right to left, Latin and digits left to right", async () => {
    const { token } = await accountWithToken(s)
    // The runs drawn: one a line for the five lines before the buyer's name and the eight after it (all Latin).
    const nameRuns = async (name: string) => {
      const p = (await s.call("POST", "/v1/account/wallet/proformas", {
        key: token,
        body: { amount_halalas: 10_000, buyer: { name } },
      })).body.data
      return (await runsOf((await pdfOf(token, p.id)).bytes)).slice(5, -8)
    }
    // Beh apart is one glyph three times (the isolated form); joined, three glyphs (final, medial, initial).
    const [apart] = await nameRuns("ب ب ب")
    expect(apart).toHaveLength(5)
    expect(new Set([apart[0], apart[2], apart[4]]).size).toBe(1)
    const [joined] = await nameRuns("ببب")
    expect(new Set(joined).size).toBe(3)
    // Lam then alef is one glyph, the ligature.
    expect((await nameRuns("لا"))[0]).toHaveLength(1)
    expect((await nameRuns("ل ا"))[0]).toHaveLength(3)
    // Mixed, "شركة ABC المحدودة 123" in a right-to-left line: four runs, left to right "123", " المحدودة ",
    // "ABC", "شركة " (pdf.js reads it back in logical order, above).
    const mixed = await nameRuns(names.mixed)
    expect(mixed.map((run) => run.length)).toEqual([3, 10, 3, 5])
  })

  it("the same proforma gives the same bytes after other documents (nothing of one document leaks into the next)", async () => {
    const { token } = await accountWithToken(s)
    const create = async (name: string) =>
      (await s.call("POST", "/v1/account/wallet/proformas", {
        key: token,
        body: { amount_halalas: 10_000, buyer: { name } },
      }))
        .body.data.id as string
    const [a, b] = [await create(names["Arabic with harakat and lam-alef"]), await create(names.mixed)]
    const first = (await pdfOf(token, a)).bytes
    await pdfOf(token, b)
    expect((await pdfOf(token, a)).bytes).toEqual(first)
    expect((await textOf(first)).normalize("NFKC")).toContain(
      readBack(names["Arabic with harakat and lam-alef"]).normalize("NFKC"),
    )
  })

  it("a name or address with a character the document's font lacks is refused at create: 400 invalid_request, the field invalid, the characters named", async () => {
    const { token } = await accountWithToken(s)
    const res = await s.call("POST", "/v1/account/wallet/proformas", {
      key: token,
      body: { amount_halalas: 10_000, buyer: { name: "株式会社 Acme", address: "東京 1" } },
    })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({
      error: "invalid_request",
      errors: { "buyer.name": "invalid", "buyer.address": "invalid" },
      fields: {
        "buyer.name": "has characters the proforma's document cannot show: 株 式 会 社",
        "buyer.address": "has characters the proforma's document cannot show: 東 京",
      },
    })
    const listed = await s.call("POST", "/v1/account/wallet/proformas", {
      key: token,
      body: { amount_halalas: 10_000, buyer: { name: "Acme \u{1FAE8}" } }, // a shaking face: past the font
    })
    expect(listed.status).toBe(400)
    expect(listed.body.errors).toEqual({ "buyer.name": "invalid" })
  })

  it("a stored name with a character the font lacks (a proforma from before that refusal) renders it as U+FFFD, never .notdef or 500", async () => {
    const doc: ProformaDocument = {
      number: "PF-2026-000001",
      issuedAt: "2026-01-01T00:00:00.000Z",
      expiresAt: "2026-01-15T00:00:00.000Z",
      buyer: { name: "株式会社 النور", vatNumber: null, address: null },
      amountHalalas: 10_000,
      vatPercent: 15,
      vatHalalas: 1_500,
      totalHalalas: 11_500,
      iban: "SA0380000000608010167519",
      reference: "PF-2026-000001",
    }
    const bytes = await Effect.runPromise(
      Effect.provide(Effect.flatMap(Documents, (d) => d.proformaPdf(doc)), DocumentsPdfLib),
    )
    expect(await glyphIdsOf(bytes)).not.toContain(0)
    expect((await textOf(bytes)).split("\n")).toContain("\uFFFD\uFFFD\uFFFD\uFFFD النور")
  })
})
