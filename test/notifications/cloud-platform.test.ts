/**
 * The whole platform on the WhatsApp Cloud API adapter (`CHAT_PROVIDER=whatsapp_cloud`), end to end over HTTP:
 * its routes, its order of checks, the wallet and the outbox, against the local stand-in that speaks the Graph API
 * (test/notifications/cloud-api-standin.ts), its refusals and its signed webhook deliveries included.
 *
 * WHATSAPP_NUMBERS names applications by their ids, which exist only once the platform made them; as an operator
 * would, the suite makes its applications and keys on a first start, then starts the platform again on the same
 * store (PGlite in a directory of its own) with WHATSAPP_NUMBERS naming them. The WHATSAPP_* settings are read
 * from the environment while the platform is made, and the environment is put back right after.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ChatMessagesRepo } from "../../ports/store/notifications.ts"
import { setupApplication, startServer, type TestServer } from "../support/server.ts"
import {
  type CloudApiStandIn,
  GraphErrors,
  metadata,
  startCloudApiStandIn,
  type TemplateRow,
} from "./cloud-api-standin.ts"
import { balance, messageEvents } from "./harness.ts"

const VERIFY_TOKEN = "platform-verify-token"
/** The environment's own WHATSAPP_NUMBERS (normally none), as the suite found it. */
const numbersBefore = process.env.WHATSAPP_NUMBERS
/** The numbers the stand-in holds: connected, disconnected, and one the suite disconnects later. */
const SHOP = { phone: "1001", waba: "2001" }
const DOWN = { phone: "1002", waba: "2002" }
const LATER = { phone: "1003", waba: "2003" }

let standIn: CloudApiStandIn
let s: TestServer
let dir: string
type Made = Awaited<ReturnType<typeof setupApplication>>
let shop: Made
let down: Made
let later: Made
let absent: Made
/** The shop's connected-app key holding `notifications:templates`. */
let templatesKey: string

/** Runs `f` with these environment variables set, then puts the environment back as it was. */
const withEnv = async <A>(vars: Record<string, string>, f: () => Promise<A>): Promise<A> => {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]))
  Object.assign(process.env, vars)
  try {
    return await f()
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
    }
  }
}

const whatsappEnv = (numbers: Record<string, { phone: string; waba: string }>) => ({
  WHATSAPP_ACCESS_TOKEN: standIn.accessToken,
  WHATSAPP_APP_SECRET: standIn.appSecret,
  WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
  WHATSAPP_GRAPH_URL: standIn.graphUrl,
  WHATSAPP_NUMBERS: JSON.stringify(
    Object.fromEntries(
      Object.entries(numbers).map(([app, n]) => [app, { phone_number_id: n.phone, waba_id: n.waba }]),
    ),
  ),
})

beforeAll(async () => {
  standIn = await startCloudApiStandIn({ accessToken: "platform-access-token", appSecret: "platform-app-secret" })
  standIn.phones.set(SHOP.phone, { display: "+966 11 234 5678", status: "CONNECTED", wabaId: SHOP.waba })
  standIn.phones.set(DOWN.phone, { display: "966112345679", status: "DISCONNECTED", wabaId: DOWN.waba })
  standIn.phones.set(LATER.phone, { display: "966112345670", status: "CONNECTED", wabaId: LATER.waba })
  dir = mkdtempSync(join(tmpdir(), "cloud-platform-"))
  // The first start makes the applications on the store's snapshot products (the simulator's among them);
  // the second is the Cloud API's, on the same store.
  const first = await startServer({ store: "sql", pgliteDir: dir, chatProvider: "simulator" })
  try {
    shop = await setupApplication(first)
    down = await setupApplication(first)
    later = await setupApplication(first)
    absent = await setupApplication(first)
    const connected = await first.console("POST", `/applications/${shop.app.id}/connected-app-keys`, {
      app_name: "Templates app",
      scopes: ["notifications:templates"],
    })
    templatesKey = connected.key
  } finally {
    await first.close()
  }
  s = await withEnv(
    whatsappEnv({ [shop.app.id]: SHOP, [down.app.id]: DOWN, [later.app.id]: LATER }),
    () => startServer({ store: "sql", pgliteDir: dir, chatProvider: "whatsapp_cloud" }),
  )
}, 120_000)

afterAll(async () => {
  await s?.close()
  await standIn?.close()
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
})

const advance = (ms: number) => s.console("POST", "/simulator/clock", { advance_ms: ms })
const send = (key: string, body: unknown) => s.call("POST", "/v1/chatmsg/messages", { key, body })
const listTemplates = async (key = shop.key) => {
  const res = await s.call("GET", "/v1/chatmsg/templates", { key })
  expect(res.status).toBe(200)
  return res.body.data as ReadonlyArray<any>
}
const statusOf = async (name: string, lang: string) =>
  (await listTemplates()).find((t) => t.name === name)?.languages.find((l: any) => l.lang === lang)?.status
/** The stand-in approves a template language (as WhatsApp's review would). */
const approve = (waba: string, name: string, lang: string) => {
  const held = standIn.templates(waba).find((t) => t.name === name && t.language === lang)
  if (held === undefined) throw new Error(`the stand-in holds no ${name}/${lang}`)
  standIn.putTemplate(waba, { ...held, status: "APPROVED" } satisfies TemplateRow)
}
const webhook = (delivery: { body: string; headers: Record<string, string> }) =>
  s.call("POST", "/v1/chatmsg/network/webhook", { rawBody: delivery.body, headers: delivery.headers })
const statusDelivery = (
  wamid: string,
  status: string,
  recipient: string,
  extra: Record<string, unknown> = {},
  phone = SHOP.phone,
) =>
  standIn.delivery([{
    ...metadata(phone),
    statuses: [{
      id: wamid,
      status,
      timestamp: String(Math.floor(Date.now() / 1000)),
      recipient_id: recipient,
      ...extra,
    }],
  }])
const inboundText = (from: string, text: string, phone = SHOP.phone) =>
  standIn.delivery([{
    ...metadata(phone),
    contacts: [{ profile: { name: "Sara" }, wa_id: from }],
    messages: [{
      from,
      id: `wamid.in.${from}.${text.length}`,
      timestamp: "1767225600",
      type: "text",
      text: { body: text },
    }],
  }])
const sendsTo = (digits: string) =>
  standIn.requests.filter((r) =>
    r.method === "POST" && r.path === `/v21.0/${SHOP.phone}/messages` && (r.body as any)?.to === digits
  )
const messageRow = (id: string) => s.platform.runtime.runPromise(Effect.flatMap(ChatMessagesRepo, (m) => m.find(id)))

const orderUpdate = { name: "order_update", lang: "ar", category: "utility", body: "Order {{order_id}} is on its way" }
const offer = { name: "offer", lang: "ar", category: "marketing", body: "Hello {{1}}, 20% off today" }

describe("the platform starts on the Cloud API adapter, its settings read from the environment", () => {
  it("the environment is put back once the platform is made", () => {
    expect(process.env.WHATSAPP_NUMBERS).toBe(numbersBefore)
    expect(s.settings.chatProvider).toBe("whatsapp_cloud")
  })

  it("the console's channel switch shows the number as the stand-in reports it", async () => {
    expect(await s.console("PUT", `/applications/${shop.app.id}/chatmsg`, { enabled: true })).toEqual({
      enabled: true,
      number: "+966112345678",
      connected: true,
    })
    expect(await s.console("PUT", `/applications/${down.app.id}/chatmsg`, { enabled: true })).toEqual({
      enabled: true,
      number: "+966112345679",
      connected: false,
    })
    expect(await s.console("PUT", `/applications/${absent.app.id}/chatmsg`, { enabled: true })).toEqual({
      enabled: true,
      number: null,
      connected: false,
    })
  })
})

describe("templates: written through the platform to the stand-in, read back through the 5-minute cache", () => {
  it("a create reaches the stand-in pending; approved there, the list shows it only once the cache expires", async () => {
    expect(await listTemplates()).toEqual([])
    const created = await s.call("POST", "/v1/chatmsg/templates", { key: templatesKey, body: orderUpdate })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      name: "order_update",
      category: "utility",
      parameter_format: "named",
      languages: [{ lang: "ar", status: "pending", reason: null, placeholders: [{ key: "order_id" }] }],
    })
    const submitted = standIn.requests.filter((r) =>
      r.method === "POST" && r.path === `/v21.0/${SHOP.waba}/message_templates`
    )
    expect(submitted.map((r) => r.body)).toEqual([{
      name: "order_update",
      language: "ar",
      category: "UTILITY",
      parameter_format: "NAMED",
      components: [{
        type: "BODY",
        text: "Order {{order_id}} is on its way",
        example: { body_text_named_params: [{ param_name: "order_id", example: "order_id" }] },
      }],
    }])
    expect(standIn.templates(SHOP.waba).map((t) => [t.name, t.language, t.status])).toEqual([
      ["order_update", "ar", "PENDING"],
    ])
    // Pending: a send is refused before anything reaches the network, and nothing is charged.
    const early = await send(shop.key, { to: "+966512345678", template: "order_update", params: { order_id: "A-1" } })
    expect({ status: early.status, error: early.body.error, message: early.body.message }).toEqual({
      status: 422,
      error: "template_not_approved",
      message: "The template is pending.",
    })
    expect(sendsTo("966512345678")).toEqual([])
    expect(await balance(s, shop.account.id)).toBe(10_000)

    approve(SHOP.waba, "order_update", "ar")
    expect(await statusOf("order_update", "ar")).toBe("pending")
    await advance(5 * 60_000 - 1)
    expect(await statusOf("order_update", "ar")).toBe("pending")
    await advance(1)
    expect(await statusOf("order_update", "ar")).toBe("approved")
  })

  it("a write through the platform clears the cached list at once", async () => {
    const created = await s.call("POST", "/v1/chatmsg/templates", { key: templatesKey, body: offer })
    expect(created.status).toBe(201)
    expect(created.body.parameter_format).toBe("positional")
    approve(SHOP.waba, "offer", "ar")
    expect(await statusOf("offer", "ar")).toBe("pending")
    // Another language of it, written through the platform: the answer and the list are read afresh.
    const english = await s.call("POST", "/v1/chatmsg/templates", {
      key: templatesKey,
      body: { ...offer, lang: "en", body: "Hi {{1}}, 20% off today" },
    })
    expect(english.status).toBe(201)
    expect(english.body.languages.map((l: any) => [l.lang, l.status])).toEqual([["ar", "approved"], ["en", "pending"]])
    expect(await statusOf("offer", "ar")).toBe("approved")
    // The stand-in says the name and language exist: the platform answered from its list before asking.
    const again = await s.call("POST", "/v1/chatmsg/templates", { key: templatesKey, body: offer })
    expect({ status: again.status, error: again.body.error }).toEqual({ status: 409, error: "template_exists" })
  })

  it("a language made on the network behind the cached list: a create answers 409 template_exists, never overwrites", async () => {
    await listTemplates()
    const made = standIn.putTemplate(SHOP.waba, {
      name: "made_elsewhere",
      language: "ar",
      category: "UTILITY",
      status: "APPROVED",
      components: [{ type: "BODY", text: "Made in the provider's own manager" }],
    })
    const posts = standIn.requests.filter((r) => r.method === "POST").length
    const created = await s.call("POST", "/v1/chatmsg/templates", {
      key: templatesKey,
      body: { ...orderUpdate, name: "made_elsewhere" },
    })
    expect({ status: created.status, error: created.body.error }).toEqual({ status: 409, error: "template_exists" })
    expect(standIn.requests.filter((r) => r.method === "POST").length).toBe(posts)
    expect(standIn.templates(SHOP.waba).find((t) => t.id === made.id)).toEqual(made)
  })
})

describe("template edits and deletes go through to the stand-in", () => {
  const promo = { name: "promo", lang: "en", category: "utility", body: "Your order {{order_id}} shipped" }

  it("an edit of an approved language is POSTed to its id and is pending again; a delete removes every language", async () => {
    expect((await s.call("POST", "/v1/chatmsg/templates", { key: templatesKey, body: promo })).status).toBe(201)
    approve(SHOP.waba, "promo", "en")
    // A pending language is not editable (the platform's list, read again after its own write, says pending).
    const pending = await s.call("PUT", "/v1/chatmsg/templates/promo/en", {
      key: templatesKey,
      body: { category: "utility", body: promo.body },
    })
    expect({ status: pending.status, error: pending.body.error }).toEqual({
      status: 409,
      error: "template_not_editable",
    })
    // Another write through the platform reads the list afresh: the approval is seen.
    const arabic = await s.call("POST", "/v1/chatmsg/templates", {
      key: templatesKey,
      body: { ...promo, lang: "ar", body: "طلبك {{order_id}} في الطريق" },
    })
    expect(arabic.body.languages.map((l: any) => [l.lang, l.status])).toEqual([["ar", "pending"], ["en", "approved"]])
    const id = standIn.templates(SHOP.waba).find((t) => t.name === "promo" && t.language === "en")!.id
    const edited = await s.call("PUT", "/v1/chatmsg/templates/promo/en", {
      key: templatesKey,
      body: { category: "utility", body: "Order {{order_id}} has shipped", footer: "Thank you" },
    })
    expect(edited.status).toBe(200)
    expect(edited.body.languages.find((l: any) => l.lang === "en").status).toBe("pending")
    expect(standIn.requests.filter((r) => r.method === "POST" && r.path === `/v21.0/${id}`).map((r) => r.body)).toEqual(
      [{
        components: [
          {
            type: "BODY",
            text: "Order {{order_id}} has shipped",
            example: { body_text_named_params: [{ param_name: "order_id", example: "order_id" }] },
          },
          { type: "FOOTER", text: "Thank you" },
        ],
      }],
    )
    expect(standIn.templates(SHOP.waba).find((t) => t.id === id)?.status).toBe("PENDING")

    const deleted = await s.call("DELETE", "/v1/chatmsg/templates/promo", { key: templatesKey })
    expect({ status: deleted.status, body: deleted.body }).toEqual({
      status: 200,
      body: { name: "promo", deleted: true },
    })
    expect(standIn.templates(SHOP.waba).some((t) => t.name === "promo")).toBe(false)
    expect((await listTemplates()).some((t) => t.name === "promo")).toBe(false)
  })
})

describe("sends: the Graph body reaches the stand-in, the message is accepted and charged", () => {
  it("a utility send", async () => {
    const before = await balance(s, shop.account.id)
    const res = await send(shop.key, {
      to: "0512345678",
      template: "order_update",
      params: { order_id: "A-1" },
      reference: "order-1",
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      status: "accepted",
      application_id: shop.app.id,
      to: "+966512345678",
      template: "order_update",
      lang: "ar",
      reference: "order-1",
      price_halalas: 5,
      error: null,
    })
    const sent = standIn.messages[standIn.messages.length - 1]
    expect(sent.body).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "966512345678",
      type: "template",
      template: {
        name: "order_update",
        language: { code: "ar" },
        components: [{ type: "body", parameters: [{ type: "text", parameter_name: "order_id", text: "A-1" }] }],
      },
      biz_opaque_callback_data: res.body.id,
    })
    expect(sendsTo("966512345678").at(-1)?.authorization).toBe("Bearer platform-access-token")
    expect(await balance(s, shop.account.id)).toBe(before - 5)
    const read = await s.call("GET", `/v1/chatmsg/messages/${res.body.id}`, { key: shop.key })
    expect({ status: read.status, body: read.body }).toEqual({ status: 200, body: res.body })
    expect(Option.map(await messageRow(res.body.id), (m) => m.providerMessageId)).toEqual(Option.some(sent.id))
  })

  it("a positional marketing send, priced as marketing", async () => {
    const before = await balance(s, shop.account.id)
    const res = await send(shop.key, { to: "+966512345600", template: "offer", lang: "ar", params: { "1": "Sara" } })
    expect(res.status).toBe(200)
    expect(res.body.price_halalas).toBe(20)
    expect(standIn.messages.at(-1)?.body.template).toEqual({
      name: "offer",
      language: { code: "ar" },
      components: [{ type: "body", parameters: [{ type: "text", text: "Sara" }] }],
    })
    expect(await balance(s, shop.account.id)).toBe(before - 20)
  })
})

describe("a refusal by the stand-in: 502 send_failed with the Graph code, refunded, no message kept", () => {
  it("a Graph error envelope", async () => {
    standIn.script("966512345670", { kind: "refuse", error: GraphErrors.reEngagement })
    const before = await balance(s, shop.account.id)
    const res = await send(shop.key, { to: "+966512345670", template: "order_update", params: { order_id: "A-2" } })
    expect({ status: res.status, error: res.body.error, provider_code: res.body.provider_code }).toEqual({
      status: 502,
      error: "send_failed",
      provider_code: "131047",
    })
    expect(await balance(s, shop.account.id)).toBe(before)
    // The platform's id went to the stand-in as callback data: no message of that id is kept, no event fired.
    const attempted = sendsTo("966512345670")
    expect(attempted).toHaveLength(1)
    const id = (attempted[0].body as any).biz_opaque_callback_data as string
    expect((await s.call("GET", `/v1/chatmsg/messages/${id}`, { key: shop.key })).status).toBe(404)
    expect(await messageRow(id)).toEqual(Option.none())
    expect(await messageEvents(s, id)).toEqual([])
    standIn.script("966512345670", undefined)
  })

  it("an answer without an envelope, and a template the network does not hold", async () => {
    standIn.script("966512345671", { kind: "http", status: 503 })
    const before = await balance(s, shop.account.id)
    const bare = await send(shop.key, { to: "+966512345671", template: "order_update", params: { order_id: "A-3" } })
    expect({ status: bare.status, provider_code: bare.body.provider_code }).toEqual({
      status: 502,
      provider_code: "http_503",
    })
    standIn.script("966512345671", undefined)
    // Deleted on the network behind the platform's cached list: the stand-in's 132001.
    const held = standIn.templates(SHOP.waba).find((t) => t.name === "order_update")!
    standIn.templates(SHOP.waba).splice(standIn.templates(SHOP.waba).indexOf(held), 1)
    const missing = await send(shop.key, { to: "+966512345671", template: "order_update", params: { order_id: "A-3" } })
    standIn.putTemplate(SHOP.waba, held)
    expect({ status: missing.status, provider_code: missing.body.provider_code }).toEqual({
      status: 502,
      provider_code: "132001",
    })
    expect(await balance(s, shop.account.id)).toBe(before)
  })
})

describe("the stand-in's status webhook moves the message and writes its events", () => {
  const sendOne = async (to: string) => {
    const res = await send(shop.key, { to, template: "order_update", params: { order_id: "B-1" } })
    expect(res.status).toBe(200)
    return { id: res.body.id as string, wamid: standIn.messages.at(-1)!.id }
  }
  const statusRead = async (id: string) => (await s.call("GET", `/v1/chatmsg/messages/${id}`, { key: shop.key })).body

  it("sent, delivered, read: each moves it and writes its event with `to` masked; a late report changes nothing", async () => {
    const { id, wamid } = await sendOne("+966512345678")
    for (const status of ["sent", "delivered", "read"]) {
      const res = await webhook(statusDelivery(wamid, status, "966512345678", { biz_opaque_callback_data: id }))
      expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: "" })
      expect((await statusRead(id)).status).toBe(status)
    }
    expect((await webhook(statusDelivery(wamid, "delivered", "966512345678"))).status).toBe(200)
    const read = await statusRead(id)
    expect(read).toMatchObject({ status: "read", to: "+966512345678" })
    const events = await messageEvents(s, id)
    expect(events.map((e) => [e.event, e.data.status, e.data.to])).toEqual([
      ["message.sent", "sent", "+96651*****78"],
      ["message.delivered", "delivered", "+96651*****78"],
      ["message.read", "read", "+96651*****78"],
    ])
    expect(events.every((e) => e.applicationId === shop.app.id)).toBe(true)
  })

  it("a report may skip steps: only the state reached fires", async () => {
    const { id, wamid } = await sendOne("+966512345601")
    expect((await webhook(statusDelivery(wamid, "read", "966512345601"))).status).toBe(200)
    expect((await messageEvents(s, id)).map((e) => e.event)).toEqual(["message.read"])
  })

  it("failed, with its error; the price stays charged", async () => {
    const { id, wamid } = await sendOne("+966512345602")
    const before = await balance(s, shop.account.id)
    const res = await webhook(statusDelivery(wamid, "failed", "966512345602", {
      errors: [{
        code: 131026,
        title: "Message undeliverable",
        message: "Message undeliverable",
        error_data: { details: "Message Undeliverable." },
      }],
    }))
    expect(res.status).toBe(200)
    const read = await statusRead(id)
    expect(read).toMatchObject({ status: "failed", error: { code: "131026", message: "Message undeliverable" } })
    const events = await messageEvents(s, id)
    expect(events.map((e) => [e.event, e.data.error, e.data.to])).toEqual([
      ["message.failed", { code: "131026", message: "Message undeliverable" }, "+96651*****02"],
    ])
    expect(await balance(s, shop.account.id)).toBe(before)
  })

  it("a bad signature answers 401 and changes nothing", async () => {
    const { id, wamid } = await sendOne("+966512345603")
    const forged = standIn.delivery([{ ...metadata(SHOP.phone), statuses: [{ id: wamid, status: "read" }] }], "wrong")
    expect((await webhook(forged)).status).toBe(401)
    const good = statusDelivery(wamid, "delivered", "966512345603")
    const tampered = { body: good.body.replace('"delivered"', '"read"'), headers: good.headers }
    expect((await webhook(tampered)).status).toBe(401)
    expect((await webhook({ body: good.body, headers: { "content-type": "application/json" } })).status).toBe(401)
    expect((await statusRead(id)).status).toBe("accepted")
    expect(await messageEvents(s, id)).toEqual([])
  })

  it("a report of a message the platform does not hold is dropped", async () => {
    expect((await webhook(statusDelivery("wamid.unknown", "delivered", "966512345678"))).status).toBe(200)
  })
})

describe("the webhook's subscription challenge", () => {
  const challenge = (query: string) => s.call("GET", `/v1/chatmsg/network/webhook?${query}`)

  it("answers the challenge text to the verify token, 403 otherwise", async () => {
    const ok = await challenge(`hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`)
    expect({ status: ok.status, body: ok.body, type: ok.headers.get("content-type") }).toEqual({
      status: 200,
      body: 1158201444, // the test client parses JSON-looking text
      type: "text/plain; charset=utf-8",
    })
    const text = await fetch(
      `${s.baseUrl}/v1/chatmsg/network/webhook?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=abc-123`,
    )
    expect([text.status, await text.text()]).toEqual([200, "abc-123"])
    expect((await challenge("hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1")).status).toBe(403)
    expect((await challenge(`hub.mode=unsubscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`)).status).toBe(403)
    expect((await challenge("hub.challenge=1")).status).toBe(403)
  })
})

describe("consent through the webhook: STOP and error 131050 record an opt-out", () => {
  const marketing = (to: string) => send(shop.key, { to, template: "offer", lang: "ar", params: { "1": "Sara" } })

  it("an inbound STOP: a marketing send answers 422 consent_opted_out, utility still goes; START lifts it", async () => {
    expect((await marketing("+966512345610")).status).toBe(200)
    expect((await webhook(inboundText("966512345610", "  Stop "))).status).toBe(200)
    const before = await balance(s, shop.account.id)
    const sentBefore = sendsTo("966512345610").length
    const refused = await marketing("+966512345610")
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 422, error: "consent_opted_out" })
    expect(sendsTo("966512345610").length).toBe(sentBefore)
    expect(await balance(s, shop.account.id)).toBe(before)
    const utility = await send(shop.key, { to: "+966512345610", template: "order_update", params: { order_id: "C" } })
    expect(utility.status).toBe(200)
    expect((await webhook(inboundText("966512345610", "ابدأ"))).status).toBe(200)
    expect((await marketing("+966512345610")).status).toBe(200)
  })

  it("an inbound STOP to a number of another application records nothing for this one", async () => {
    expect((await webhook(inboundText("966512345611", "stop", LATER.phone))).status).toBe(200)
    expect((await marketing("+966512345611")).status).toBe(200)
  })

  it("a failed status with error 131050 fails the message and records the opt-out", async () => {
    const first = await marketing("+966512345612")
    expect(first.status).toBe(200)
    const wamid = standIn.messages.at(-1)!.id
    const res = await webhook(statusDelivery(wamid, "failed", "966512345612", {
      errors: [{ code: 131050, title: "User has stopped marketing messages" }],
    }))
    expect(res.status).toBe(200)
    const read = await s.call("GET", `/v1/chatmsg/messages/${first.body.id}`, { key: shop.key })
    expect(read.body).toMatchObject({ status: "failed", error: { code: "131050" } })
    const refused = await marketing("+966512345612")
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 422, error: "consent_opted_out" })
  })
})

describe("the number: 409 number_disconnected, 409 no_whatsapp_number", () => {
  const order = { to: "+966512345678", template: "order_update", params: { order_id: "D-1" } }

  it("a number the stand-in reports not CONNECTED answers 409 number_disconnected, on sends and template calls", async () => {
    const before = standIn.requests.length
    const res = await send(down.key, order)
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 409, error: "number_disconnected" })
    const list = await s.call("GET", "/v1/chatmsg/templates", { key: down.key })
    expect({ status: list.status, error: list.body.error }).toEqual({ status: 409, error: "number_disconnected" })
    // Nothing but the number's read reached the stand-in.
    expect(standIn.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual(
      standIn.requests.slice(before).map(() => `GET /v21.0/${DOWN.phone}`),
    )
  })

  it("an application absent from WHATSAPP_NUMBERS answers 409 no_whatsapp_number; nothing is asked", async () => {
    const before = standIn.requests.length
    const res = await send(absent.key, order)
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 409, error: "no_whatsapp_number" })
    const list = await s.call("GET", "/v1/chatmsg/templates", { key: absent.key })
    expect({ status: list.status, error: list.body.error }).toEqual({ status: 409, error: "no_whatsapp_number" })
    expect(standIn.requests.length).toBe(before)
  })

  it("a number read the stand-in refuses answers 503 templates_unavailable; nothing is sent or charged", async () => {
    await advance(60_000) // past the number's cached copy
    standIn.script(SHOP.phone, { kind: "http", status: 500 })
    const before = await balance(s, shop.account.id)
    const sent = standIn.messages.length
    const res = await send(shop.key, order)
    standIn.script(SHOP.phone, undefined)
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 503, error: "templates_unavailable" })
    expect(standIn.messages.length).toBe(sent)
    expect(await balance(s, shop.account.id)).toBe(before)
    expect((await send(shop.key, order)).status).toBe(200)
  })

  it("the number is read at most once a minute: a disconnection is seen within 60 seconds", async () => {
    const reads = () => standIn.requests.filter((r) => r.method === "GET" && r.path === `/v21.0/${LATER.phone}`).length
    expect((await s.call("GET", "/v1/chatmsg/templates", { key: later.key })).status).toBe(200)
    const after = reads()
    standIn.phones.set(LATER.phone, { display: "966112345670", status: "DISCONNECTED", wabaId: LATER.waba })
    expect((await s.call("GET", "/v1/chatmsg/templates", { key: later.key })).status).toBe(200)
    await advance(59_999)
    expect((await s.call("GET", "/v1/chatmsg/templates", { key: later.key })).status).toBe(200)
    expect(reads()).toBe(after)
    await advance(1)
    const res = await s.call("GET", "/v1/chatmsg/templates", { key: later.key })
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 409, error: "number_disconnected" })
    expect(reads()).toBe(after + 1)
  })
})
