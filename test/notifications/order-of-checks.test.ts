/**
 * DECISIONS 7.2: the checks of a send, in order after the shared ones. Each step is tested against its
 * neighbour: the request fails both, and the earlier one answers. Nothing refused is sent or charged.
 */
import { describe, expect, it } from "vitest"
import { useServer } from "../support/server.ts"
import { balance, customer, inbound, networkLog, putCopy, send, sendRaw, setupChat } from "./harness.ts"

const s = useServer()

const utility = { category: "utility", body: "Order {{order_id}} is on its way" } as const
const marketing = { category: "marketing", body: "Hello {{1}}, 20% off today" } as const
const authentication = {
  category: "authentication",
  body: "{{1}} is your verification code",
  buttons: [{ type: "otp", text: "Copy code" }],
} as const

/** An application ready to send, with these templates on the network. */
const ready = async (opts: Parameters<typeof setupChat>[1] = {}) => {
  const made = await setupChat(s, opts)
  await putCopy(s, made.app.id, "order_update", "ar", utility)
  await putCopy(s, made.app.id, "offer", "ar", marketing)
  await putCopy(s, made.app.id, "login_code", "en", authentication)
  return made
}

const expectRefused = async (
  res: { status: number; body: any },
  status: number,
  error: string,
  accountId?: string,
  balanceBefore?: number,
) => {
  expect({ status: res.status, error: res.body.error }).toEqual({ status, error })
  if (accountId !== undefined) expect(await balance(s, accountId)).toBe(balanceBefore)
}

const orderUpdate = { to: customer, template: "order_update", params: { order_id: "A-1" } }

describe("403 live_key_required comes before 403 account_not_active", () => {
  it("a test key on a rejected application answers live_key_required", async () => {
    const { app, key } = await ready({ mode: "test", approved: false })
    await s.console("POST", `/applications/${app.id}/reject`, { reason_code: "brand_mismatch" })
    await expectRefused(await send(s, key, orderUpdate), 403, "live_key_required")
  })
  it("a test key answers live_key_required on every chatmsg route it holds the scope of", async () => {
    const { key } = await ready({ mode: "test" })
    await expectRefused(await send(s, key, orderUpdate, "codes"), 403, "live_key_required")
    await expectRefused(await s.call("GET", "/v1/chatmsg/templates", { key }), 403, "live_key_required")
    await expectRefused(
      await s.call("GET", `/v1/chatmsg/messages/${crypto.randomUUID()}`, { key }),
      403,
      "live_key_required",
    )
  })
})

describe("403 account_not_active comes before 403 whatsapp_not_enabled", () => {
  it("a live key on a rejected application with the channel off", async () => {
    const { app, key } = await ready({ approved: false })
    await s.console("PUT", `/applications/${app.id}/chatmsg`, { enabled: false })
    await s.console("POST", `/applications/${app.id}/reject`, { reason_code: "brand_mismatch" })
    await expectRefused(await send(s, key, orderUpdate), 403, "account_not_active")
  })
})

describe("403 whatsapp_not_enabled comes before 409 no_whatsapp_number", () => {
  it("the channel off and no number", async () => {
    const { app, key } = await ready({ number: false })
    const channel = await s.console("PUT", `/applications/${app.id}/chatmsg`, { enabled: false })
    expect(channel).toEqual({ enabled: false, number: null, connected: false })
    await expectRefused(await send(s, key, orderUpdate), 403, "whatsapp_not_enabled")
    await expectRefused(await s.call("GET", "/v1/chatmsg/templates", { key }), 403, "whatsapp_not_enabled")
  })
  it("the channel on again sends", async () => {
    const { app, key } = await ready()
    await s.console("PUT", `/applications/${app.id}/chatmsg`, { enabled: false })
    const on = await s.console("PUT", `/applications/${app.id}/chatmsg`, { enabled: true })
    expect(on).toEqual({ enabled: true, number: "+966555000111", connected: true })
    expect((await send(s, key, orderUpdate)).status).toBe(200)
  })
})

describe("409 no_whatsapp_number and 409 number_disconnected come before the body is read", () => {
  it("no number, a body that is not JSON: no_whatsapp_number", async () => {
    const { key } = await ready({ number: false })
    await expectRefused(await sendRaw(s, key, "{not json"), 409, "no_whatsapp_number")
  })
  it("a detached number is no number", async () => {
    const { app, key } = await ready()
    await s.console("DELETE", `/simulator/chatmsg/applications/${app.id}/number`)
    await expectRefused(await send(s, key, orderUpdate), 409, "no_whatsapp_number")
  })
  it("a disconnected number, a body that is not JSON: number_disconnected", async () => {
    const { key } = await ready({ connected: false })
    await expectRefused(await sendRaw(s, key, "{not json"), 409, "number_disconnected")
  })
  it("a connected number, a body that is not JSON: invalid_json", async () => {
    const { key } = await ready()
    await expectRefused(await sendRaw(s, key, "{not json"), 400, "invalid_json")
  })
})

describe("400 invalid_request: `to` or `template` missing or not a string, `params`/`header` not an object, `lang` not a string, `reference` not a string of at most 128", () => {
  const refused: ReadonlyArray<[string, unknown, string]> = [
    ["`to` missing", { template: "order_update" }, "to"],
    ["`to` a number", { to: 966512345678, template: "order_update" }, "to"],
    ["`template` missing", { to: customer }, "template"],
    ["`template` an array", { to: customer, template: ["order_update"] }, "template"],
    ["`params` an array", { ...orderUpdate, params: ["A-1"] }, "params"],
    ["`params` a string", { ...orderUpdate, params: "A-1" }, "params"],
    ["`header` a string", { ...orderUpdate, header: "https://x.sa/a.png" }, "header"],
    ["`lang` a number", { ...orderUpdate, lang: 1 }, "lang"],
    ["`reference` a number", { ...orderUpdate, reference: 7 }, "reference"],
    ["`reference` of 129 characters", { ...orderUpdate, reference: "r".repeat(129) }, "reference"],
  ]
  for (const [name, body, field] of refused) {
    it(`${name}: invalid_request naming ${field}, before invalid_destination`, async () => {
      const { key } = await ready()
      const res = await send(s, key, { ...(body as object), ...(field === "to" ? {} : { to: "not a number" }) })
      await expectRefused(res, 400, "invalid_request")
      expect(Object.keys(res.body.errors ?? res.body.fields ?? {})).toContain(field)
    })
  }
  it("`reference` of 128 characters (Arabic, counted as code points) is taken", async () => {
    const { key } = await ready()
    const res = await send(s, key, { ...orderUpdate, reference: "م".repeat(128) })
    expect(res.status).toBe(200)
    expect(res.body.reference).toBe("م".repeat(128))
  })
})

describe("422 invalid_destination comes before 503 templates_unavailable", () => {
  it("a number that is not a Saudi mobile, the network not answering", async () => {
    const { app, key } = await ready()
    await s.console("PUT", `/simulator/chatmsg/applications/${app.id}/network`, { templates_readable: false })
    await expectRefused(await send(s, key, { ...orderUpdate, to: "+14155550100" }), 422, "invalid_destination")
  })
})

describe("503 templates_unavailable comes before 422 unknown_template; nothing sent or charged", () => {
  it("an unknown template, the network not answering", async () => {
    const { account, app, key } = await ready()
    await s.console("PUT", `/simulator/chatmsg/applications/${app.id}/network`, { templates_readable: false })
    const before = await balance(s, account.id)
    await expectRefused(
      await send(s, key, { ...orderUpdate, template: "nope" }),
      503,
      "templates_unavailable",
      account.id,
      before,
    )
    await expectRefused(await s.call("GET", "/v1/chatmsg/templates", { key }), 503, "templates_unavailable")
    expect(await networkLog(s, customer)).not.toContainEqual(expect.objectContaining({ template: "nope" }))
    await s.console("PUT", `/simulator/chatmsg/applications/${app.id}/network`, { templates_readable: true })
    expect((await send(s, key, orderUpdate)).status).toBe(200)
  })
})

describe("422 unknown_template: no such name, or `lang` not held", () => {
  it("no such name", async () => {
    const { key } = await ready()
    await expectRefused(await send(s, key, { ...orderUpdate, template: "order_updates" }), 422, "unknown_template")
  })
  it("a language the template does not have", async () => {
    const { key } = await ready()
    await expectRefused(await send(s, key, { ...orderUpdate, lang: "en" }), 422, "unknown_template")
  })
})

describe("422 template_category_not_allowed: two send routes, the message naming the right one", () => {
  it("an authentication template on /messages, in two languages without `lang`: the route is judged first", async () => {
    const { app, key } = await ready()
    await putCopy(s, app.id, "login_code", "ar", authentication)
    const res = await send(s, key, { to: customer, template: "login_code", params: { code: "123456" } })
    await expectRefused(res, 422, "template_category_not_allowed")
    expect(res.body.message).toContain("/v1/chatmsg/codes")
  })
  it("a utility template on /codes names /v1/chatmsg/messages", async () => {
    const { key } = await ready()
    const res = await send(s, key, orderUpdate, "codes")
    await expectRefused(res, 422, "template_category_not_allowed")
    expect(res.body.message).toContain("/v1/chatmsg/messages")
  })
})

describe("422 invalid_params `lang` `required` comes before template_not_approved", () => {
  it("two pending languages and no `lang`", async () => {
    const { app, key } = await ready()
    await putCopy(s, app.id, "welcome", "ar", { ...utility, status: "pending" })
    await putCopy(s, app.id, "welcome", "en", { ...utility, status: "pending" })
    const res = await send(s, key, { ...orderUpdate, template: "welcome" })
    await expectRefused(res, 422, "invalid_params")
    expect(res.body.errors).toEqual({ lang: "required" })
  })
  it("one language and no `lang` sends that one", async () => {
    const { key } = await ready()
    const res = await send(s, key, orderUpdate)
    expect(res.status).toBe(200)
    expect(res.body.lang).toBe("ar")
  })
})

describe("422 template_not_approved (the message gives the status) comes before unsupported_template", () => {
  for (const status of ["pending", "rejected", "paused", "disabled"]) {
    it(`a ${status} template with a video header`, async () => {
      const { app, key } = await ready()
      await putCopy(s, app.id, "promo", "ar", { ...utility, status, header: { type: "video" } })
      const res = await send(s, key, { ...orderUpdate, template: "promo" })
      await expectRefused(res, 422, "template_not_approved")
      expect(res.body.message).toContain(status)
    })
  }
})

describe('422 unsupported_template (a button `param: "other"`, `mixed`, a video or document header) comes before invalid_params', () => {
  const unsupported: ReadonlyArray<[string, object]> = [
    ["mixed placeholders", { ...utility, body: "Order {{order_id}} for {{1}}" }],
    ["a video header", { ...utility, header: { type: "video" } }],
    ["a document header", { ...utility, header: { type: "document" } }],
    ["a flow button", { ...utility, buttons: [{ type: "flow", text: "Open" }] }],
    ["a catalog button", { ...utility, buttons: [{ type: "catalog", text: "View" }] }],
    ["a marketing copy_code button", { ...marketing, buttons: [{ type: "copy_code", text: "Copy" }] }],
  ]
  for (const [name, copy] of unsupported) {
    it(`${name}, sent without its parameters`, async () => {
      const { app, key } = await ready()
      await putCopy(s, app.id, "special", "ar", copy as any)
      await expectRefused(await send(s, key, { to: customer, template: "special" }), 422, "unsupported_template")
    })
  }
})

describe("422 invalid_params comes before consent_opted_out", () => {
  it("an opted-out customer, a marketing template with its placeholder missing", async () => {
    const { app, key } = await ready()
    await inbound(s, app.id, customer, "STOP")
    const res = await send(s, key, { to: customer, template: "offer", params: {} })
    await expectRefused(res, 422, "invalid_params")
    expect(res.body.errors).toEqual({ "params.1": "missing" })
  })
})

describe("422 consent_opted_out (marketing only) comes before 402 insufficient_credits", () => {
  it("an opted-out customer, an empty wallet", async () => {
    const { app, key } = await ready({ balance: 0 })
    await inbound(s, app.id, customer, "stop")
    await expectRefused(
      await send(s, key, { to: customer, template: "offer", params: { 1: "Sara" } }),
      422,
      "consent_opted_out",
    )
  })
  it("a utility template still reaches an opted-out customer", async () => {
    const { app, key } = await ready()
    await inbound(s, app.id, customer, "stop")
    expect((await send(s, key, orderUpdate)).status).toBe(200)
  })
})

describe("402 insufficient_credits comes before the send", () => {
  it("an empty wallet and the number the network refuses: nothing is sent", async () => {
    const { key } = await ready({ balance: 0 })
    const res = await send(s, key, { ...orderUpdate, to: "+966500000001" })
    await expectRefused(res, 402, "insufficient_credits")
    expect(res.body).toMatchObject({ balance_halalas: 0, price_halalas: 5 })
  })
  it("a balance one halala short of a marketing message", async () => {
    const { key } = await ready({ balance: 19 })
    const res = await send(s, key, { to: customer, template: "offer", params: { 1: "Sara" } })
    await expectRefused(res, 402, "insufficient_credits")
    expect(res.body).toMatchObject({ balance_halalas: 19, price_halalas: 20 })
  })
})

describe("502 send_failed: refunded, nothing kept", () => {
  it("the network refuses +966500000001: the fee comes back, no message is kept or logged", async () => {
    const { account, key } = await ready()
    const before = await balance(s, account.id)
    const res = await send(s, key, { ...orderUpdate, to: "+966500000001" })
    await expectRefused(res, 502, "send_failed", account.id, before)
    expect(res.body.provider_code).toBe("simulated_refusal")
    expect(await networkLog(s, "+966500000001")).toEqual([])
  })
})

describe("the list and template writes stop after templates_unavailable; a read after account_not_active", () => {
  it("a read of a message is not refused by the channel being off", async () => {
    const { app, key } = await ready()
    const sent = await send(s, key, orderUpdate)
    await s.console("PUT", `/applications/${app.id}/chatmsg`, { enabled: false })
    const read = await s.call("GET", `/v1/chatmsg/messages/${sent.body.id}`, { key })
    expect(read.status).toBe(200)
    expect(read.body).toEqual(sent.body)
  })
})
