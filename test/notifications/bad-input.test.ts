/**
 * Issue 29, "Bad input", over HTTP: each is refused with its pinned code and key, and nothing is charged or sent.
 */
import { describe, expect, it } from "vitest"
import { useServer } from "../support/server.ts"
import { balance, customer, networkLog, putCopy, send, setupChat } from "./harness.ts"

const s = useServer()

const ready = async () => {
  const made = await setupChat(s)
  await putCopy(s, made.app.id, "order_update", "ar", {
    category: "utility",
    body: "Order {{order_id}} is on its way",
    header: { type: "text", text: "Hello {{name}}" },
    buttons: [{ type: "quick_reply", text: "Thanks" }, { type: "url", text: "Track", url: "https://x.sa/t/{{1}}" }],
  })
  await putCopy(s, made.app.id, "photo_offer", "ar", {
    category: "marketing",
    body: "New in store: {{1}}",
    header: { type: "image" },
  })
  const templatesKey = (await s.console("POST", `/applications/${made.app.id}/connected-app-keys`, {
    app_name: "Store app",
    scopes: ["notifications:templates"],
  })).key as string
  return { ...made, templatesKey }
}

const good = { order_id: "A-1", header: "Sara", button_1: "A-1" }

/** Sends `body`, expects 422 invalid_params with exactly `errors`, and that nothing was charged or sent. */
const refused = async (body: Record<string, unknown>, errors: Record<string, string>) => {
  const { account, key } = await ready()
  const before = await balance(s, account.id)
  const res = await send(s, key, { to: customer, template: "order_update", ...body })
  expect({ status: res.status, error: res.body.error, errors: res.body.errors }).toEqual({
    status: 422,
    error: "invalid_params",
    errors,
  })
  expect(Object.keys(res.body.fields).sort()).toEqual(Object.keys(errors).sort())
  expect(await balance(s, account.id)).toBe(before)
  return res
}

describe("parameters with a control character: control_character", () => {
  for (const [name, value] of [["tab", "A\t1"], ["new line", "A\n1"], ["U+007F", "A\u007f1"], ["U+0085", "A\u00851"]]) {
    it(`a ${name}`, () => refused({ params: { ...good, order_id: value } }, { "params.order_id": "control_character" }))
  }
})

describe("lengths are code points", () => {
  it("1,025 code points of Arabic text in the body: too_long; 1,024 are taken", async () => {
    await refused({ params: { ...good, order_id: "ع".repeat(1025) } }, { "params.order_id": "too_long" })
    const { key } = await ready()
    const res = await send(s, key, {
      to: customer,
      template: "order_update",
      params: { ...good, order_id: "ع".repeat(1024) },
    })
    expect(res.status).toBe(200)
  })
  it("emoji count one code point each: 1,024 emoji are taken, 1,025 are too_long", async () => {
    const { key } = await ready()
    const ok = await send(s, key, {
      to: customer,
      template: "order_update",
      params: { ...good, order_id: "😀".repeat(1024) },
    })
    expect(ok.status).toBe(200)
    await refused({ params: { ...good, order_id: "😀".repeat(1025) } }, { "params.order_id": "too_long" })
  })
  it("a header parameter of 61 characters: too_long", () =>
    refused({ params: { ...good, header: "x".repeat(61) } }, { "params.header": "too_long" }))
})

describe("every problem is listed, keyed `params.<key>`", () => {
  it("missing, empty, unexpected, not_string at once", () =>
    refused(
      { params: { order_id: "  ", button_1: 7, extra: "x" } },
      {
        "params.order_id": "empty",
        "params.header": "missing",
        "params.button_1": "not_string",
        "params.extra": "unexpected",
      },
    ))
})

describe("header.image.link", () => {
  const photo = async (header: unknown, errors: Record<string, string>) => {
    const { account, key } = await ready()
    const before = await balance(s, account.id)
    const res = await send(s, key, { to: customer, template: "photo_offer", params: { 1: "Dates" }, header })
    expect({ status: res.status, errors: res.body.errors }).toEqual({ status: 422, errors })
    expect(await balance(s, account.id)).toBe(before)
  }
  it("`http:`: invalid", () => photo({ image: { link: "http://x.sa/a.png" } }, { "header.image.link": "invalid" }))
  it("2,049 characters: invalid", () =>
    photo({ image: { link: `https://x.sa/${"a".repeat(2049 - 13)}` } }, { "header.image.link": "invalid" }))
  it("absent on an image-header template: required", () => photo(undefined, { "header.image.link": "required" }))
  it("given to a template without an image header: unexpected", () =>
    refused({ params: good, header: { image: { link: "https://x.sa/a.png" } } }, { "header.image.link": "unexpected" }))
  it("2,048 characters of https is taken", async () => {
    const { key } = await ready()
    const link = `https://x.sa/${"a".repeat(2048 - 13)}`
    const res = await send(s, key, {
      to: customer,
      template: "photo_offer",
      params: { 1: "Dates" },
      header: { image: { link } },
    })
    expect(res.status).toBe(200)
  })
})

describe("an authentication code: 4 to 15 letters or digits", () => {
  it("`12 34`, `١٢٣٤`, 16 digits and 3 digits are invalid; nothing goes out", async () => {
    const { account, app, key } = await ready()
    await putCopy(s, app.id, "login_code", "en", {
      category: "authentication",
      body: "{{1}} is your code",
      buttons: [{ type: "otp", text: "Copy" }],
    })
    const before = await balance(s, account.id)
    for (const code of ["12 34", "١٢٣٤", "1".repeat(16), "123"]) {
      const res = await send(s, key, { to: customer, template: "login_code", params: { code } }, "codes")
      expect({ status: res.status, errors: res.body.errors }).toEqual({
        status: 422,
        errors: { "params.code": "invalid" },
      })
    }
    expect(await balance(s, account.id)).toBe(before)
    expect((await send(s, key, { to: customer, template: "login_code", params: { code: "Ab12" } }, "codes")).status)
      .toBe(200)
    expect((await networkLog(s, customer))[0].text).toBe("Ab12 is your code")
  })
})

describe("template writes: placeholders in both styles, `{{1}}` after `{{3}}`", () => {
  const write = async (body: string) => {
    const { templatesKey } = await ready()
    return s.call("POST", "/v1/chatmsg/templates", {
      key: templatesKey,
      body: { name: "bad_one", lang: "en", category: "utility", body },
    })
  }
  it("both styles in one body: 400 invalid_request, `body` invalid", async () => {
    const res = await write("Hi {{name}}, order {{1}}")
    expect([res.status, res.body.error, res.body.errors]).toEqual([400, "invalid_request", { body: "invalid" }])
  })
  it("`{{1}}` after `{{3}}`: 400 invalid_request, `body` invalid", async () => {
    const res = await write("{{3}} then {{1}} and {{2}}")
    expect([res.status, res.body.errors]).toEqual([400, { body: "invalid" }])
  })
  it("both styles on the network (a simulated copy): a send answers 422 unsupported_template", async () => {
    const { app, key } = await ready()
    await putCopy(s, app.id, "mixed", "en", { category: "utility", body: "Hi {{name}}, order {{1}}" })
    const res = await send(s, key, { to: customer, template: "mixed", params: { name: "a", 1: "b" } })
    expect([res.status, res.body.error]).toEqual([422, "unsupported_template"])
  })
})
