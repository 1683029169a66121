/**
 * The auto-attendant on the WhatsApp Cloud API adapter (`CHAT_PROVIDER=whatsapp_cloud`), end to end over HTTP
 * against the Graph stand-in (test/notifications/cloud-api-standin.ts): customers' messages arrive as signed webhook
 * deliveries (`X-Hub-Signature-256`) and step the same conversations as the simulator's inbound route (DECISIONS
 * 9.3); the attendant's replies leave as session messages (`POST /{phone-number-id}/messages`, `type: text` or
 * `interactive`), through the reply queue: a refused send is tried again by the delivery job, none twice.
 *
 * As test/notifications/cloud-platform.test.ts does, the suite makes its application on a first start (the
 * simulator's), then starts the platform again on the same PGlite directory with WHATSAPP_NUMBERS naming it.
 */
import { handOverNotices } from "../../core/chat/conversation.ts"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { setupApplication, startServer, type TestServer } from "../support/server.ts"
import {
  type CloudApiStandIn,
  GraphErrors,
  metadata,
  startCloudApiStandIn,
} from "../notifications/cloud-api-standin.ts"
import { connectedKey, goodMenu } from "./harness.ts"

const SHOP = { phone: "1001", waba: "2001" }

let standIn: CloudApiStandIn
let s: TestServer
let dir: string
let shop: Awaited<ReturnType<typeof setupApplication>>
let appKey: string

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

beforeAll(async () => {
  standIn = await startCloudApiStandIn({ accessToken: "attendant-access-token", appSecret: "attendant-app-secret" })
  standIn.phones.set(SHOP.phone, { display: "+966 11 234 5678", status: "CONNECTED", wabaId: SHOP.waba })
  dir = mkdtempSync(join(tmpdir(), "cloud-attendant-"))
  const first = await startServer({ store: "sql", pgliteDir: dir, chatProvider: "simulator" })
  try {
    shop = await setupApplication(first)
    appKey = await connectedKey(first, shop.app.id)
  } finally {
    await first.close()
  }
  s = await withEnv({
    WHATSAPP_ACCESS_TOKEN: standIn.accessToken,
    WHATSAPP_APP_SECRET: standIn.appSecret,
    WHATSAPP_VERIFY_TOKEN: "attendant-verify-token",
    WHATSAPP_GRAPH_URL: standIn.graphUrl,
    WHATSAPP_NUMBERS: JSON.stringify({ [shop.app.id]: { phone_number_id: SHOP.phone, waba_id: SHOP.waba } }),
  }, () => startServer({ store: "sql", pgliteDir: dir, chatProvider: "whatsapp_cloud" }))
  const put = await s.call("PUT", "/v1/chat/attendant/draft", {
    key: appKey,
    body: { menu: goodMenu(), enabled: true },
  })
  expect(put.status).toBe(200)
  expect((await s.call("POST", "/v1/chat/attendant/publish", { key: appKey })).status).toBe(200)
}, 120_000)

afterAll(async () => {
  await s?.close()
  await standIn?.close()
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
})

let n = 0
/** A customer's number as the Cloud API writes it (digits, no `+`). */
const customer = () => `9665${String(50_000_000 + ++n * 7919).padStart(8, "0")}`

const deliver = (delivery: { body: string; headers: Record<string, string> }) =>
  s.call("POST", "/v1/chatmsg/network/webhook", { rawBody: delivery.body, headers: delivery.headers })

const message = (from: string, m: Record<string, unknown>) => ({
  ...metadata(SHOP.phone),
  contacts: [{ profile: { name: "Sara Ahmed" }, wa_id: from }],
  messages: [{ from, id: `wamid.in.${from}.${++n}`, timestamp: "1767225600", ...m }],
})
const text = (from: string, body: string) => standIn.delivery([message(from, { type: "text", text: { body } })])
const listReply = (from: string, id: string, title: string) =>
  standIn.delivery([
    message(from, { type: "interactive", interactive: { type: "list_reply", list_reply: { id, title } } }),
  ])
const buttonReply = (from: string, id: string, title: string) =>
  standIn.delivery([
    message(from, { type: "interactive", interactive: { type: "button_reply", button_reply: { id, title } } }),
  ])

/** The session messages the stand-in accepted for a customer, in order. */
const sessionTo = (digits: string) =>
  standIn.messages.filter((m) => m.body["to"] === digits && m.body["type"] !== "template").map((m) => m.body)

const logOf = async () => {
  const token = await s.console("POST", `/accounts/${shop.account.id}/account-tokens`, {})
  const res = await s.call("GET", `/v1/applications/${shop.app.id}/chat/attendant/log`, { key: token.token })
  expect(res.status).toBe(200)
  return res.body.data as ReadonlyArray<any>
}
const advance = (ms: number) => s.console("POST", "/simulator/clock", { advance_ms: ms })

describe("a customer's text from the real network starts a conversation: the greeting leaves as an interactive list", () => {
  it("the greeting's choices (one with a description) are a list of rows whose ids are the choices'", async () => {
    const from = customer()
    expect((await deliver(text(from, "hello"))).status).toBe(200)
    expect(sessionTo(from)).toEqual([{
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: from,
      type: "interactive",
      interactive: {
        type: "list",
        body: { text: "Welcome to the shop" },
        action: {
          button: "القائمة",
          sections: [{
            rows: [
              { id: "hours", title: "Opening hours" },
              { id: "orders", title: "Orders", description: "Where is my order?" },
              { id: "talk", title: "Talk to us" },
            ],
          }],
        },
      },
    }])
    const entry = (await logOf()).find((e) => e.phone.endsWith(from.slice(-2)) && e.outcome === "ongoing")
    expect(entry).toMatchObject({ customer_name: "Sara Ahmed", outcome: "ongoing", choices: [] })
  })
})

describe("interactive replies (list_reply / button_reply ids = choice ids) tap the choices", () => {
  it("a list_reply opens the nested menu (reply buttons: one short choice), a button_reply hands over to the team", async () => {
    const from = customer()
    await deliver(text(from, "hi"))
    expect((await deliver(listReply(from, "orders", "Orders"))).status).toBe(200)
    expect(sessionTo(from)[1]).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: from,
      type: "interactive",
      interactive: {
        type: "button",
        body: { text: "Orders" },
        action: { buttons: [{ type: "reply", reply: { id: "late", title: "It is late" } }] },
      },
    })
    expect((await deliver(buttonReply(from, "late", "It is late"))).status).toBe(200)
    // The hand-over's notice, in the attendant's language (ar).
    expect(sessionTo(from)[2]).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: from,
      type: "text",
      text: { preview_url: false, body: handOverNotices.ar },
    })
    const entry = (await logOf()).find((e) => e.choices.length === 2 && e.choices[1].id === "late")
    expect(entry).toMatchObject({
      outcome: "team",
      choices: [{ id: "orders", title: "Orders" }, { id: "late", title: "It is late" }],
    })
  })

  it("an answer leaves as a text message and ends the conversation answered", async () => {
    const from = customer()
    await deliver(text(from, "hi"))
    await deliver(listReply(from, "hours", "Opening hours"))
    expect(sessionTo(from)[1]).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: from,
      type: "text",
      text: { preview_url: false, body: "9 to 5, Sunday to Thursday" },
    })
  })

  it("a STOP word from the real network ends the conversation stopped (and records the opt-out)", async () => {
    const from = customer()
    await deliver(text(from, "hi"))
    await deliver(text(from, "STOP"))
    const stopped = (await logOf()).filter((e) => e.outcome === "stopped")
    expect(stopped.length).toBeGreaterThan(0)
    expect(sessionTo(from)).toHaveLength(1)
  })
})

describe("only a signed delivery drives a conversation", () => {
  it("a delivery signed with another secret is refused 401 and sends nothing", async () => {
    const from = customer()
    const forged = standIn.delivery([message(from, { type: "text", text: { body: "hello" } })], "not-the-secret")
    expect((await deliver(forged)).status).toBe(401)
    expect(sessionTo(from)).toEqual([])
  })
})

describe("a refused send is tried again by the delivery job; nothing is sent twice", () => {
  it("the greeting refused once leaves 5 s later, once; the customer's next reply waits behind it", async () => {
    const from = customer()
    standIn.script(from, { kind: "refuse", error: GraphErrors.undeliverable, status: 400 })
    await deliver(text(from, "hello"))
    expect(sessionTo(from)).toEqual([])
    // The customer taps meanwhile: the answer queues behind the greeting, which has not left.
    await deliver(listReply(from, "hours", "Opening hours"))
    expect(sessionTo(from)).toEqual([])
    standIn.script(from, undefined)
    await advance(4_999)
    expect(sessionTo(from)).toEqual([])
    await advance(1)
    expect(sessionTo(from).map((b) => b["type"])).toEqual(["interactive", "text"])
    await advance(60 * 60_000)
    expect(sessionTo(from)).toHaveLength(2)
    // Three posts in all: the refused greeting, then the greeting and the answer once each.
    const posts = standIn.requests.filter((r) => r.method === "POST" && (r.body as any)?.to === from)
    expect(posts.map((r) => (r.body as any).type)).toEqual(["interactive", "interactive", "text"])
  })
})
