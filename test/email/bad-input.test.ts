/**
 * The bad input (issue 30, DECISIONS 8.1 and 17): each gets its pinned code and nothing is kept; no header
 * of a sent message can be forged from a field. Sizes are UTF-8 bytes: 256 KB is 262,144.
 */
import { describe, expect, it } from "vitest"
import { useServer } from "../support/server.ts"
import { api, inbox, send, setupEmail, unique } from "./harness.ts"

const s = useServer()

const kb256 = 262_144

type Setup = Awaited<ReturnType<typeof setupEmail>>

/** Refused with this status, code and (for 400) field code; nothing in the inbox or the log. */
const expectRefused = async (
  setup: Setup,
  body: Record<string, unknown>,
  status: number,
  error: string,
  field?: readonly [string, string],
) => {
  const res = await send(s, setup.key, body)
  expect({ status: res.status, error: res.body.error }).toEqual({ status, error })
  if (field !== undefined) expect(res.body.errors?.[field[0]]).toBe(field[1])
  expect(await inbox(s, typeof body.to === "string" ? body.to : setup.to)).toEqual([])
  const log = await api(s, setup.token, "GET", `/applications/${setup.app.id}/email/messages`)
  expect(log.body.data).toEqual([])
}

describe("header injection: a subject with a new line or another control character", () => {
  for (
    const subject of [
      "Receipt\r\nBcc: everyone@example.net",
      "Receipt\nX-Injected: 1",
      "Receipt\rX",
      "Tab\there",
      "Null\u0000",
      "C1\u0085next line",
    ]
  ) {
    it(`${JSON.stringify(subject)}: 400 invalid_request, subject invalid`, async () => {
      const setup = await setupEmail(s)
      await expectRefused(setup, { ...setup.mail, subject }, 400, "invalid_request", ["subject", "invalid"])
    })
  }
  it("a subject of 255 characters of Arabic is taken whole", async () => {
    const setup = await setupEmail(s)
    const res = await send(s, setup.key, { ...setup.mail, subject: "ش".repeat(255) })
    expect(res.status).toBe(200)
    expect(res.body.subject).toBe("ش".repeat(255))
  })
})

describe("`to`: one address, nothing else", () => {
  it("a list of two addresses: 400 invalid_request", async () => {
    const setup = await setupEmail(s)
    await expectRefused(setup, { ...setup.mail, to: [setup.to, "b@example.net"] }, 400, "invalid_request", [
      "to",
      "invalid",
    ])
  })
  const refused = [
    ["two addresses in one string", (to: string) => `${to}, b@example.net`],
    ["two addresses without a space", (to: string) => `${to},b@example.net`],
    ["two addresses by semicolon", (to: string) => `${to};b@example.net`],
    ["a display name in quotes", (to: string) => `"Sara" <${to}>`],
    ["a display name with a quote inside", (to: string) => `"Sa\\"ra" <${to}>`],
    ["a bare display name", (to: string) => `Sara <${to}>`],
    ["a quoted local part", () => `"sara q"@example.net`],
    ["a Unicode local part (Arabic)", () => "سارة@example.net"],
    ["a Unicode local part (accent)", () => "josé@example.net"],
    ["a header after a new line", (to: string) => `${to}\r\nBcc: everyone@example.net`],
    ["no domain", () => "sara@"],
    ["no at sign", () => "sara.example.net"],
    ["a domain of one label", () => "sara@localhost"],
    ["white space around", (to: string) => ` ${to} `],
  ] as const
  for (const [name, to] of refused) {
    it(`${name}: 422 invalid_destination`, async () => {
      const setup = await setupEmail(s)
      await expectRefused(setup, { ...setup.mail, to: to(setup.to) }, 422, "invalid_destination")
    })
  }
})

describe("text and html: each at most 262,144 bytes of UTF-8", () => {
  it("html of 256 KB and one byte: 400 too_long", async () => {
    const setup = await setupEmail(s)
    await expectRefused(setup, { ...setup.mail, html: "h".repeat(kb256 + 1) }, 400, "invalid_request", [
      "html",
      "too_long",
    ])
  })
  it("text of 256 KB and one byte: 400 too_long", async () => {
    const setup = await setupEmail(s)
    await expectRefused(setup, { ...setup.mail, text: "t".repeat(kb256 + 1) }, 400, "invalid_request", [
      "text",
      "too_long",
    ])
  })
  it("bytes, not characters: 87,382 three-byte characters (262,146 bytes) are refused", async () => {
    const setup = await setupEmail(s)
    await expectRefused(setup, { ...setup.mail, html: "€".repeat(87_382) }, 400, "invalid_request", [
      "html",
      "too_long",
    ])
  })
  it("exactly 256 KB of each is taken", async () => {
    const setup = await setupEmail(s)
    const res = await send(s, setup.key, { ...setup.mail, text: "t".repeat(kb256), html: "€".repeat(87_381) + "h" })
    expect(res.status).toBe(200)
    const [got] = await inbox(s, setup.to)
    expect(got.text.length).toBe(kb256)
  })
})

describe("`from`: on a verified domain of this application", () => {
  it("on a pending domain of the application: 422 sender_not_verified", async () => {
    const setup = await setupEmail(s)
    const pending = `${unique("pending")}.sa`
    await api(s, setup.token, "POST", `/applications/${setup.app.id}/email/senders`, { domain: pending })
    await expectRefused(setup, { ...setup.mail, from: `hello@${pending}` }, 422, "sender_not_verified")
  })
  it("on another application's verified domain: 422 sender_not_verified", async () => {
    const setup = await setupEmail(s)
    const other = await setupEmail(s)
    await expectRefused(setup, { ...setup.mail, from: `hello@${other.domain}` }, 422, "sender_not_verified")
  })
  it("on a subdomain of a verified domain: 422 sender_not_verified", async () => {
    const setup = await setupEmail(s)
    await expectRefused(setup, { ...setup.mail, from: `hello@mail.${setup.domain}` }, 422, "sender_not_verified")
  })
  for (
    const [name, from] of [
      ["a display name", (d: string) => `"Shop" <hello@${d}>`],
      ["a header after a new line", (d: string) => `hello@${d}\r\nBcc: everyone@example.net`],
      ["a Unicode local part", (d: string) => `مرحبا@${d}`],
      ["two addresses", (d: string) => `hello@${d}, b@${d}`],
    ] as const
  ) {
    it(`${name}: 422 sender_not_verified`, async () => {
      const setup = await setupEmail(s)
      await expectRefused(setup, { ...setup.mail, from: from(setup.domain!) }, 422, "sender_not_verified")
    })
  }
  it("the domain in any case is the domain", async () => {
    const setup = await setupEmail(s)
    const res = await send(s, setup.key, { ...setup.mail, from: `Hello@${setup.domain!.toUpperCase()}` })
    expect(res.status).toBe(200)
    expect(res.body.from).toBe(`Hello@${setup.domain}`)
  })
})
