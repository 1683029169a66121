/**
 * DECISIONS 8.1 and 8.2: the checks of a send and of a sender domain's add, in order. Each step is tested against
 * its neighbour: the request fails both, and the earlier one answers. Nothing refused is sent or kept.
 */
import { describe, expect, it } from "vitest"
import { useServer } from "../support/server.ts"
import { advance, api, inbox, publish, send, sendRaw, setupEmail, verifiedDomain } from "./harness.ts"

const s = useServer()

const expectRefused = (res: { status: number; body: any }, status: number, error: string) =>
  expect({ status: res.status, error: res.body.error }).toEqual({ status, error })

/** What nothing refused may leave: a message in the inbox or in the application's log. */
const expectNothingKept = async (token: string, applicationId: string, to: string) => {
  expect(await inbox(s, to)).toEqual([])
  const log = await api(s, token, "GET", `/applications/${applicationId}/email/messages`)
  if (log.status === 200) expect(log.body.data).toEqual([])
}

const reject = (applicationId: string) =>
  s.console("POST", `/applications/${applicationId}/reject`, { reason_code: "brand_mismatch" })

describe("the send: 403 live_key_required comes before 403 account_not_active", () => {
  it("a test key on a rejected application without access", async () => {
    const { app, key, mail } = await setupEmail(s, { mode: "test", access: "none", domain: null, approved: false })
    await reject(app.id)
    expectRefused(await send(s, key, mail), 403, "live_key_required")
    expectRefused(await s.call("GET", `/v1/email/messages/${crypto.randomUUID()}`, { key }), 403, "live_key_required")
  })
})

describe("403 account_not_active comes before 409 email_access_required", () => {
  it("a live key on a rejected application without access", async () => {
    const { app, key, mail } = await setupEmail(s, { access: "none", domain: null, approved: false })
    await reject(app.id)
    expectRefused(await send(s, key, mail), 403, "account_not_active")
  })
})

describe("409 email_access_required (none or denied) comes before the switch and the body", () => {
  it("no access, Email off, a body that is not JSON: email_access_required with needs and next", async () => {
    const { app, key, mail } = await setupEmail(s, { access: "none", domain: null })
    await s.console("PUT", `/applications/${app.id}/email`, { enabled: false })
    const res = await sendRaw(s, key, "{not json")
    expectRefused(res, 409, "email_access_required")
    expect(res.body.needs).toEqual(["email_access"])
    expect(res.body.next).toEqual({
      operation: "email.access.request",
      method: "POST",
      path: "/v1/account/email/access",
    })
  })
  it("denied access is none", async () => {
    const { key, mail } = await setupEmail(s, { access: "denied" })
    expectRefused(await send(s, key, mail), 409, "email_access_required")
  })
})

describe("409 email_access_pending comes before 409 email_product_off", () => {
  it("a pending request, Email off: email_access_pending, next email.access.show", async () => {
    const { app, key, mail } = await setupEmail(s, { access: "pending" })
    await s.console("PUT", `/applications/${app.id}/email`, { enabled: false })
    const res = await send(s, key, mail)
    expectRefused(res, 409, "email_access_pending")
    expect(res.body.needs).toEqual(["email_access"])
    expect(res.body.next).toEqual({ operation: "email.access.show", method: "GET", path: "/v1/account/email/access" })
  })
})

describe("409 email_product_off comes before 400 invalid_json", () => {
  it("granted, Email off, a body that is not JSON", async () => {
    const { app, key, mail } = await setupEmail(s)
    await s.console("PUT", `/applications/${app.id}/email`, { enabled: false })
    const res = await sendRaw(s, key, "{not json")
    expectRefused(res, 409, "email_product_off")
    expect(res.body.needs).toEqual(["email_product"])
    expect(await s.console("PUT", `/applications/${app.id}/email`, { enabled: true })).toEqual({ enabled: true })
    expect((await send(s, key, mail)).status).toBe(200)
  })
})

describe("400 invalid_json comes before 400 invalid_request", () => {
  it("granted and on, a body that is not JSON", async () => {
    const { key } = await setupEmail(s)
    expectRefused(await sendRaw(s, key, "{not json"), 400, "invalid_json")
  })
})

describe("400 invalid_request comes before 422 invalid_destination and 422 sender_not_verified", () => {
  const refused: ReadonlyArray<[string, Record<string, unknown>, string, string]> = [
    ["`to` a list", { to: ["a@example.net", "b@example.net"] }, "to", "invalid"],
    ["`to` a number", { to: 7 }, "to", "invalid"],
    ["`from` missing", { from: undefined }, "from", "required"],
    ["`subject` missing", { subject: undefined }, "subject", "required"],
    ["`subject` empty", { subject: "" }, "subject", "required"],
    ["`subject` of 256 characters", { subject: "s".repeat(256) }, "subject", "too_long"],
    ["`subject` with a new line", { subject: "Hi\r\nBcc: all@example.net" }, "subject", "invalid"],
    ["neither `text` nor `html`", { text: undefined }, "text", "required"],
    ["`reference` of 129 characters", { reference: "r".repeat(129) }, "reference", "too_long"],
    ["an unknown field", { cc: "b@example.net" }, "cc", "unknown"],
  ]
  for (const [name, change, field, code] of refused) {
    it(`${name}: invalid_request, ${field} ${code}`, async () => {
      const { app, key, token, mail, to } = await setupEmail(s)
      const res = await send(s, key, { ...mail, from: "x@elsewhere.sa", to: "not an address", ...change })
      expectRefused(res, 400, "invalid_request")
      expect(res.body.errors[field]).toBe(code)
      await expectNothingKept(token, app.id, to)
    })
  }
})

describe("422 invalid_destination (`to`) comes before 422 sender_not_verified (`from`)", () => {
  it("`to` not an address and `from` on no domain of the application", async () => {
    const { key, mail } = await setupEmail(s)
    expectRefused(await send(s, key, { ...mail, to: "customer", from: "x@elsewhere.sa" }), 422, "invalid_destination")
  })
  it("`from` on no domain of the application", async () => {
    const { app, key, token, mail, to } = await setupEmail(s)
    expectRefused(await send(s, key, { ...mail, from: "x@elsewhere.sa" }), 422, "sender_not_verified")
    await expectNothingKept(token, app.id, to)
  })
})

describe("502 send_failed: refused by the provider, nothing kept", () => {
  it("refused@example.com", async () => {
    const { app, key, token, mail } = await setupEmail(s)
    const res = await send(s, key, { ...mail, to: "refused@example.com" })
    expectRefused(res, 502, "send_failed")
    expect(res.body.provider_code).toBe("simulated_refusal")
    await expectNothingKept(token, app.id, "refused@example.com")
  })
})

describe("sender domains: the access codes, then email_product_off, then 400", () => {
  const add = (token: string, application: string, body: unknown) =>
    api(s, token, "POST", `/applications/${application}/email/senders`, body)

  it("no access, a body without a domain: email_access_required with needs and next", async () => {
    const { app, token } = await setupEmail(s, { access: "none", domain: null })
    const res = await add(token, app.id, {})
    expectRefused(res, 409, "email_access_required")
    expect(res.body.needs).toEqual(["email_access"])
    expect(res.body.next).toEqual({
      operation: "email.access.request",
      method: "POST",
      path: "/v1/account/email/access",
    })
    expectRefused(await api(s, token, "GET", `/applications/${app.id}/email/senders`), 409, "email_access_required")
  })
  it("pending, a body that is not JSON: email_access_pending", async () => {
    const { app, token } = await setupEmail(s, { access: "pending", domain: null })
    const res = await s.call("POST", `/v1/applications/${app.id}/email/senders`, { key: token, rawBody: "{nope" })
    expectRefused(res, 409, "email_access_pending")
    expect(res.body.next.operation).toBe("email.access.show")
  })
  it("granted, Email off, a domain over 253 characters: email_product_off", async () => {
    const { app, token } = await setupEmail(s, { domain: null })
    await s.console("PUT", `/applications/${app.id}/email`, { enabled: false })
    const res = await add(token, app.id, { domain: `${"a".repeat(250)}.sa` })
    expectRefused(res, 409, "email_product_off")
    expect(res.body.needs).toEqual(["email_product"])
  })
  it("another account's application is 404 before the access codes", async () => {
    const { token } = await setupEmail(s, { access: "none", domain: null })
    const other = await setupEmail(s, { domain: null })
    expectRefused(await add(token, other.app.id, { domain: "shop.sa" }), 404, "not_found")
  })
})

describe("sender domains: 400 invalid_request (missing, not a string, over 253) before domain_invalid", () => {
  const cases: ReadonlyArray<[string, unknown, string]> = [
    ["missing", {}, "required"],
    ["a number", { domain: 7 }, "invalid"],
    [
      "254 characters",
      { domain: `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(59)}.sa` },
      "too_long",
    ],
  ]
  for (const [name, body, code] of cases) {
    it(`${name}: errors.domain ${code}`, async () => {
      const { app, token } = await setupEmail(s, { domain: null })
      const res = await api(s, token, "POST", `/applications/${app.id}/email/senders`, body)
      expectRefused(res, 400, "invalid_request")
      expect(res.body.errors).toEqual({ domain: code })
    })
  }
  it("253 characters of valid labels is taken", async () => {
    const { app, token } = await setupEmail(s, { domain: null })
    const domain = `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"e".repeat(58)}.sa`
    expect(domain.length).toBe(253)
    const res = await api(s, token, "POST", `/applications/${app.id}/email/senders`, { domain })
    expect(res.status).toBe(201)
  })
})

describe("sender domains: domain_invalid, then domain_public, then domain_tawked", () => {
  const invalid = [
    "-foo.com",
    "foo-.com",
    `${"a".repeat(64)}.com`,
    "localhost",
    "foo..com",
    "foo.123",
    "xn--.com",
    "xn--zz-.com",
    "foo_bar.com",
    "foo.com..",
    "",
    "shop.sa/path",
    "-gmail.com",
  ]
  for (const domain of invalid) {
    it(`${JSON.stringify(domain)}: 422 domain_invalid`, async () => {
      const { app, token } = await setupEmail(s, { domain: null })
      expectRefused(
        await api(s, token, "POST", `/applications/${app.id}/email/senders`, { domain }),
        422,
        "domain_invalid",
      )
    })
  }
  const accepted: ReadonlyArray<[string, string]> = [
    ["EXAMPLE.COM.", "example.com"],
    [`${"a".repeat(63)}.com`, `${"a".repeat(63)}.com`],
    ["xn--mgbh0fb.xn--mgberp4a5d4ar", "xn--mgbh0fb.xn--mgberp4a5d4ar"],
    ["مثال.السعودية", "xn--mgbh0fb.xn--mgberp4a5d4ar"],
    ["my-shop.sa", "my-shop.sa"],
  ]
  for (const [given, stored] of accepted) {
    it(`${JSON.stringify(given)} is taken as ${stored}`, async () => {
      const { app, token } = await setupEmail(s, { domain: null })
      const res = await api(s, token, "POST", `/applications/${app.id}/email/senders`, { domain: given })
      expect(res.status).toBe(201)
      expect(res.body.data.domain).toBe(stored)
    })
  }
  for (const domain of ["gmail.com", "GMAIL.COM.", "mail.yahoo.com", "proton.me", "outlook.com"]) {
    it(`${domain}: 422 domain_public`, async () => {
      const { app, token } = await setupEmail(s, { domain: null })
      expectRefused(
        await api(s, token, "POST", `/applications/${app.id}/email/senders`, { domain }),
        422,
        "domain_public",
      )
    })
  }
  for (const domain of ["svc.sa", "mail.svc.sa", "MAIL.SVC.SA."]) {
    it(`${domain}: 422 domain_tawked`, async () => {
      const { app, token } = await setupEmail(s, { domain: null })
      expectRefused(
        await api(s, token, "POST", `/applications/${app.id}/email/senders`, { domain }),
        422,
        "domain_tawked",
      )
    })
  }
  it("a name that only ends like a platform domain is not one", async () => {
    const { app, token } = await setupEmail(s, { domain: null })
    expect((await api(s, token, "POST", `/applications/${app.id}/email/senders`, { domain: "mysvc.sa" })).status)
      .toBe(201)
  })
})

describe("sender domains: already held (200) before domain_taken before domain_limit", () => {
  const add = (token: string, application: string, domain: string) =>
    api(s, token, "POST", `/v1/applications/${application}/email/senders`.slice(3), { domain })

  it("held: 200 with the same domain, in any spelling", async () => {
    const { app, token } = await setupEmail(s, { domain: null })
    const first = await add(token, app.id, "brand.sa")
    expect(first.status).toBe(201)
    const again = await add(token, app.id, "BRAND.sa.")
    expect(again.status).toBe(200)
    expect(again.body.data.id).toBe(first.body.data.id)
  })
  it("held here and verified by another application: 200, not domain_taken", async () => {
    const one = await setupEmail(s, { domain: null })
    const two = await setupEmail(s, { domain: null })
    expect((await add(two.token, two.app.id, "shared.sa")).status).toBe(201)
    await verifiedDomain(s, one.token, one.app.id, "shared.sa")
    expect((await add(two.token, two.app.id, "shared.sa")).status).toBe(200)
  })
  it("verified by another application: 409 domain_taken, even at the limit", async () => {
    const owner = await setupEmail(s, { domain: "taken.sa" })
    void owner
    const { app, token } = await setupEmail(s, { domain: null })
    for (let i = 1; i <= 5; i++) expect((await add(token, app.id, `d${i}.sa`)).status).toBe(201)
    expectRefused(await add(token, app.id, "taken.sa"), 409, "domain_taken")
  })
  it("two applications waiting on one domain: the first verified wins, the other stays pending", async () => {
    const one = await setupEmail(s, { domain: null })
    const two = await setupEmail(s, { domain: null })
    const first = (await add(one.token, one.app.id, "both.sa")).body.data
    const second = (await add(two.token, two.app.id, "both.sa")).body.data
    await publish(s, first.records)
    await advance(s, 10 * 60_000)
    // Both keys published at once: the second application's records match too, but the domain is taken.
    await s.console("PUT", "/simulator/dns/records", {
      type: "TXT",
      name: "svc._domainkey.both.sa",
      values: [first.records[1].value, second.records[1].value],
    })
    await advance(s, 10 * 60_000)
    const senders = async (token: string, application: string) =>
      (await api(s, token, "GET", `/applications/${application}/email/senders`)).body.data[0].status
    expect(await senders(one.token, one.app.id)).toBe("verified")
    expect(await senders(two.token, two.app.id)).toBe("pending")
  })
  it("a pending domain of another application is not taken", async () => {
    const other = await setupEmail(s, { domain: null })
    expect((await add(other.token, other.app.id, "pending.sa")).status).toBe(201)
    const { app, token } = await setupEmail(s, { domain: null })
    expect((await add(token, app.id, "pending.sa")).status).toBe(201)
  })
  it("the sixth domain: 409 domain_limit with max 5; a held one still answers 200", async () => {
    const { app, token } = await setupEmail(s, { domain: null })
    for (let i = 1; i <= 5; i++) expect((await add(token, app.id, `d${i}.sa`)).status).toBe(201)
    const res = await add(token, app.id, "d6.sa")
    expectRefused(res, 409, "domain_limit")
    expect(res.body.max).toBe(5)
    expect((await add(token, app.id, "d3.sa")).status).toBe(200)
  })
})
