/**
 * The auto-attendant's conversations over HTTP, through the chat-network simulator (DECISIONS 7.4, 9.3): the
 * greeting on a first message, taps through a nested menu, an answer, the hand-over to the team, expiry after 24
 * hours of simulated time, a STOP word, switching off, a conversation keeping its version across a publish, and
 * the account API's log (`chat.attendant.log.list`) with its filters, paging and masking.
 */
import { handOverNotices } from "../../core/chat/conversation.ts"
import { describe, expect, it } from "vitest"
import { onEveryStore, type TestServer } from "../support/server.ts"
import { goodMenu, setupConnectedApp } from "./harness.ts"

let n = 0
/** A fresh customer number for each conversation. */
const customer = () => `+9665${String(10_000_000 + ++n * 7919).padStart(8, "0")}`

const live = async (s: TestServer, menu: unknown = goodMenu(), enabled = true) => {
  const made = await setupConnectedApp(s)
  const put = await s.call("PUT", "/v1/chat/attendant/draft", { key: made.appKey, body: { menu, enabled } })
  expect(put.status).toBe(200)
  expect((await s.call("POST", "/v1/chat/attendant/publish", { key: made.appKey })).status).toBe(200)
  return made
}

const say = (s: TestServer, application: string, from: string, body: { text?: string; choice_id?: string }) =>
  s.console("POST", "/simulator/chatmsg/inbound", { application, from, name: "Sara Ahmed", ...body })

const log = async (s: TestServer, accountId: string, application: string, query = "", tokenBody = {}) => {
  const token = await s.console("POST", `/accounts/${accountId}/account-tokens`, tokenBody)
  const res = await s.call("GET", `/v1/applications/${application}/chat/attendant/log${query}`, { key: token.token })
  return res
}

onEveryStore((server, store) =>
  describe(`${store}: attendant conversations`, () => {
    it("greets a first message, shows a nested menu on a tap and ends answered on an answer", async () => {
      const s = server()
      const { app } = await live(s)
      const from = customer()
      const first = await say(s, app.id, from, { text: "hello" })
      expect(first.attendant).toMatchObject({ outcome: "ongoing" })
      expect(first.attendant.messages).toEqual([{
        text: "Welcome to the shop",
        choices: [
          { id: "hours", title: "Opening hours", description: null },
          { id: "orders", title: "Orders", description: "Where is my order?" },
          { id: "talk", title: "Talk to us", description: null },
        ],
      }])
      const sent = await s.call("GET", `/console/v1/simulator/chatmsg/messages?to=${encodeURIComponent(from)}`, {
        key: s.consoleToken,
      })
      expect(sent.body.data[0]).toMatchObject({ to: from, template: "attendant", lang: "ar" })
      expect(sent.body.data[0].text).toBe(
        "Welcome to the shop\n[hours] Opening hours\n[orders] Orders\n[talk] Talk to us",
      )
      const orders = await say(s, app.id, from, { choice_id: "orders" })
      expect(orders.attendant.messages[0].choices).toEqual([{ id: "late", title: "It is late", description: null }])
      // A choice of another level is not taken: the level shown is shown again.
      const wrong = await say(s, app.id, from, { choice_id: "hours" })
      expect(wrong.attendant.messages[0].choices.map((c: any) => c.id)).toEqual(["late"])

      const other = customer()
      await say(s, app.id, other, { text: "hi" })
      const answered = await say(s, app.id, other, { choice_id: "hours" })
      expect(answered.attendant).toMatchObject({
        outcome: "answered",
        messages: [{ text: "9 to 5, Sunday to Thursday", choices: [] }],
      })
    })

    it("hands over to the team, stops on a STOP word and on switching off; starts again after", async () => {
      const s = server()
      const { account, app, appKey } = await live(s)
      const a = customer()
      await say(s, app.id, a, { text: "hi" })
      await say(s, app.id, a, { choice_id: "orders" })
      expect((await say(s, app.id, a, { choice_id: "late" })).attendant).toMatchObject({
        outcome: "team",
        messages: [{ text: handOverNotices.ar, choices: [] }],
      })
      // A message after the hand-over starts a new conversation.
      const again = await say(s, app.id, a, { text: "are you there?" })
      expect(again.attendant.outcome).toBe("ongoing")
      const stop = await say(s, app.id, a, { text: "STOP" })
      expect(stop.attendant).toMatchObject({ conversation_id: again.attendant.conversation_id, outcome: "stopped" })
      expect(stop.consent).not.toBeNull()

      const b = customer()
      const started = await say(s, app.id, b, { text: "hi" })
      expect((await s.call("PUT", "/v1/chat/attendant/enabled", { key: appKey, body: { enabled: false } })).status)
        .toBe(200)
      expect((await say(s, app.id, b, { text: "hello?" })).attendant).toBeNull()
      const entries = (await log(s, account.id, app.id)).body.data
      expect(entries.find((e: any) => e.id === started.attendant.conversation_id)).toMatchObject({ outcome: "stopped" })
    })

    it("keeps a conversation's version while a new one is published", async () => {
      const s = server()
      const { app, appKey } = await live(s)
      const from = customer()
      await say(s, app.id, from, { text: "hi" })
      const v2 = {
        ...goodMenu(),
        greeting: "Version two",
        choices: [{ id: "t2", title: "Team", action: { type: "team" } }],
      }
      await s.call("PUT", "/v1/chat/attendant/draft", { key: appKey, body: { menu: v2 } })
      expect((await s.call("POST", "/v1/chat/attendant/publish", { key: appKey })).body.version).toBe(2)
      expect((await say(s, app.id, from, { choice_id: "t2" })).attendant.messages[0].choices.map((c: any) => c.id))
        .toEqual(["hours", "orders", "talk"])
      expect((await say(s, app.id, from, { choice_id: "hours" })).attendant.outcome).toBe("answered")
      const fresh = await say(s, app.id, customer(), { text: "hi" })
      expect(fresh.attendant.messages[0].text).toBe("Version two")
    })

    it("expires 24 hours after the customer's last message, on the simulated clock", async () => {
      const s = server()
      const { account, app } = await live(s)
      const from = customer()
      const started = await say(s, app.id, from, { text: "hi" })
      await s.console("POST", "/simulator/clock", { advance_ms: 24 * 3_600_000 - 1_000 })
      let entry = (await log(s, account.id, app.id)).body.data[0]
      expect(entry).toMatchObject({ id: started.attendant.conversation_id, outcome: "ongoing", ended_at: null })
      await s.console("POST", "/simulator/clock", { advance_ms: 1_000 })
      entry = (await log(s, account.id, app.id)).body.data[0]
      expect(entry.outcome).toBe("expired")
      expect(Date.parse(entry.ended_at) - Date.parse(entry.started_at)).toBe(24 * 3_600_000)
      // A message after the expiry starts a new conversation.
      const next = await say(s, app.id, from, { text: "hi again" })
      expect(next.attendant.conversation_id).not.toBe(started.attendant.conversation_id)
    })

    it("the log: newest first, filtered, paged, masked for a person who does not manage contacts", async () => {
      const s = server()
      const { account, app } = await live(s)
      const [a, b, c] = [customer(), customer(), customer()]
      await say(s, app.id, a, { text: "hi" })
      await say(s, app.id, a, { choice_id: "talk" })
      await s.console("POST", "/simulator/clock", { advance_ms: 1_000 })
      await s.console("POST", "/simulator/chatmsg/inbound", { application: app.id, from: b, name: "Omar", text: "hi" })
      await say(s, app.id, b, { text: "STOP" })
      await s.console("POST", "/simulator/clock", { advance_ms: 1_000 })
      await say(s, app.id, c, { text: "hi" })
      await say(s, app.id, c, { choice_id: "orders" })

      const all = await log(s, account.id, app.id)
      expect(all.status).toBe(200)
      expect(all.body.data.map((e: any) => e.phone)).toEqual([c, b, a])
      expect(all.body.data[0]).toMatchObject({
        customer_name: "Sara Ahmed",
        outcome: "ongoing",
        collected: {},
        choices: [{ id: "orders", title: "Orders" }],
        ended_at: null,
      })
      expect(all.body.next_cursor).toBeNull()
      const outcomes = async (q: string) => (await log(s, account.id, app.id, q)).body.data.map((e: any) => e.outcome)
      expect(await outcomes("?outcome=team")).toEqual(["team"])
      expect(await outcomes("?outcome=ended")).toEqual(["stopped"])
      expect(await outcomes("?outcome=ongoing")).toEqual(["ongoing"])
      expect(await outcomes("?q=omar")).toEqual(["stopped"])
      expect(await outcomes(`?q=${a.slice(-6)}`)).toEqual(["team"])
      // A number as typed locally (05…) finds the stored +9665… one.
      expect(await outcomes(`?q=0${a.slice(4)}`)).toEqual(["team"])

      const first = await log(s, account.id, app.id, "?limit=2")
      expect(first.body.data.map((e: any) => e.phone)).toEqual([c, b])
      const rest = await log(s, account.id, app.id, `?limit=2&cursor=${first.body.next_cursor}`)
      expect(rest.body).toEqual({ data: [all.body.data[2]], next_cursor: null })

      const masked = await log(s, account.id, app.id, "", { manage_contacts: false })
      expect(masked.body.data[0].phone).toBe(`${c.slice(0, 6)}*****${c.slice(-2)}`)
      expect(masked.body.data[0].collected).toBeNull()
      expect((await log(s, account.id, app.id, `?q=${a.slice(-6)}`, { manage_contacts: false })).body.data)
        .toEqual([])

      for (const bad of ["?limit=51", "?limit=0", "?outcome=expired_or_not", `?q=${"x".repeat(101)}`, "?cursor=x"]) {
        expect((await log(s, account.id, app.id, bad)).status).toBe(400)
      }
      const stranger = await live(s)
      expect((await log(s, stranger.account.id, app.id)).status).toBe(404)
    })

    it("says nothing while off, or with nothing live", async () => {
      const s = server()
      const { app } = await live(s, goodMenu(), false)
      expect((await say(s, app.id, customer(), { text: "hi" })).attendant).toBeNull()
      const unpublished = await setupConnectedApp(s)
      await s.call("PUT", "/v1/chat/attendant/enabled", { key: unpublished.appKey, body: { enabled: true } })
      expect((await say(s, unpublished.app.id, customer(), { text: "hi" })).attendant).toBeNull()
    })
  })
)

onEveryStore((server, store) =>
  it(`${store}: two first messages of one customer at once make one conversation`, async () => {
    const s = server()
    const { account, app } = await live(s)
    const from = customer()
    const both = await Promise.all([say(s, app.id, from, { text: "hi" }), say(s, app.id, from, { text: "hello" })])
    expect(both[0].attendant.conversation_id).toBe(both[1].attendant.conversation_id)
    expect((await log(s, account.id, app.id)).body.data).toHaveLength(1)
  })
)

onEveryStore((server, store) =>
  it(`${store}: a log entry is gone 90 days after it started`, async () => {
    const s = server()
    const { account, app } = await live(s)
    await say(s, app.id, customer(), { text: "hi" })
    const day = 24 * 3_600_000
    await s.console("POST", "/simulator/clock", { advance_ms: 90 * day - 1_000 })
    expect((await log(s, account.id, app.id)).body.data.map((e: any) => e.outcome)).toEqual(["expired"])
    await s.console("POST", "/simulator/clock", { advance_ms: 1_000 })
    expect((await log(s, account.id, app.id)).body.data).toEqual([])
  })
)
