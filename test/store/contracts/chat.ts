/** Chat's store contract: conversation menus (per application and app, the limit), attendants and their versions. */
import { assert } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { ChatMenu } from "../../../core/chat/menus.ts"
import { type Attendant, newAttendant } from "../../../core/chat/model.ts"
import type { ApplicationId, Millis } from "../../../core/shared/brands.ts"
import { ChatAttendantsRepo, ChatMenusRepo } from "../../../ports/store/chat.ts"
import { Transactor } from "../../../ports/store/transactor.ts"
import { type ContractOptions, isDefect, type It, uuid } from "../fixtures.ts"

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
}
