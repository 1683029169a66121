/**
 * How people and clients really send a destination and a code (issue 11): Arabic-Indic and Eastern
 * Arabic-Indic digits, a non-breaking space or a bidirectional mark from a right-to-left keyboard, a code
 * sent as a JSON number, a destination sent as a number, a reference counted in characters.
 */
import { describe, expect, it } from "vitest"
import { latestCode, setupApplication, useServer } from "../support/server.ts"
import { phone } from "../support/phone.ts"

const s = useServer()

/** `+966551234567` written with the digits of a right-to-left keyboard. */
const arabicIndic = (ascii: string) => ascii.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d)))
const easternArabicIndic = (ascii: string) => ascii.replace(/\d/g, (d) => String.fromCharCode(0x06f0 + Number(d)))

const start = async (key: string, body: unknown) => s.call("POST", "/v1/verify/start", { key, body })

describe("destination digits are read from Arabic-Indic and Eastern Arabic-Indic forms", () => {
  it("`٠٥٥…` (Arabic-Indic), `۰۵۵…` (Eastern) and a number with NBSP and bidi marks all start, to +9665…", async () => {
    const { key } = await setupApplication(s)
    for (const make of [arabicIndic, easternArabicIndic]) {
      const to = phone()
      const national = `0${to.slice(4)}`
      const res = await start(key, { to: make(national) })
      expect(res.status).toBe(200)
      expect(res.body.to).toBe(to)
    }
    const to = phone()
    const spaced = `\u200f0${to.slice(4, 6)}\u00a0${to.slice(6, 9)}\u202f${to.slice(9)}\u200e`
    const res = await start(key, { to: spaced })
    expect(res.status).toBe(200)
    expect(res.body.to).toBe(to)
  })

  it("a landline or a foreign mobile is still `422 invalid_destination`, whatever its digits", async () => {
    const { key } = await setupApplication(s)
    expect((await start(key, { to: arabicIndic("0112345678") })).body.error).toBe("invalid_destination")
    expect((await start(key, { to: "+971501234567" })).body.error).toBe("invalid_destination")
  })
})

describe("codes and destinations must be JSON strings", () => {
  it("`to` as a number answers 400 with fields.to `must be a string` (not `required`)", async () => {
    const { key } = await setupApplication(s)
    const res = await start(key, { to: 966551234567 })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ error: "invalid_request", fields: { to: "must be a string" } })
  })

  it("`code` as a number answers 400 fields.code and uses up no attempt; the same code as a string verifies", async () => {
    const { key } = await setupApplication(s)
    const to = phone()
    const started = (await start(key, { to })).body
    const code = await latestCode(s, to)
    const asNumber = await s.call("POST", "/v1/verify/check", { key, body: { id: started.id, code: Number(code) } })
    expect(asNumber.status).toBe(400)
    expect(asNumber.body).toMatchObject({ error: "invalid_request", fields: { code: "must be a string of digits" } })
    expect((await s.call("GET", `/v1/verify/${started.id}`, { key })).body.attempts).toBe(0)
    const checked = await s.call("POST", "/v1/verify/check", { key, body: { id: started.id, code } })
    expect(checked.body.status).toBe("verified")
  })

  it("a code typed in Arabic-Indic digits verifies (and burns no attempt on a mismatch of forms)", async () => {
    const { key } = await setupApplication(s)
    for (const make of [arabicIndic, easternArabicIndic]) {
      const to = phone()
      const started = (await start(key, { to })).body
      const code = await latestCode(s, to)
      const checked = await s.call("POST", "/v1/verify/check", { key, body: { id: started.id, code: make(code) } })
      expect(checked.body).toMatchObject({ status: "verified", attempts: 1 })
    }
  })
})

describe("`reference` holds at most 256 characters, counted as code points", () => {
  it("256 emoji (512 UTF-16 units) are accepted; 257 are refused", async () => {
    const { key } = await setupApplication(s)
    const ok = await start(key, { to: phone(), reference: "😀".repeat(256) })
    expect(ok.status).toBe(200)
    const refused = await start(key, { to: phone(), reference: "😀".repeat(257) })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ error: "invalid_request", fields: { reference: "at most 256 characters" } })
  })
})
