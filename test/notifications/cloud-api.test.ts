import { FetchHttpClient } from "@effect/platform"
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Either, Layer, Logger, LogLevel, Option, TestClock } from "effect"
import {
  ChatNetworkCloudApi,
  type CloudApiConfig,
  layer,
  make,
  NUMBER_CACHE_TTL,
  TEMPLATES_CACHE_TTL,
} from "../../adapters/chat/cloud-api.ts"
import type { NetworkTemplate, TemplateWrite } from "../../core/notifications/model.ts"
import { ApplicationId, SaudiMobile } from "../../core/shared/brands.ts"
import {
  ChatNetwork,
  type ChatSendRefused,
  type NetworkWebhookRequest,
  type TemplateSend,
} from "../../ports/chat-network.ts"
import {
  closedPort,
  type CloudApiStandIn,
  GraphErrors,
  metadata,
  startCloudApiStandIn,
  type TemplateRow,
} from "./cloud-api-standin.ts"

// The adapter talks to a real local HTTP server. Sends, refusals and timeouts run live (real time); the cache runs
// under `it.effect`'s TestClock, which only the cache reads (no call there waits on the clock).

const APP = ApplicationId.make("0d8f6a52-6b1c-4f43-9a43-5d3c1b8d2a01")
const LISTED = ApplicationId.make("0d8f6a52-6b1c-4f43-9a43-5d3c1b8d2a02")
const DOWN = ApplicationId.make("0d8f6a52-6b1c-4f43-9a43-5d3c1b8d2a03")
const NO_NUMBER = ApplicationId.make("0d8f6a52-6b1c-4f43-9a43-5d3c1b8d2a09")
const TO = SaudiMobile("+966501234567")

let standIn: CloudApiStandIn

const configFor = (overrides: Partial<CloudApiConfig> = {}): CloudApiConfig => ({
  accessToken: standIn.accessToken,
  appSecret: standIn.appSecret,
  verifyToken: "verify-me",
  graphUrl: standIn.graphUrl,
  numbers: {
    [APP]: { phoneNumberId: "1001", wabaId: "2001" },
    [LISTED]: { phoneNumberId: "1002", wabaId: "2002" },
    [DOWN]: { phoneNumberId: "1003", wabaId: "2003" },
  },
  ...overrides,
})

const network = (overrides: Partial<CloudApiConfig> = {}) =>
  make(configFor(overrides)).pipe(Effect.provide(FetchHttpClient.layer))

const row = (over: Partial<TemplateRow> & Pick<TemplateRow, "name">): Omit<TemplateRow, "id"> => ({
  language: "ar",
  status: "APPROVED",
  category: "UTILITY",
  components: [{ type: "BODY", text: "مرحبا" }],
  ...over,
})

const template = (over: Partial<NetworkTemplate> & Pick<NetworkTemplate, "name" | "body">): NetworkTemplate => ({
  lang: "ar",
  category: "utility",
  status: "approved",
  reason: null,
  header: null,
  footer: null,
  buttons: [],
  ...over,
})

const sendOf = (
  t: NetworkTemplate,
  params: Record<string, string>,
  over: Partial<TemplateSend> = {},
): TemplateSend => ({
  application: APP,
  messageId: "msg_01",
  to: TO,
  template: t,
  params,
  headerImageLink: null,
  text: "filled body",
  ...over,
})

const fieldsOf = (e: ChatSendRefused) => ({ providerCode: e.providerCode, message: e.message })
const lastRequest = () => standIn.requests[standIn.requests.length - 1]
const lastPost = () => [...standIn.requests].reverse().find((r) => r.method === "POST")

beforeAll(async () => {
  standIn = await startCloudApiStandIn({ accessToken: "test-access-token", appSecret: "test-app-secret" })
  standIn.phones.set("1001", { display: "+966 11 234 5678", status: "CONNECTED", wabaId: "2001" })
  standIn.phones.set("1002", { display: "966112345679", status: "DISCONNECTED", wabaId: "2002" })
  standIn.phones.set("1003", { display: "966112345670", status: "CONNECTED", wabaId: "2003" })
  for (
    const name of ["order_named", "order_positional", "header_text", "image_header", "track_url", "promo"]
  ) standIn.putTemplate("2001", row({ name }))
  standIn.putTemplate("2001", row({ name: "otp_login", category: "AUTHENTICATION" }))
})
afterAll(async () => {
  await standIn.close()
})

describe("number: GET /{phone-number-id}, display_phone_number as E.164, connected when status is CONNECTED", () => {
  it.live("a connected number", () =>
    Effect.gen(function* () {
      const chat = yield* network()
      const answer = yield* chat.number(APP)
      expect(answer).toEqual(Option.some({ number: "+966112345678", connected: true }))
      expect(lastRequest()).toMatchObject({
        method: "GET",
        path: "/v21.0/1001",
        query: { fields: "display_phone_number,status" },
        authorization: "Bearer test-access-token",
      })
    }))

  it.live("a number whose status is not CONNECTED is disconnected", () =>
    Effect.gen(function* () {
      const chat = yield* network()
      expect(yield* chat.number(LISTED)).toEqual(Option.some({ number: "+966112345679", connected: false }))
    }))

  it.live("an application absent from WHATSAPP_NUMBERS has none, and nothing is asked", () =>
    Effect.gen(function* () {
      const chat = yield* network()
      const before = standIn.requests.length
      expect(yield* chat.number(NO_NUMBER)).toEqual(Option.none())
      expect(standIn.requests.length).toBe(before)
    }))

  it.live("an error envelope, a 500, a wrong token or no answer is ChatNetworkUnavailable", () =>
    Effect.gen(function* () {
      const chat = yield* network({ timeout: "200 millis" })
      standIn.script("1003", { kind: "refuse", error: GraphErrors.undeliverable })
      const refused = yield* Effect.flip(chat.number(DOWN))
      expect(refused._tag).toBe("ChatNetworkUnavailable")
      expect(refused.message).toContain("131026")
      standIn.script("1003", { kind: "http", status: 500 })
      expect((yield* Effect.flip(chat.number(DOWN))).message).toBe(
        "WhatsApp Cloud API answered HTTP 500 to the number read",
      )
      standIn.script("1003", { kind: "hang" })
      expect((yield* Effect.flip(chat.number(DOWN))).message).toBe(
        "WhatsApp Cloud API gave no answer within 200ms",
      )
      standIn.script("1003", undefined)
      const badToken = yield* network({ accessToken: "wrong" })
      const invalid = yield* Effect.flip(badToken.number(APP))
      expect(invalid.message).toContain("(190)")
      expect(invalid.message).not.toContain("wrong")
    }))
})

describe("the number is cached per application for at most 60 seconds (TestClock)", () => {
  const reads = (phoneNumberId: string) =>
    standIn.requests.filter((r) => r.method === "GET" && r.path === `/v21.0/${phoneNumberId}`).length

  it.effect("a change of the number's status is not seen before 60 seconds, and is seen at 60 seconds", () =>
    Effect.gen(function* () {
      const chat = yield* network()
      standIn.phones.set("1004", { display: "966112345671", status: "CONNECTED", wabaId: "2004" })
      const numbers = { [APP]: { phoneNumberId: "1004", wabaId: "2004" } }
      const own = yield* network({ numbers })
      expect(yield* own.number(APP)).toEqual(Option.some({ number: "+966112345671", connected: true }))
      expect(reads("1004")).toBe(1)
      standIn.phones.set("1004", { display: "966112345671", status: "DISCONNECTED", wabaId: "2004" })
      yield* TestClock.adjust(Duration.subtract(NUMBER_CACHE_TTL, Duration.millis(1)))
      expect(yield* own.number(APP)).toEqual(Option.some({ number: "+966112345671", connected: true }))
      expect(reads("1004")).toBe(1)
      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* own.number(APP)).toEqual(Option.some({ number: "+966112345671", connected: false }))
      expect(reads("1004")).toBe(2)
      expect(Duration.toMillis(NUMBER_CACHE_TTL)).toBe(60_000)
      // Another adapter (another process) holds a copy of its own.
      expect(yield* chat.number(APP)).toEqual(Option.some({ number: "+966112345678", connected: true }))
    }))

  it.effect("per application: one application's read does not answer for another's", () =>
    Effect.gen(function* () {
      const chat = yield* network()
      const before = { app: reads("1001"), listed: reads("1002") }
      expect(yield* chat.number(APP)).toEqual(Option.some({ number: "+966112345678", connected: true }))
      expect(yield* chat.number(LISTED)).toEqual(Option.some({ number: "+966112345679", connected: false }))
      yield* chat.number(APP)
      yield* chat.number(LISTED)
      expect({ app: reads("1001"), listed: reads("1002") }).toEqual({ app: before.app + 1, listed: before.listed + 1 })
    }))

  it.effect("a failed read is not kept: the next call asks again", () =>
    Effect.gen(function* () {
      const chat = yield* network()
      standIn.script("1003", { kind: "http", status: 500 })
      yield* Effect.flip(chat.number(DOWN))
      standIn.script("1003", undefined)
      expect(yield* chat.number(DOWN)).toEqual(Option.some({ number: "+966112345670", connected: true }))
    }))

  it.effect("sends and template calls read no number: only number() does, once per 60 seconds", () =>
    Effect.gen(function* () {
      const chat = yield* network()
      const before = reads("1001")
      yield* chat.number(APP)
      yield* chat.templates(APP)
      yield* chat.number(APP)
      yield* TestClock.adjust(Duration.seconds(30))
      yield* chat.number(APP)
      expect(reads("1001")).toBe(before + 1)
      yield* TestClock.adjust(Duration.seconds(30))
      yield* chat.number(APP)
      expect(reads("1001")).toBe(before + 2)
    }))
})

describe("templates: every row across pages of /{waba-id}/message_templates, as NetworkTemplate", () => {
  const rows: ReadonlyArray<Omit<TemplateRow, "id">> = [
    row({
      name: "order_update",
      language: "en_US",
      parameter_format: "NAMED",
      components: [
        { type: "HEADER", format: "TEXT", text: "Order {{order_id}}" },
        { type: "BODY", text: "Hi {{name}}, your order ships today." },
        { type: "FOOTER", text: "Reply STOP to opt out" },
        {
          type: "BUTTONS",
          buttons: [
            { type: "URL", text: "Track", url: "https://x.sa/track/{{1}}" },
            { type: "PHONE_NUMBER", text: "Call us", phone_number: "+966112345678" },
            { type: "QUICK_REPLY", text: "Stop promotions" },
          ],
        },
      ],
    }),
    row({ name: "pending_one", status: "PENDING" }),
    row({ name: "rejected_one", status: "REJECTED", rejected_reason: "INVALID_FORMAT" }),
    row({ name: "paused_one", status: "PAUSED", category: "MARKETING" }),
    row({ name: "disabled_one", status: "DISABLED", rejected_reason: "NONE" }),
    row({
      name: "sale",
      category: "MARKETING",
      components: [
        { type: "HEADER", format: "IMAGE" },
        { type: "BODY", text: "Sale {{1}}" },
        {
          type: "BUTTONS",
          buttons: [{ type: "COPY_CODE", text: "Copy offer code" }, { type: "FLOW", text: "Book" }, {
            type: "CATALOG",
            text: "View catalog",
          }],
        },
      ],
    }),
    row({
      name: "otp",
      category: "AUTHENTICATION",
      components: [
        { type: "BODY", text: "*{{1}}* is your verification code." },
        {
          type: "BUTTONS",
          buttons: [{
            type: "URL",
            text: "Copy code",
            url: "https://www.whatsapp.com/otp/code/?otp_type=COPY_CODE&code_expiration_minutes=10&code=otp{{1}}",
          }],
        },
      ],
    }),
    row({ name: "gone", status: "DELETED" }),
  ]

  beforeAll(() => {
    for (const r of rows) standIn.putTemplate("2002", r)
  })

  it.live("all pages are read (page size 2: four calls, each after the last cursor)", () =>
    Effect.gen(function* () {
      const chat = yield* network()
      const before = standIn.requests.length
      const list = yield* chat.templates(LISTED)
      const calls = standIn.requests.slice(before)
      expect(calls.map((c) => c.path)).toEqual(Array(4).fill("/v21.0/2002/message_templates"))
      expect(calls[0].query["after"]).toBeUndefined()
      expect(calls.slice(1).every((c) => typeof c.query["after"] === "string")).toBe(true)
      expect(list.map((t) => t.name)).toEqual([
        "order_update",
        "pending_one",
        "rejected_one",
        "paused_one",
        "disabled_one",
        "sale",
        "otp",
      ])
    }))

  it.live("header, body, footer and buttons come from the components; button types lower-cased", () =>
    Effect.gen(function* () {
      const list = yield* Effect.flatMap(network(), (chat) => chat.templates(LISTED))
      expect(list[0]).toEqual({
        name: "order_update",
        lang: "en_US",
        category: "utility",
        status: "approved",
        reason: null,
        header: { type: "text", text: "Order {{order_id}}" },
        body: "Hi {{name}}, your order ships today.",
        footer: "Reply STOP to opt out",
        buttons: [
          { type: "url", text: "Track", url: "https://x.sa/track/{{1}}" },
          { type: "phone_number", text: "Call us", phone: "+966112345678" },
          { type: "quick_reply", text: "Stop promotions" },
        ],
      })
      const sale = list.find((t) => t.name === "sale")
      expect(sale?.header).toEqual({ type: "image" })
      expect(sale?.category).toBe("marketing")
      expect(sale?.buttons.map((b) => b.type)).toEqual(["copy_code", "flow", "catalog"])
      const otp = list.find((t) => t.name === "otp")
      expect(otp?.category).toBe("authentication")
      expect(otp?.buttons.map((b) => b.type)).toEqual(["otp"])
    }))

  it.live("each status lower-cased; reason only for rejected, paused and disabled", () =>
    Effect.gen(function* () {
      const list = yield* Effect.flatMap(network(), (chat) => chat.templates(LISTED))
      const of = (name: string) => list.find((t) => t.name === name)
      expect([of("order_update"), of("pending_one")].map((t) => [t?.status, t?.reason])).toEqual([
        ["approved", null],
        ["pending", null],
      ])
      expect(of("rejected_one")).toMatchObject({ status: "rejected", reason: "INVALID_FORMAT" })
      expect(of("paused_one")).toMatchObject({ status: "paused", reason: "Paused by WhatsApp for low quality" })
      expect(of("disabled_one")).toMatchObject({ status: "disabled", reason: "Disabled by WhatsApp" })
    }))

  it.live("an application without a number has no templates", () =>
    Effect.gen(function* () {
      expect(yield* Effect.flatMap(network(), (chat) => chat.templates(NO_NUMBER))).toEqual([])
    }))

  it.live("an error envelope, a 500 or no answer is ChatNetworkUnavailable", () =>
    Effect.gen(function* () {
      const chat = yield* network({ timeout: "200 millis" })
      standIn.script("2003", { kind: "refuse", error: GraphErrors.invalidToken, status: 401 })
      expect((yield* Effect.flip(chat.templates(DOWN)))._tag).toBe("ChatNetworkUnavailable")
      standIn.script("2003", { kind: "http", status: 500 })
      expect((yield* Effect.flip(chat.templates(DOWN))).message).toBe(
        "WhatsApp Cloud API answered HTTP 500 to the template list",
      )
      standIn.script("2003", { kind: "hang" })
      expect((yield* Effect.flip(chat.templates(DOWN))).message).toMatch(/no answer within 200ms/)
      standIn.script("2003", undefined)
    }))
})

describe("the template list is cached per application for at most 5 minutes (TestClock)", () => {
  const names = (list: ReadonlyArray<NetworkTemplate>) => list.map((t) => t.name).sort()

  it.effect("a change on the network is not seen before 5 minutes, and is seen at 5 minutes", () =>
    Effect.gen(function* () {
      const chat = yield* network()
      const first = yield* chat.templates(APP)
      standIn.putTemplate("2001", row({ name: "late_arrival" }))
      const before = standIn.requests.length
      expect(names(yield* chat.templates(APP))).toEqual(names(first))
      yield* TestClock.adjust(Duration.subtract(Duration.minutes(5), Duration.millis(1)))
      expect(names(yield* chat.templates(APP))).toEqual(names(first))
      expect(standIn.requests.length).toBe(before)
      yield* TestClock.adjust(Duration.millis(1))
      expect(names(yield* chat.templates(APP))).toContain("late_arrival")
      expect(Duration.toMillis(TEMPLATES_CACHE_TTL)).toBe(5 * 60_000)
    }))

  it.effect("`fresh` (a store's templates refresh) reads the network within the 5 minutes, and caches what it read", () =>
    Effect.gen(function* () {
      const chat = yield* network()
      yield* chat.templates(APP)
      standIn.putTemplate("2001", row({ name: "approved_meanwhile" }))
      expect(names(yield* chat.templates(APP))).not.toContain("approved_meanwhile")
      expect(names(yield* chat.templates(APP, { fresh: true }))).toContain("approved_meanwhile")
      const before = standIn.requests.length
      expect(names(yield* chat.templates(APP))).toContain("approved_meanwhile")
      expect(standIn.requests.length).toBe(before)
    }))

  it.effect("a write through the adapter clears that application's copy at once", () =>
    Effect.gen(function* () {
      const chat = yield* network()
      yield* chat.templates(APP)
      yield* chat.writeTemplate(APP, {
        name: "cache_buster",
        lang: "ar",
        category: "utility",
        body: "نص",
        header: null,
        footer: null,
        buttons: [],
      }, "create")
      expect((yield* chat.templates(APP)).find((t) => t.name === "cache_buster")?.status).toBe("pending")
    }))

  it.effect("a delete through the adapter clears it too; other applications keep theirs", () =>
    Effect.gen(function* () {
      standIn.putTemplate("2001", row({ name: "to_delete" }))
      const chat = yield* network()
      expect((yield* chat.templates(APP)).some((t) => t.name === "to_delete")).toBe(true)
      const listed = yield* chat.templates(LISTED)
      standIn.putTemplate("2002", row({ name: "unseen_yet" }))
      yield* chat.deleteTemplate(APP, "to_delete")
      expect((yield* chat.templates(APP)).some((t) => t.name === "to_delete")).toBe(false)
      expect(names(yield* chat.templates(LISTED))).toEqual(names(listed))
    }))
})

describe("writeTemplate: POST /{waba-id}/message_templates to create, POST /{template-id} to edit", () => {
  const write: TemplateWrite = {
    name: "order_ready",
    lang: "en_US",
    category: "utility",
    header: { type: "text", text: "Order {{order_id}}" },
    body: "Hi {{name}}, order {{order_id}} is ready.",
    footer: "Thanks",
    buttons: [
      { type: "url", text: "Track", url: "https://x.sa/t/{{1}}" },
      { type: "phone_number", text: "Call", phone: "+966112345678" },
      { type: "quick_reply", text: "Stop promotions" },
    ],
  }

  it.live("a new name and language is created with upper-case category, NAMED format and examples", () =>
    Effect.gen(function* () {
      const chat = yield* network()
      yield* chat.writeTemplate(APP, write, "create")
      const create = lastPost()
      expect(create?.path).toBe("/v21.0/2001/message_templates")
      expect(create?.body).toEqual({
        name: "order_ready",
        language: "en_US",
        category: "UTILITY",
        parameter_format: "NAMED",
        components: [
          {
            type: "HEADER",
            format: "TEXT",
            text: "Order {{order_id}}",
            example: { header_text_named_params: [{ param_name: "order_id", example: "order_id" }] },
          },
          {
            type: "BODY",
            text: "Hi {{name}}, order {{order_id}} is ready.",
            example: {
              body_text_named_params: [
                { param_name: "name", example: "name" },
                { param_name: "order_id", example: "order_id" },
              ],
            },
          },
          { type: "FOOTER", text: "Thanks" },
          {
            type: "BUTTONS",
            buttons: [
              { type: "URL", text: "Track", url: "https://x.sa/t/{{1}}", example: ["https://x.sa/t/sample"] },
              { type: "PHONE_NUMBER", text: "Call", phone_number: "+966112345678" },
              { type: "QUICK_REPLY", text: "Stop promotions" },
            ],
          },
        ],
      })
      expect(standIn.templates("2001").find((t) => t.name === "order_ready")?.status).toBe("PENDING")
    }))

  it.live("an existing name and language is edited by id, and is pending again", () =>
    Effect.gen(function* () {
      const held = standIn.putTemplate("2001", row({ name: "to_edit", language: "ar", status: "REJECTED" }))
      const chat = yield* network()
      yield* chat.writeTemplate(APP, { ...write, name: "to_edit", lang: "ar", body: "نص {{1}}", header: null }, "edit")
      const edit = lastPost()
      expect(edit?.path).toBe(`/v21.0/${held.id}`)
      expect(Object.keys(edit?.body as object)).toEqual(["components"])
      expect(edit?.body).toMatchObject({
        components: [{ type: "BODY", text: "نص {{1}}", example: { body_text: [["sample_1"]] } }, {
          type: "FOOTER",
          text: "Thanks",
        }, { type: "BUTTONS" }],
      })
      expect(standIn.templates("2001").find((t) => t.id === held.id)?.status).toBe("PENDING")
    }))

  it.live("an authentication template: preset body, expiry from the footer, OTP copy-code button", () =>
    Effect.gen(function* () {
      const chat = yield* network()
      yield* chat.writeTemplate(APP, {
        name: "login_code",
        lang: "en",
        category: "authentication",
        header: null,
        body: "{{code}} is your code. For your security, do not share this code.",
        footer: "This code expires in 10 minutes.",
        buttons: [{ type: "otp", text: "Copy code" }],
      }, "create")
      expect(lastPost()?.body).toEqual({
        name: "login_code",
        language: "en",
        category: "AUTHENTICATION",
        components: [
          { type: "BODY", add_security_recommendation: true },
          { type: "FOOTER", code_expiration_minutes: 10 },
          { type: "BUTTONS", buttons: [{ type: "OTP", otp_type: "COPY_CODE", text: "Copy code" }] },
        ],
      })
    }))

  it.live("a create the cached list missed never overwrites: the network's own list refuses it, nothing posted", () =>
    Effect.gen(function* () {
      const chat = yield* network()
      yield* chat.templates(APP)
      const held = standIn.putTemplate("2001", row({ name: "cached_miss", language: "ar", status: "APPROVED" }))
      const posts = standIn.requests.filter((r) => r.method === "POST").length
      const refused = yield* Effect.flip(
        chat.writeTemplate(APP, { ...write, name: "cached_miss", lang: "ar" }, "create"),
      )
      expect(refused).toMatchObject({ _tag: "ChatTemplateConflict", mode: "create" })
      expect(standIn.requests.filter((r) => r.method === "POST").length).toBe(posts)
      expect(standIn.templates("2001").find((t) => t.id === held.id)?.status).toBe("APPROVED")
    }))

  it.live("an edit of a language the network no longer holds creates nothing: ChatTemplateConflict", () =>
    Effect.gen(function* () {
      const chat = yield* network()
      const refused = yield* Effect.flip(chat.writeTemplate(APP, { ...write, name: "gone_away", lang: "ar" }, "edit"))
      expect(refused).toMatchObject({ _tag: "ChatTemplateConflict", mode: "edit" })
      expect(standIn.templates("2001").some((t) => t.name === "gone_away")).toBe(false)
    }))

  it.live("an application without a number, or a refusal, is ChatNetworkUnavailable", () =>
    Effect.gen(function* () {
      const chat = yield* network()
      expect((yield* Effect.flip(chat.writeTemplate(NO_NUMBER, write, "create")))._tag).toBe("ChatNetworkUnavailable")
      standIn.script("2003", { kind: "refuse", error: GraphErrors.templateExists })
      const refused = yield* Effect.flip(chat.writeTemplate(DOWN, write, "create"))
      expect(refused.message).toBe("WhatsApp Cloud API refused the template list (100): Invalid parameter")
      standIn.script("2003", undefined)
    }))
})

describe("deleteTemplate: DELETE /{waba-id}/message_templates?name= (every language)", () => {
  it.live("both languages are gone", () =>
    Effect.gen(function* () {
      standIn.putTemplate("2001", row({ name: "two_langs", language: "ar" }))
      standIn.putTemplate("2001", row({ name: "two_langs", language: "en" }))
      const chat = yield* network()
      yield* chat.deleteTemplate(APP, "two_langs")
      expect(lastRequest()).toMatchObject({
        method: "DELETE",
        path: "/v21.0/2001/message_templates",
        query: { name: "two_langs" },
      })
      expect(standIn.templates("2001").some((t) => t.name === "two_langs")).toBe(false)
    }))

  it.live("a refusal is ChatNetworkUnavailable", () =>
    Effect.gen(function* () {
      const chat = yield* network()
      const refused = yield* Effect.flip(chat.deleteTemplate(APP, "never_there"))
      expect(refused).toMatchObject({ _tag: "ChatNetworkUnavailable" })
      expect(refused.message).toContain("Message template not found")
    }))
})

describe("send: POST /{phone-number-id}/messages, type template, components from the params by key", () => {
  const sent = (providerMessageId: string) => standIn.messages.find((m) => m.id === providerMessageId)?.body

  const sendAndRead = (message: TemplateSend) =>
    Effect.gen(function* () {
      const chat = yield* network()
      const receipt = yield* chat.send(message)
      expect(receipt.providerMessageId).toMatch(/^wamid\./)
      return sent(receipt.providerMessageId)
    })

  it.live("named: body parameters carry parameter_name; to without +; the messageId as callback data", () =>
    Effect.gen(function* () {
      const body = yield* sendAndRead(sendOf(
        template({ name: "order_named", body: "Hi {{name}}, order {{order_id}} ({{name}})" }),
        { order_id: "A-17", name: "Sara" },
      ))
      expect(body).toEqual({
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to: "966501234567",
        type: "template",
        template: {
          name: "order_named",
          language: { code: "ar" },
          components: [{
            type: "body",
            parameters: [
              { type: "text", parameter_name: "name", text: "Sara" },
              { type: "text", parameter_name: "order_id", text: "A-17" },
            ],
          }],
        },
        biz_opaque_callback_data: "msg_01",
      })
    }))

  it.live('positional: "1", "2"… in number order, without parameter_name', () =>
    Effect.gen(function* () {
      const body = yield* sendAndRead(sendOf(
        template({ name: "order_positional", body: "{{2}} then {{1}} then {{10}}" }),
        { "10": "ten", "1": "one", "2": "two" },
      ))
      expect(body?.["template"]).toEqual({
        name: "order_positional",
        language: { code: "ar" },
        components: [{
          type: "body",
          parameters: [{ type: "text", text: "one" }, { type: "text", text: "two" }, { type: "text", text: "ten" }],
        }],
      })
    }))

  it.live('"header": a text header parameter (named by its placeholder in a named template)', () =>
    Effect.gen(function* () {
      const body = yield* sendAndRead(sendOf(
        template({ name: "header_text", header: { type: "text", text: "Order {{order_id}}" }, body: "Hi {{name}}" }),
        { header: "A-17", name: "Sara" },
      ))
      expect((body?.["template"] as Record<string, unknown>)["components"]).toEqual([
        { type: "header", parameters: [{ type: "text", parameter_name: "order_id", text: "A-17" }] },
        { type: "body", parameters: [{ type: "text", parameter_name: "name", text: "Sara" }] },
      ])
      const positional = yield* sendAndRead(sendOf(
        template({ name: "header_text", header: { type: "text", text: "Order {{1}}" }, body: "Hi" }),
        { header: "A-18" },
      ))
      expect((positional?.["template"] as Record<string, unknown>)["components"]).toEqual([
        { type: "header", parameters: [{ type: "text", text: "A-18" }] },
      ])
    }))

  it.live("an image header: { type: image, image: { link } }", () =>
    Effect.gen(function* () {
      const body = yield* sendAndRead(sendOf(
        template({ name: "image_header", header: { type: "image" }, body: "Sale {{1}}" }),
        { "1": "today" },
        { headerImageLink: "https://cdn.x.sa/sale.jpg" },
      ))
      expect((body?.["template"] as Record<string, unknown>)["components"]).toEqual([
        { type: "header", parameters: [{ type: "image", image: { link: "https://cdn.x.sa/sale.jpg" } }] },
        { type: "body", parameters: [{ type: "text", text: "today" }] },
      ])
    }))

  it.live('"button_<i>": a button component, sub_type url, index i', () =>
    Effect.gen(function* () {
      const body = yield* sendAndRead(sendOf(
        template({
          name: "track_url",
          body: "Your parcel",
          buttons: [
            { type: "quick_reply", text: "Stop promotions" },
            { type: "url", text: "Track", url: "https://x.sa/track/{{1}}" },
          ],
        }),
        { button_1: "TRK-9" },
      ))
      expect((body?.["template"] as Record<string, unknown>)["components"]).toEqual([
        { type: "button", sub_type: "url", index: "1", parameters: [{ type: "text", text: "TRK-9" }] },
      ])
    }))

  it.live('authentication: "code" as the body parameter and the url button parameter of the OTP button', () =>
    Effect.gen(function* () {
      const body = yield* sendAndRead(sendOf(
        template({
          name: "otp_login",
          category: "authentication",
          body: "*{{1}}* is your verification code.",
          buttons: [{ type: "otp", text: "Copy code" }],
        }),
        { code: "482913" },
      ))
      expect((body?.["template"] as Record<string, unknown>)["components"]).toEqual([
        { type: "body", parameters: [{ type: "text", text: "482913" }] },
        { type: "button", sub_type: "url", index: "0", parameters: [{ type: "text", text: "482913" }] },
      ])
    }))

  it.live("a template without parameters sends no components", () =>
    Effect.gen(function* () {
      const body = yield* sendAndRead(sendOf(template({ name: "promo", body: "Hello" }), {}))
      expect(body?.["template"]).toEqual({ name: "promo", language: { code: "ar" } })
    }))
})

describe("send refusals: Graph envelope → its code, non-2xx without one → http_<status>, no answer → unreachable", () => {
  const refusal = (message: TemplateSend, overrides: Partial<CloudApiConfig> = {}) =>
    Effect.flatMap(network(overrides), (chat) => Effect.flip(chat.send(message)))
  const promo = template({ name: "promo", body: "Hello" })

  const envelopes = [
    ["131026 message undeliverable", "966500000026", GraphErrors.undeliverable],
    ["131050 user stopped marketing messages", "966500000050", GraphErrors.userStoppedMarketing],
    ["131047 re-engagement", "966500000047", GraphErrors.reEngagement],
  ] as const
  for (const [name, to, error] of envelopes) {
    it.live(`${name}: providerCode "${error.code}" and the Graph message`, () =>
      Effect.gen(function* () {
        standIn.script(to, { kind: "refuse", error })
        const refused = yield* refusal(sendOf(promo, {}, { to: SaudiMobile(`+${to}`) }))
        expect(fieldsOf(refused)).toEqual({ providerCode: String(error.code), message: error.message })
        expect(refused._tag).toBe("ChatSendRefused")
      }))
  }

  it.live("132001: a template the number's account does not hold in that language", () =>
    Effect.gen(function* () {
      const refused = yield* refusal(sendOf(template({ name: "promo", lang: "fr", body: "Hello" }), {}))
      expect(refused).toMatchObject({ providerCode: "132001", message: GraphErrors.templateMissing.message })
    }))

  it.live("190: an invalid access token, which the refusal does not repeat", () =>
    Effect.gen(function* () {
      const refused = yield* refusal(sendOf(promo, {}), { accessToken: "expired-token" })
      expect(refused.providerCode).toBe("190")
      expect(JSON.stringify(refused)).not.toContain("expired-token")
    }))

  it.live("HTTP 500 without an envelope → http_500", () =>
    Effect.gen(function* () {
      standIn.script("966500000500", { kind: "http", status: 500 })
      const refused = yield* refusal(sendOf(promo, {}, { to: SaudiMobile("+966500000500") }))
      expect(fieldsOf(refused)).toEqual({ providerCode: "http_500", message: "WhatsApp Cloud API answered HTTP 500" })
    }))

  it.live("no answer within the timeout → unreachable, given up at the timeout", () =>
    Effect.gen(function* () {
      standIn.script("966500000999", { kind: "hang" })
      const started = Date.now()
      const refused = yield* refusal(sendOf(promo, {}, { to: SaudiMobile("+966500000999") }), {
        timeout: "200 millis",
      })
      expect(fieldsOf(refused)).toEqual({
        providerCode: "unreachable",
        message: "WhatsApp Cloud API gave no answer within 200ms",
      })
      expect(Date.now() - started).toBeLessThan(3000)
    }))

  it.live("nobody listening → unreachable", () =>
    Effect.gen(function* () {
      const port = yield* Effect.promise(() => closedPort())
      const refused = yield* refusal(sendOf(promo, {}), { graphUrl: `http://127.0.0.1:${port}/v21.0` })
      expect(refused.providerCode).toBe("unreachable")
      expect(refused.message).toMatch(/^WhatsApp Cloud API unreachable/)
    }))
})

describe("webhook: the subscription challenge answers hub.challenge only to the verify token", () => {
  const get = (query: Record<string, string>): NetworkWebhookRequest => ({
    method: "GET",
    query,
    headers: {},
    body: "",
  })

  it.live("hub.mode=subscribe with the right token → 200 and the challenge as body", () =>
    Effect.gen(function* () {
      const chat = yield* network()
      const answer = yield* Option.getOrThrow(chat.webhook)(
        get({ "hub.mode": "subscribe", "hub.verify_token": "verify-me", "hub.challenge": "1158201444" }),
      )
      expect(answer).toEqual({ status: 200, body: "1158201444", callbacks: { reports: [], inbound: [] } })
    }))

  it.live("a wrong or missing token, or another mode → 403", () =>
    Effect.gen(function* () {
      const hook = Option.getOrThrow((yield* network()).webhook)
      for (
        const query of [
          { "hub.mode": "subscribe", "hub.verify_token": "verify-you", "hub.challenge": "1" },
          { "hub.mode": "subscribe", "hub.challenge": "1" },
          { "hub.mode": "unsubscribe", "hub.verify_token": "verify-me", "hub.challenge": "1" },
        ] as ReadonlyArray<Record<string, string>>
      ) expect((yield* hook(get(query))).status).toBe(403)
    }))
})

describe("webhook: deliveries are verified by X-Hub-Signature-256 over the raw body, then parsed", () => {
  const post = (delivery: { body: string; headers: Record<string, string> }): NetworkWebhookRequest => ({
    method: "POST",
    query: {},
    headers: delivery.headers,
    body: delivery.body,
  })
  const hook = Effect.suspend(() => Effect.map(network(), (chat) => Option.getOrThrow(chat.webhook)))

  it.live("statuses become reports; failed carries errors[0]'s code and title", () =>
    Effect.gen(function* () {
      const answer = yield* (yield* hook)(post(standIn.delivery([{
        ...metadata("1001"),
        statuses: [
          { id: "wamid.A", status: "sent", timestamp: "1700000000", recipient_id: "966501234567" },
          { id: "wamid.A", status: "delivered", timestamp: "1700000001", recipient_id: "966501234567" },
          { id: "wamid.B", status: "read", timestamp: "1700000002", recipient_id: "966501234567" },
          {
            id: "wamid.C",
            status: "failed",
            timestamp: "1700000003",
            recipient_id: "966501234567",
            errors: [{
              code: 131026,
              title: "Message undeliverable",
              message: "Message undeliverable",
              error_data: { details: "Message Undeliverable." },
            }],
          },
          { id: "wamid.D", status: "deleted", timestamp: "1700000004", recipient_id: "966501234567" },
        ],
      }])))
      expect(answer.status).toBe(200)
      expect(answer.callbacks).toEqual({
        reports: [
          { providerMessageId: "wamid.A", status: "sent", error: null },
          { providerMessageId: "wamid.A", status: "delivered", error: null },
          { providerMessageId: "wamid.B", status: "read", error: null },
          {
            providerMessageId: "wamid.C",
            status: "failed",
            error: { code: "131026", message: "Message undeliverable" },
          },
        ],
        inbound: [],
      })
    }))

  it.live("messages become inbound: the application by phone_number_id, from as +966…, name, text or choice", () =>
    Effect.gen(function* () {
      const answer = yield* (yield* hook)(post(standIn.delivery([
        {
          ...metadata("1001"),
          contacts: [{ profile: { name: "Sara" }, wa_id: "966501234567" }],
          messages: [
            { from: "966501234567", id: "wamid.1", timestamp: "1", type: "text", text: { body: "STOP" } },
            {
              from: "966501234567",
              id: "wamid.2",
              timestamp: "2",
              type: "button",
              button: { text: "Stop promotions", payload: "Stop promotions" },
            },
            {
              from: "966501234567",
              id: "wamid.3",
              timestamp: "3",
              type: "interactive",
              interactive: { type: "button_reply", button_reply: { id: "track", title: "Track" } },
            },
            {
              from: "966501234567",
              id: "wamid.4",
              timestamp: "4",
              type: "interactive",
              interactive: { type: "list_reply", list_reply: { id: "hours", title: "Hours" } },
            },
          ],
        },
        {
          ...metadata("1002"),
          messages: [{
            from: "966507654321",
            id: "wamid.5",
            timestamp: "5",
            type: "button",
            button: { text: "ايقاف" },
          }],
        },
      ])))
      const sara = { application: APP, from: "+966501234567", name: "Sara" }
      expect(answer.callbacks.inbound).toEqual([
        { ...sara, text: "STOP", choiceId: null, optOut: false },
        { ...sara, text: "Stop promotions", choiceId: null, optOut: true },
        { ...sara, text: null, choiceId: "track", optOut: false },
        { ...sara, text: null, choiceId: "hours", optOut: false },
        { application: LISTED, from: "+966507654321", name: null, text: "ايقاف", choiceId: null, optOut: false },
      ])
    }))

  it.live("error 131050 on a status is an opt-out from its recipient", () =>
    Effect.gen(function* () {
      const answer = yield* (yield* hook)(post(standIn.delivery([{
        ...metadata("1001"),
        statuses: [{
          id: "wamid.M",
          status: "failed",
          timestamp: "1700000000",
          recipient_id: "966501234567",
          errors: [{ code: 131050, title: "User has stopped marketing messages", message: "..." }],
        }],
      }])))
      expect(answer.callbacks).toEqual({
        reports: [{
          providerMessageId: "wamid.M",
          status: "failed",
          error: { code: "131050", message: "User has stopped marketing messages" },
        }],
        inbound: [{ application: APP, from: "+966501234567", name: null, text: null, choiceId: null, optOut: true }],
      })
    }))

  it.live("a non-Saudi sender, or a number of no application, is skipped", () =>
    Effect.gen(function* () {
      const answer = yield* (yield* hook)(post(standIn.delivery([
        {
          ...metadata("1001"),
          messages: [{ from: "447700900123", id: "w", timestamp: "1", type: "text", text: { body: "hi" } }],
        },
        {
          ...metadata("9999"),
          messages: [{ from: "966501234567", id: "w", timestamp: "1", type: "text", text: { body: "hi" } }],
        },
      ])))
      expect(answer).toEqual({ status: 200, body: "", callbacks: { reports: [], inbound: [] } })
    }))

  it.live("a bad or missing signature → 401 and no callbacks", () =>
    Effect.gen(function* () {
      const h = yield* hook
      const value = { ...metadata("1001"), statuses: [{ id: "wamid.X", status: "read", recipient_id: "966501234567" }] }
      const forged = standIn.delivery([value], "not-the-app-secret")
      const none = { status: 401, body: "", callbacks: { reports: [], inbound: [] } }
      expect(yield* h(post(forged))).toEqual(none)
      const good = standIn.delivery([value])
      expect(yield* h(post({ body: good.body, headers: { "content-type": "application/json" } }))).toEqual(none)
      expect(yield* h(post({ body: `${good.body} `, headers: good.headers }))).toEqual(none)
      expect((yield* h(post(good))).callbacks.reports).toHaveLength(1)
    }))
})

describe("the access token and message texts are never logged", () => {
  it.live("no log line of sends, refusals or reads contains them", () =>
    Effect.gen(function* () {
      const lines: Array<string> = []
      const capture = Logger.replace(
        Logger.defaultLogger,
        Logger.make(({ message }) => {
          lines.push(JSON.stringify(message))
        }),
      )
      standIn.script("966500000013", { kind: "refuse", error: GraphErrors.undeliverable })
      yield* Effect.gen(function* () {
        const chat = yield* ChatNetwork
        const otp = template({ name: "otp_login", category: "authentication", body: "*{{1}}*", buttons: [] })
        yield* Effect.either(chat.send(sendOf(otp, { code: "739104" }, { text: "739104 is your code" })))
        yield* Effect.either(chat.send(sendOf(otp, { code: "739104" }, { to: SaudiMobile("+966500000013") })))
        yield* Effect.either(chat.templates(APP))
      }).pipe(Effect.provide(Layer.merge(layer(configFor()), capture)), Logger.withMinimumLogLevel(LogLevel.All))
      const all = lines.join("\n")
      expect(all).not.toContain("739104")
      expect(all).not.toContain("test-access-token")
    }))
})

describe("ChatNetworkCloudApi reads WHATSAPP_* configuration", () => {
  const env = (vars: Record<string, string>) =>
    Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(vars))))
  const full = () => ({
    WHATSAPP_ACCESS_TOKEN: "test-access-token",
    WHATSAPP_APP_SECRET: "test-app-secret",
    WHATSAPP_VERIFY_TOKEN: "verify-me",
    WHATSAPP_GRAPH_URL: standIn.graphUrl,
    WHATSAPP_NUMBERS: JSON.stringify({ [APP]: { phone_number_id: "1001", waba_id: "2001" } }),
  })

  it.live("the number and token come from the environment", () =>
    Effect.gen(function* () {
      const answer = yield* Effect.flatMap(ChatNetwork, (chat) => chat.number(APP)).pipe(
        Effect.provide(ChatNetworkCloudApi.pipe(Layer.provide(env(full())))),
      )
      assert.deepStrictEqual(answer, Option.some({ number: "+966112345678", connected: true }))
    }))

  it.live("a missing WHATSAPP_ACCESS_TOKEN, or WHATSAPP_NUMBERS that is not the documented JSON, is a ConfigError", () =>
    Effect.gen(function* () {
      const build = (vars: Record<string, string>) =>
        Effect.either(Layer.build(ChatNetworkCloudApi.pipe(Layer.provide(env(vars)))).pipe(Effect.scoped))
      const { WHATSAPP_ACCESS_TOKEN: _, ...noToken } = full()
      const missing = yield* build(noToken)
      expect(Either.isLeft(missing) && String(missing.left)).toContain("WHATSAPP_ACCESS_TOKEN")
      const bad = yield* build({ ...full(), WHATSAPP_NUMBERS: `{"${APP}": {"phone_number_id": 1}}` })
      expect(Either.isLeft(bad) && String(bad.left)).toContain("WHATSAPP_NUMBERS")
      const notAnApp = yield* build({
        ...full(),
        WHATSAPP_NUMBERS: `{"shop": {"phone_number_id": "1", "waba_id": "2"}}`,
      })
      expect(Either.isLeft(notAnApp) && String(notAnApp.left)).toContain("shop is not an application id")
    }))
})
