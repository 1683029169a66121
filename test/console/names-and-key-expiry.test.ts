/**
 * DECISIONS 18's edges of what a caller names and when a key ends:
 * - "A key made with `expires_at` in the past: `400 invalid_request`, `expires_at` `invalid`."
 * - Names hold no C0 or C1 control character (U+0000-U+001F, U+007F-U+009F), as DECISIONS 7 pins for
 *   parameters: every name a caller gives (a partner's client application, created or renamed; the console's
 *   accounts, applications and connected apps; a proforma's buyer) is refused with `invalid`, and nothing is made.
 */
import * as fc from "effect/FastCheck"
import { describe, expect, it } from "vitest"
import { hasControlCharacter } from "../../core/shared/names.ts"
import { useServer } from "../support/server.ts"
import { app, makePartner, merchant, provisioned } from "../partner/helpers.ts"
import { accountWithToken } from "../wallet/support.ts"

const s = useServer()

const call = (method: string, path: string, body: unknown) =>
  s.call(method, `/console/v1${path}`, { key: s.consoleToken, body })

const iso = (ms: number) => new Date(ms).toISOString()
describe('DECISIONS 18: "A key made with expires_at in the past: 400 invalid_request, expires_at invalid"', () => {
  it("application keys, partner keys and connected-app keys: a past expires_at is refused; a future one is taken", async () => {
    const account = (await call("POST", "/accounts", { name: "Expiry", partner: true })).body.data
    const application = (await call("POST", `/accounts/${account.id}/applications`, { name: "Shop", approved: true }))
      .body.data
    // The simulated clock starts at the machine's time and only moves forward.
    const past = [iso(Date.now() - 60_000), "2000-01-01T00:00:00Z", "1970-01-01T00:00:00.000Z"]
    const makers: ReadonlyArray<readonly [string, string, Record<string, unknown>]> = [
      ["an application key", `/applications/${application.id}/keys`, { mode: "live" }],
      ["a partner key", `/accounts/${account.id}/keys`, { mode: "partner" }],
      ["a connected-app key", `/applications/${application.id}/connected-app-keys`, {
        app_name: "Helper",
        scopes: ["verify:send"],
      }],
    ]
    for (const [what, path, body] of makers) {
      for (const expires_at of past) {
        const res = await call("POST", path, { ...body, expires_at })
        expect(res.status, `${what} ${expires_at}`).toBe(400)
        expect(res.body, `${what} ${expires_at}`).toMatchObject({
          error: "invalid_request",
          fields: { expires_at: expect.any(String) },
          errors: { expires_at: "invalid" },
        })
      }
      // Ahead of the clock is taken, as before.
      const future = await call("POST", path, { ...body, expires_at: iso(Date.now() + 86_400_000 * 400) })
      expect(future.status, `${what}: ${JSON.stringify(future.body)}`).toBe(201)
    }
  })

  it("a malformed expires_at is `invalid` too; a missing mode is `required`", async () => {
    const account = (await call("POST", "/accounts", { name: "Expiry 2" })).body.data
    const application = (await call("POST", `/accounts/${account.id}/applications`, { name: "Shop" })).body.data
    const res = await call("POST", `/applications/${application.id}/keys`, { expires_at: "tomorrow" })
    expect(res.status).toBe(400)
    expect(res.body.errors).toMatchObject({ expires_at: "invalid", mode: "required" })
  })
})

/** Control characters of both sets, at the start, inside and at the end of a name. */
const controlled = [
  "Bell\u0007Shop",
  "\u001b[31mRed",
  "Tab\tShop",
  "New\nline",
  "Nul\u0000",
  "Del\u007f",
  "\u0080C1 start",
  "Next\u0085line",
  "C1 end\u009f",
]
/** Not control characters: no-break space, Arabic, an emoji, a right-to-left mark. */
const fine = ["Shop\u00a0Co", "متجر الرياض", "Shop 🛍️", "\u200fمتجر"]

describe("DECISIONS 18 (as DECISIONS 7 for parameters): a name with a C0 or C1 control character is refused as `invalid`", () => {
  it("the predicate: exactly U+0000-U+001F and U+007F-U+009F, anywhere in the name", () => {
    for (let c = 0; c <= 0x2ff; c++) {
      const controlChar = c <= 0x1f || (c >= 0x7f && c <= 0x9f)
      expect(hasControlCharacter(`a${String.fromCharCode(c)}b`), c.toString(16)).toBe(controlChar)
    }
    fc.assert(fc.property(fc.string({ unit: "binary" }), (t) => {
      expect(hasControlCharacter(t)).toBe(/[\u0000-\u001f\u007f-\u009f]/.test(t))
    }))
  })

  it("console: account names, application names, connected-app app_name", async () => {
    const account = (await call("POST", "/accounts", { name: "Names" })).body.data
    const application = (await call("POST", `/accounts/${account.id}/applications`, { name: "Shop" })).body.data
    const makers: ReadonlyArray<readonly [string, string, (n: string) => Record<string, unknown>]> = [
      ["name", "/accounts", (name) => ({ name })],
      ["name", `/accounts/${account.id}/applications`, (name) => ({ name })],
      ["app_name", `/applications/${application.id}/connected-app-keys`, (app_name) => ({
        app_name,
        scopes: ["verify:send"],
      })],
    ]
    for (const [field, path, body] of makers) {
      for (const name of controlled) {
        const res = await call("POST", path, body(name))
        expect(res.status, `${path} ${JSON.stringify(name)}`).toBe(400)
        expect(res.body, `${path} ${JSON.stringify(name)}`).toMatchObject({
          error: "invalid_request",
          fields: { [field]: expect.any(String) },
          errors: { [field]: "invalid" },
        })
      }
      for (const name of fine) {
        const res = await call("POST", path, body(name))
        expect(res.status, `${path} ${JSON.stringify(name)}`).toBe(201)
      }
    }
  })

  it("Partner API: a client application's name, at provisioning and when renamed; nothing is made or changed", async () => {
    const { key } = await makePartner(s)
    for (const name of controlled) {
      const made = await s.call("POST", "/v1/partner/applications", { key, body: merchant({ name }) })
      expect(made.status, JSON.stringify(name)).toBe(400)
      expect(made.body.errors, JSON.stringify(name)).toEqual({ name: "invalid" })
    }
    expect((await s.call("GET", "/v1/partner/applications", { key })).body.data).toEqual([])
    const made = await provisioned(s, key)
    for (const name of controlled) {
      const renamed = await s.call("POST", app(made.id), { key, body: { name } })
      expect(renamed.status, JSON.stringify(name)).toBe(400)
      expect(renamed.body.errors, JSON.stringify(name)).toEqual({ name: "invalid" })
    }
    expect((await s.call("GET", app(made.id), { key })).body).toEqual(made)
    for (const name of fine) {
      expect((await s.call("POST", app(made.id), { key, body: { name } })).body.name).toBe(name)
    }
  })

  it("account API: a proforma's buyer name", async () => {
    const { token } = await accountWithToken(s)
    for (const name of controlled) {
      const res = await s.call("POST", "/v1/account/wallet/proformas", {
        key: token,
        body: { amount_halalas: 5_000, buyer: { name } },
      })
      expect(res.status, JSON.stringify(name)).toBe(400)
      expect(res.body.errors, JSON.stringify(name)).toEqual({ "buyer.name": "invalid" })
    }
    const taken = await s.call("POST", "/v1/account/wallet/proformas", {
      key: token,
      body: { amount_halalas: 5_000, buyer: { name: fine[1] } },
    })
    expect(taken.status).toBe(201)
  })
})
