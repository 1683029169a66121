/**
 * A whole conversation with the auto-attendant over HTTP, through the chat-network simulator (DECISIONS 7.4, 9.3):
 * a newcomer's message, the greeting arriving in the simulator's inbox (sent through the network port from the reply
 * queue), taps through a nested menu, an answer, the hand-over to the team, STOP, and each conversation's log row
 * with its outcome (`chat.attendant.log.list`); a tap on a choice of the version the conversation started with
 * after a newer one is published (the version is pinned); and a send the network refuses, tried again, never twice.
 */
import { handOverNotices } from "../../core/chat/conversation.ts"
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import { ChatRepliesRepo } from "../../ports/store/chat-replies.ts"
import { onEveryStore, type TestServer } from "../support/server.ts"
import { goodMenu, setupConnectedApp } from "./harness.ts"

let n = 0
const customer = () => `+9665${String(30_000_000 + ++n * 6151).padStart(8, "0")}`

const publish = async (s: TestServer, appKey: string, menu: unknown) => {
  const put = await s.call("PUT", "/v1/chat/attendant/draft", { key: appKey, body: { menu, enabled: true } })
  expect(put.status).toBe(200)
  const published = await s.call("POST", "/v1/chat/attendant/publish", { key: appKey })
  expect(published.status).toBe(200)
  return published.body.version as number
}

const say = (s: TestServer, application: string, from: string, body: { text?: string; choice_id?: string }) =>
  s.console("POST", "/simulator/chatmsg/inbound", { application, from, name: "Sara Ahmed", ...body })

/** The simulator's inbox for a customer, oldest first: what the network carried to them. */
const inbox = async (s: TestServer, to: string) => {
  const res = await s.call("GET", `/console/v1/simulator/chatmsg/messages?to=${encodeURIComponent(to)}`, {
    key: s.consoleToken,
  })
  expect(res.status).toBe(200)
  return [...res.body.data].reverse() as ReadonlyArray<{ template: string; lang: string; text: string }>
}

const logRow = async (s: TestServer, accountId: string, application: string, id: string) => {
  const token = await s.console("POST", `/accounts/${accountId}/account-tokens`, {})
  const res = await s.call("GET", `/v1/applications/${application}/chat/attendant/log?limit=50`, { key: token.token })
  expect(res.status).toBe(200)
  return res.body.data.find((e: any) => e.id === id)
}

const advance = (s: TestServer, ms: number) => s.console("POST", "/simulator/clock", { advance_ms: ms })

onEveryStore((server, store) =>
  describe(`${store}: "a simulator inbound message from a number without an ongoing conversation starts one (greeting to the outbox); choice_id taps"`, () => {
    it("a newcomer: greeting in the inbox, taps through the nested menu to the team; the log row says team", async () => {
      const s = server()
      const { account, app, appKey } = await setupConnectedApp(s)
      await publish(s, appKey, goodMenu())
      const from = customer()
      const first = await say(s, app.id, from, { text: "hello" })
      expect(await inbox(s, from)).toMatchObject([{
        template: "attendant",
        lang: "ar",
        text: "Welcome to the shop\n[hours] Opening hours\n[orders] Orders\n[talk] Talk to us",
      }])
      await say(s, app.id, from, { choice_id: "orders" })
      expect((await inbox(s, from)).map((m) => m.text)).toEqual([
        "Welcome to the shop\n[hours] Opening hours\n[orders] Orders\n[talk] Talk to us",
        "Orders\n[late] It is late",
      ])
      const team = await say(s, app.id, from, { choice_id: "late" })
      expect(team.attendant).toMatchObject({ conversation_id: first.attendant.conversation_id, outcome: "team" })
      // The hand-over's notice, in the attendant's language (ar); the clock moving on sends nothing again.
      expect((await inbox(s, from)).at(-1)).toMatchObject({
        template: "attendant",
        lang: "ar",
        text: handOverNotices.ar,
      })
      await advance(s, 2 * 60 * 60_000)
      expect(await inbox(s, from)).toHaveLength(3)
      expect(await logRow(s, account.id, app.id, first.attendant.conversation_id)).toMatchObject({
        customer_name: "Sara Ahmed",
        choices: [{ id: "orders", title: "Orders" }, { id: "late", title: "It is late" }],
        outcome: "team",
      })
    })

    it("an answer arrives in the inbox and the row says answered; STOP ends the next one stopped", async () => {
      const s = server()
      const { account, app, appKey } = await setupConnectedApp(s)
      await publish(s, appKey, goodMenu())
      const from = customer()
      const first = await say(s, app.id, from, { text: "hi" })
      await say(s, app.id, from, { choice_id: "hours" })
      expect((await inbox(s, from)).map((m) => m.text).at(-1)).toBe("9 to 5, Sunday to Thursday")
      expect((await logRow(s, account.id, app.id, first.attendant.conversation_id)).outcome).toBe("answered")
      const second = await say(s, app.id, from, { text: "one more question" })
      expect(second.attendant.conversation_id).not.toBe(first.attendant.conversation_id)
      await say(s, app.id, from, { text: "STOP" })
      expect((await logRow(s, account.id, app.id, second.attendant.conversation_id)).outcome).toBe("stopped")
      // Greeting, answer, greeting: STOP is answered with nothing.
      expect(await inbox(s, from)).toHaveLength(3)
    })

    it("a tap on a choice of the version the conversation started with, after a newer one is published", async () => {
      const s = server()
      const { account, app, appKey } = await setupConnectedApp(s)
      expect(await publish(s, appKey, goodMenu())).toBe(1)
      const from = customer()
      const started = await say(s, app.id, from, { text: "hi" })
      await say(s, app.id, from, { choice_id: "orders" })
      const v2 = { greeting: "Version two", choices: [{ id: "desk", title: "Help desk", action: { type: "team" } }] }
      expect(await publish(s, appKey, v2)).toBe(2)
      // `late` exists only in version 1: the conversation's own.
      const tapped = await say(s, app.id, from, { choice_id: "late" })
      expect(tapped.attendant).toMatchObject({ conversation_id: started.attendant.conversation_id, outcome: "team" })
      expect((await logRow(s, account.id, app.id, started.attendant.conversation_id)).choices.map((c: any) => c.id))
        .toEqual(["orders", "late"])
      // A newcomer starts on version 2.
      const other = customer()
      await say(s, app.id, other, { text: "hi" })
      expect((await inbox(s, other)).map((m) => m.text)).toEqual(["Version two\n[desk] Help desk"])
    })

    it("a send the network refuses is tried again (5 s, doubling) and given up after 10 attempts, never sent", async () => {
      const s = server()
      const { app, appKey } = await setupConnectedApp(s)
      await publish(s, appKey, goodMenu())
      const refused = "+966500000001"
      const started = await say(s, app.id, refused, { text: "hi" })
      expect(started.attendant.outcome).toBe("ongoing")
      const pending = () =>
        s.platform.runtime.runPromise(Effect.flatMap(ChatRepliesRepo, (r) => r.earliestDue)) as Promise<
          Option.Option<number>
        >
      const first = await pending()
      expect(Option.isSome(first)).toBe(true)
      await advance(s, 5_000)
      const second = await pending()
      // The second failure waits 10 s.
      expect(Option.getOrThrow(second) - Option.getOrThrow(first)).toBe(10_000)
      await advance(s, 3 * 60 * 60_000)
      expect(Option.isNone(await pending())).toBe(true)
      expect(await inbox(s, refused)).toEqual([])
    })
  })
)

const settings = async (s: TestServer, appKey: string, body: unknown) => {
  const res = await s.call("PATCH", "/v1/chat/attendant/settings", { key: appKey, body })
  expect(res.status).toBe(200)
}

/** A customer's whole way to the team: a first message, the nested menu, the hand-over. */
const handOver = async (s: TestServer, application: string, from: string) => {
  await say(s, application, from, { text: "hello" })
  await say(s, application, from, { choice_id: "orders" })
  return say(s, application, from, { choice_id: "late" })
}

onEveryStore((server, store) =>
  describe(`${store}: "the hand-over: the customer gets a short notice through the chat network, Arabic or English per the attendant's language, recorded in the log"`, () => {
    it("ar: the Arabic notice in the simulator's log; en: the English one; the log rows say team", async () => {
      const s = server()
      const { account, app, appKey } = await setupConnectedApp(s)
      await publish(s, appKey, goodMenu())
      const arabic = customer()
      const handed = await handOver(s, app.id, arabic)
      expect(handed.attendant).toMatchObject({
        outcome: "team",
        messages: [{ text: handOverNotices.ar, choices: [] }],
      })
      expect((await inbox(s, arabic)).at(-1)).toMatchObject({
        template: "attendant",
        lang: "ar",
        text: handOverNotices.ar,
      })
      await settings(s, appKey, { language: "en" })
      const english = customer()
      const second = await handOver(s, app.id, english)
      expect((await inbox(s, english)).map((m) => [m.lang, m.text]).at(-1)).toEqual(["en", handOverNotices.en])
      expect(await inbox(s, english)).toHaveLength(3)
      for (const r of [handed, second]) {
        expect((await logRow(s, account.id, app.id, r.attendant.conversation_id)).outcome).toBe("team")
      }
    })
  })
)

onEveryStore((server, store) =>
  describe(`${store}: "mode after_hours (no team member free)": a member is free while the team's active members outnumber its hand-overs of the last 30 minutes`, () => {
    it("no member: answers; one member busy with a recent hand-over: answers; free 30 minutes later: silent", async () => {
      const s = server()
      const { account, app, appKey } = await setupConnectedApp(s)
      await publish(s, appKey, goodMenu())
      await settings(s, appKey, { mode: "after_hours" })
      // No team member at all (no token's person, no one joined): no one is free, the attendant answers.
      const first = customer()
      expect((await handOver(s, app.id, first)).attendant.outcome).toBe("team")
      // A token's person is an active member of every team; the hand-over a moment ago keeps them busy.
      await s.console("POST", `/accounts/${account.id}/account-tokens`, { email: "sara@shop.sa" })
      const second = customer()
      const greeted = await say(s, app.id, second, { text: "hello" })
      expect(greeted.attendant).toMatchObject({ outcome: "ongoing" })
      // 30 minutes and a second on: the member is free, a newcomer gets nothing from the attendant.
      await advance(s, 30 * 60_000 + 1_000)
      const third = customer()
      expect((await say(s, app.id, third, { text: "hello" })).attendant).toBeNull()
      expect(await inbox(s, third)).toEqual([])
      // A conversation already going on goes on.
      const answered = await say(s, app.id, second, { choice_id: "hours" })
      expect(answered.attendant).toMatchObject({
        conversation_id: greeted.attendant.conversation_id,
        outcome: "answered",
      })
      // The same in `always`: answered whoever is free.
      await settings(s, appKey, { mode: "always" })
      expect((await say(s, app.id, third, { text: "hello" })).attendant).toMatchObject({ outcome: "ongoing" })
    })
  })
)
