/**
 * Chat's store contract: conversation menus (per application and app, the limit), attendants and their versions,
 * conversations (one ongoing per customer, the log newest first with its filters, expiry and retention reads).
 */
import { assert } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { ChatMenu } from "../../../core/chat/menus.ts"
import { type Attendant, newAttendant } from "../../../core/chat/model.ts"
import type { ApplicationId, Millis, SaudiMobile } from "../../../core/shared/brands.ts"
import {
  ChatAttendantsRepo,
  type ChatConversation,
  ChatConversationsRepo,
  ChatMenusRepo,
} from "../../../ports/store/chat.ts"
import { Transactor } from "../../../ports/store/transactor.ts"
import { ChatRepliesRepo } from "../../../ports/store/chat-replies.ts"
import { queued } from "../../../core/chat/replies.ts"
import { type ContractOptions, isDefect, type It, uuid } from "../fixtures.ts"
import { teamContract } from "../chat-team-contract.ts"
import { chatStoresContract } from "../chat-stores-contract.ts"

const menu = (over: Partial<ChatMenu> = {}): ChatMenu => ({
  id: uuid(),
  applicationId: uuid() as ApplicationId,
  appName: "Menus app",
  title: "Track my order",
  url: "https://shop.example/track",
  createdAt: 1_700_000_000_000 as Millis,
  updatedAt: 1_700_000_000_000 as Millis,
  ...over,
})

/** A menu with keys in an order jsonb would not keep, Arabic text and a nested level. */
const attendantMenu = {
  greeting: "أهلاً بك",
  choices: [
    { title: "Hours", id: "hours", action: { type: "answer", text: "9-5" } },
    {
      id: "more",
      title: "More",
      action: { type: "menu", choices: [{ id: "t", title: "Team", action: { type: "team" } }] },
    },
  ],
  zeta: 1,
  alpha: [1, "2", null, true],
}

export const contract = (it: It, options: ContractOptions) => {
  it.effect("chat menus: insert, get and list per application and app, oldest first", () =>
    Effect.gen(function* () {
      const repo = yield* ChatMenusRepo
      const first = menu()
      const second = menu({ applicationId: first.applicationId, createdAt: (first.createdAt + 5) as Millis })
      const otherApp = menu({ applicationId: first.applicationId, appName: "Other app" })
      for (const m of [second, first, otherApp]) assert.isTrue(yield* repo.insert(m, 10))
      assert.deepStrictEqual(yield* repo.list(first.applicationId, "Menus app"), [first, second])
      assert.deepStrictEqual(yield* repo.list(first.applicationId, "Other app"), [otherApp])
      assert.deepStrictEqual(yield* repo.list(uuid() as ApplicationId, "Menus app"), [])
      assert.deepStrictEqual(yield* repo.get(first.applicationId, "Menus app", first.id), Option.some(first))
      assert.isTrue(Option.isNone(yield* repo.get(first.applicationId, "Other app", first.id)))
      assert.isTrue(Option.isNone(yield* repo.get(uuid() as ApplicationId, "Menus app", first.id)))
      assert.isTrue(isDefect(yield* Effect.exit(repo.insert(first, 10))))
    }))

  it.effect("chat menus: insert refuses past the limit, counting the app's menus of the application only", () =>
    Effect.gen(function* () {
      const repo = yield* ChatMenusRepo
      const app = uuid() as ApplicationId
      for (let i = 0; i < 3; i++) assert.isTrue(yield* repo.insert(menu({ applicationId: app }), 3))
      assert.isFalse(yield* repo.insert(menu({ applicationId: app }), 3))
      assert.isTrue(yield* repo.insert(menu({ applicationId: app, appName: "Other app" }), 3))
      assert.strictEqual((yield* repo.list(app, "Menus app")).length, 3)
    }))

  it.effect("chat menus: two inserts racing for the last place, one is added", () =>
    Effect.gen(function* () {
      const repo = yield* ChatMenusRepo
      const tx = yield* Transactor
      const app = uuid() as ApplicationId
      yield* repo.insert(menu({ applicationId: app }), 2)
      const added = yield* Effect.all(
        [1, 2].map(() => tx.withTransaction(repo.insert(menu({ applicationId: app }), 2))),
        { concurrency: options.concurrentTransactions ? "unbounded" : 1 },
      )
      assert.deepStrictEqual(added.filter((a) => a).length, 1)
      assert.strictEqual((yield* repo.list(app, "Menus app")).length, 2)
    }))

  it.effect("chat menus: update and remove touch the app's own menu only; a rolled-back insert leaves nothing", () =>
    Effect.gen(function* () {
      const repo = yield* ChatMenusRepo
      const tx = yield* Transactor
      const m = menu()
      yield* repo.insert(m, 10)
      const changed = {
        ...m,
        title: "Returns",
        url: "https://shop.example/returns",
        updatedAt: (m.updatedAt + 9) as Millis,
      }
      yield* repo.update({ ...changed, appName: "Other app", title: "Not mine" })
      assert.deepStrictEqual(yield* repo.get(m.applicationId, m.appName, m.id), Option.some(m))
      yield* repo.update(changed)
      assert.deepStrictEqual(yield* repo.get(m.applicationId, m.appName, m.id), Option.some(changed))
      assert.isFalse(yield* repo.remove(m.applicationId, "Other app", m.id))
      assert.isTrue(yield* repo.remove(m.applicationId, m.appName, m.id))
      assert.isFalse(yield* repo.remove(m.applicationId, m.appName, m.id))
      assert.isTrue(Option.isNone(yield* repo.get(m.applicationId, m.appName, m.id)))
      const n = menu()
      const rolledBack = yield* Effect.exit(tx.withTransaction(Effect.zipRight(repo.insert(n, 10), Effect.fail("no"))))
      assert.isTrue(rolledBack._tag === "Failure")
      assert.deepStrictEqual(yield* repo.list(n.applicationId, n.appName), [])
    }))

  it.effect("chat attendants: none until saved; settings and draft saved as given, the menu's key order kept", () =>
    Effect.gen(function* () {
      const repo = yield* ChatAttendantsRepo
      const app = uuid() as ApplicationId
      assert.isTrue(Option.isNone(yield* repo.get(app)))
      const saved: Attendant = {
        ...newAttendant(app),
        enabled: true,
        mode: "after_hours",
        language: "auto",
        draft: { menu: attendantMenu, savedAt: 7 as Millis },
      }
      yield* repo.save(saved)
      const read = yield* repo.get(app, true)
      assert.deepStrictEqual(read, Option.some(saved))
      assert.strictEqual(JSON.stringify(Option.getOrThrow(read).draft?.menu), JSON.stringify(attendantMenu))
      const off: Attendant = { ...saved, enabled: false, mode: "always", language: "en" }
      yield* repo.save(off)
      assert.deepStrictEqual(yield* repo.get(app), Option.some(off))
    }))

  it.effect("chat attendants: publish sets the live version and keeps every version; save keeps the live one", () =>
    Effect.gen(function* () {
      const repo = yield* ChatAttendantsRepo
      const app = uuid() as ApplicationId
      const saved: Attendant = { ...newAttendant(app), draft: { menu: attendantMenu, savedAt: 1 as Millis } }
      yield* repo.save(saved)
      const v1 = { version: 1, publishedAt: 10, menu: attendantMenu }
      yield* repo.publish(app, v1)
      assert.deepStrictEqual(yield* repo.get(app), Option.some({ ...saved, live: v1 }))
      const v2 = { version: 2, publishedAt: 20, menu: { greeting: "v2", choices: [] } }
      yield* repo.publish(app, v2)
      const later: Attendant = {
        ...saved,
        enabled: true,
        draft: { menu: { greeting: "draft" }, savedAt: 30 as Millis },
      }
      yield* repo.save(later)
      assert.deepStrictEqual(yield* repo.get(app), Option.some({ ...later, live: v2 }))
      assert.deepStrictEqual(yield* repo.version(app, 1), Option.some(v1))
      assert.strictEqual(
        JSON.stringify(Option.getOrThrow(yield* repo.version(app, 1)).menu),
        JSON.stringify(attendantMenu),
      )
      assert.deepStrictEqual(yield* repo.version(app, 2), Option.some(v2))
      assert.isTrue(Option.isNone(yield* repo.version(app, 3)))
      assert.isTrue(isDefect(yield* Effect.exit(repo.publish(app, v2))))
    }))

  it.effect("chat attendants: as a customer's message reads it, in the customer's lock: the live version, no draft", () =>
    Effect.gen(function* () {
      const repo = yield* ChatAttendantsRepo
      const tx = yield* Transactor
      const app = uuid() as ApplicationId
      assert.isTrue(Option.isNone(yield* tx.withTransaction(repo.forCustomer(app, "+966501234567"))))
      const saved: Attendant = { ...newAttendant(app), draft: { menu: attendantMenu, savedAt: 1 as Millis } }
      yield* repo.save(saved)
      const v1 = { version: 1, publishedAt: 10, menu: attendantMenu }
      yield* repo.publish(app, v1)
      assert.deepStrictEqual(
        yield* tx.withTransaction(repo.forCustomer(app, "+966501234567")),
        Option.some({ ...saved, draft: null, live: v1 }),
      )
    }))

  it.effect("chat replies: queued claimed by the step when nothing of the customer's waits before them", () =>
    Effect.gen(function* () {
      const repo = yield* ChatRepliesRepo
      const q = { applicationId: uuid() as ApplicationId, phone: "+966551234567" as SaudiMobile }
      const at = 1_000 as Millis
      const rowsOf = (ids: ReadonlyArray<string>) =>
        queued({ ...q, conversationId: uuid(), lang: "ar" }, ids.map((id) => ({ text: id, choices: [] })), ids, at)
      const [a, b, c] = [uuid(), uuid(), uuid()]
      assert.isTrue(yield* repo.append(rowsOf([a]), 61_000 as Millis))
      // Claimed until 61 s: no one else claims it before then.
      assert.isTrue(Option.isNone(yield* repo.claimHead(q, 2_000 as Millis, 62_000 as Millis)))
      // Something queued before: not claimed, claimable in turn.
      assert.isFalse(yield* repo.append(rowsOf([b, c]), 62_000 as Millis))
      yield* repo.remove(a)
      assert.strictEqual(Option.getOrThrow(yield* repo.claimHead(q, 2_000 as Millis, 62_000 as Millis)).id, b)
      yield* repo.remove(b)
      assert.strictEqual(Option.getOrThrow(yield* repo.claimHead(q, 2_000 as Millis, 62_000 as Millis)).id, c)
      // Without `claimUntil`: never claimed.
      assert.isFalse(yield* repo.append(rowsOf([uuid()])))
    }))

  it.effect("chat attendants: a rolled-back publish leaves the live version and the versions as they were", () =>
    Effect.gen(function* () {
      const repo = yield* ChatAttendantsRepo
      const tx = yield* Transactor
      const app = uuid() as ApplicationId
      const saved: Attendant = { ...newAttendant(app), draft: { menu: attendantMenu, savedAt: 1 as Millis } }
      yield* repo.save(saved)
      const v1 = { version: 1, publishedAt: 10, menu: attendantMenu }
      const rolledBack = yield* Effect.exit(
        tx.withTransaction(Effect.zipRight(repo.publish(app, v1), Effect.fail("no"))),
      )
      assert.isTrue(rolledBack._tag === "Failure")
      assert.deepStrictEqual(yield* repo.get(app), Option.some(saved))
      assert.isTrue(Option.isNone(yield* repo.version(app, 1)))
    }))

  const conversation = (over: Partial<ChatConversation> = {}): ChatConversation => ({
    id: uuid(),
    applicationId: uuid() as ApplicationId,
    phone: "+966501234567",
    customerName: "Sara Ahmed",
    version: 1,
    level: null,
    choices: [],
    outcome: "ongoing",
    collected: {},
    startedAt: 1_800_000_000_000 as Millis,
    lastCustomerAt: 1_800_000_000_000 as Millis,
    endedAt: null,
    ...over,
  })

  it.effect("chat conversations: the customer's ongoing one, saved and replaced by id", () =>
    Effect.gen(function* () {
      const repo = yield* ChatConversationsRepo
      const c = conversation({ customerName: "نورة", choices: [{ id: "more", title: "المزيد", at: 5 as Millis }] })
      assert.isTrue(Option.isNone(yield* repo.ongoing(c.applicationId, c.phone)))
      yield* repo.save(c)
      assert.deepStrictEqual(yield* repo.ongoing(c.applicationId, c.phone, true), Option.some(c))
      assert.isTrue(Option.isNone(yield* repo.ongoing(c.applicationId, "+966500000009")))
      assert.isTrue(Option.isNone(yield* repo.ongoing(uuid() as ApplicationId, c.phone)))
      const ended: ChatConversation = {
        ...c,
        level: "more",
        outcome: "answered",
        collected: { city: "Riyadh" },
        lastCustomerAt: (c.lastCustomerAt + 9) as Millis,
        endedAt: (c.lastCustomerAt + 9) as Millis,
      }
      yield* repo.save(ended)
      assert.isTrue(Option.isNone(yield* repo.ongoing(c.applicationId, c.phone)))
      const [listed] = yield* repo.page({
        applicationId: c.applicationId,
        q: null,
        qPhone: null,
        outcomes: null,
        after: null,
        limit: 5,
      })
      assert.deepStrictEqual(listed, ended)
      assert.deepStrictEqual(yield* repo.ongoingOf(c.applicationId, 10), [])
    }))

  it.effect("chat conversations: the hand-overs (ended team) of an application at or after a time, counted", () =>
    Effect.gen(function* () {
      const repo = yield* ChatConversationsRepo
      const app = uuid() as ApplicationId
      const ended = (outcome: ChatConversation["outcome"], endedAt: number, applicationId = app) =>
        conversation({ applicationId, outcome, endedAt: endedAt as Millis, phone: `+96650${uuid().slice(0, 7)}` })
      for (
        const c of [
          ended("team", 1_000),
          ended("team", 2_000),
          ended("team", 3_000),
          ended("answered", 3_000),
          ended("team", 3_000, uuid() as ApplicationId),
        ]
      ) yield* repo.save(c)
      yield* repo.save(conversation({ applicationId: app }))
      assert.strictEqual(yield* repo.handedOverSince(app, 0 as Millis), 3)
      assert.strictEqual(yield* repo.handedOverSince(app, 2_000 as Millis), 2)
      assert.strictEqual(yield* repo.handedOverSince(app, 3_001 as Millis), 0)
    }))

  it.effect("chat conversations: the log newest first, paged, filtered by outcome and by name or phone", () =>
    Effect.gen(function* () {
      const repo = yield* ChatConversationsRepo
      const app = uuid() as ApplicationId
      const at = 1_800_000_000_000
      const rows = [
        conversation({
          applicationId: app,
          startedAt: at as Millis,
          customerName: "Sara Ahmed",
          phone: "+966501111111",
        }),
        conversation({ applicationId: app, startedAt: (at + 1) as Millis, outcome: "expired", customerName: null }),
        conversation({ applicationId: app, startedAt: (at + 1) as Millis, outcome: "team", customerName: "Omar" }),
        conversation({ applicationId: app, startedAt: (at + 2) as Millis, outcome: "stopped", phone: "+966502222222" }),
      ]
      yield* Effect.forEach(rows, repo.save)
      yield* repo.save(conversation())
      const base = { applicationId: app, q: null, qPhone: null, outcomes: null, after: null, limit: 10 }
      const tied = [rows[1], rows[2]].sort((x, y) => (x.id < y.id ? 1 : -1))
      const all = [rows[3], ...tied, rows[0]]
      assert.deepStrictEqual(yield* repo.page(base), all)
      const first = yield* repo.page({ ...base, limit: 2 })
      assert.deepStrictEqual(first, all.slice(0, 2))
      const after = { startedAt: first[1].startedAt, id: first[1].id }
      assert.deepStrictEqual(yield* repo.page({ ...base, after }), all.slice(2))
      assert.deepStrictEqual(yield* repo.page({ ...base, outcomes: ["expired", "stopped"] }), [rows[3], rows[1]])
      assert.deepStrictEqual(yield* repo.page({ ...base, q: "sara" }), [rows[3], rows[0]])
      assert.deepStrictEqual(yield* repo.page({ ...base, q: "2222" }), [])
      assert.deepStrictEqual(yield* repo.page({ ...base, q: "2222", qPhone: "2222" }), [rows[3]])
      assert.deepStrictEqual(yield* repo.page({ ...base, q: "%" }), [])
    }))

  it.effect("chat conversations: the silent ones by the customer's last message; retention by started_at", () =>
    Effect.gen(function* () {
      const repo = yield* ChatConversationsRepo
      const old = conversation({ startedAt: 3 as Millis, lastCustomerAt: 4 as Millis })
      const recent = conversation({ startedAt: 3 as Millis, lastCustomerAt: 8 as Millis })
      const ended = conversation({ startedAt: 2 as Millis, lastCustomerAt: 2 as Millis, outcome: "human" })
      yield* Effect.forEach([old, recent, ended], repo.save)
      const silent = (yield* repo.silentSince(5 as Millis, 100)).map((c) => c.id)
      assert.include(silent, old.id)
      assert.notInclude(silent, recent.id)
      assert.notInclude(silent, ended.id)
      assert.deepStrictEqual(yield* repo.ongoingOf(old.applicationId, 10), [old])
      assert.isAtLeast(yield* repo.prune(3 as Millis, 100), 1)
      const left = (app: ApplicationId) =>
        repo.page({ applicationId: app, q: null, qPhone: null, outcomes: null, after: null, limit: 5 })
      assert.deepStrictEqual(yield* left(ended.applicationId), [])
      assert.deepStrictEqual(yield* left(old.applicationId), [old])
    }))

  teamContract(it, options)
  chatStoresContract(it)
}
