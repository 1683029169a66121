/** Notifications' store contract: chat-app messages, their status moves, channel switches, consent. */
import { assert } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { AccountId, ApplicationId, SaudiMobile } from "../../../core/shared/brands.ts"
import {
  ChatChannelsRepo,
  ChatConsentRepo,
  type ChatMessage,
  ChatMessagesRepo,
} from "../../../ports/store/notifications.ts"
import { TemplateAnalysesRepo, type TemplateAnalysis } from "../../../ports/store/template-suggestions.ts"
import { Transactor } from "../../../ports/store/transactor.ts"
import { type ContractOptions, isDefect, type It, uuid } from "../fixtures.ts"

const message = (over: Partial<ChatMessage> = {}): ChatMessage => ({
  id: uuid(),
  applicationId: uuid() as ApplicationId,
  accountId: uuid() as AccountId,
  to: "+966512345678" as SaudiMobile,
  template: "order_update",
  lang: "ar",
  category: "utility",
  reference: null,
  priceHalalas: 5,
  status: "accepted",
  error: null,
  providerMessageId: null,
  createdAt: 1_700_000_000_000,
  occurredAt: 1_700_000_000_000,
  ...over,
})

export const contract = (it: It, options: ContractOptions) => {
  it.effect("chat messages: insert, get by application, find, by the network's id", () =>
    Effect.gen(function* () {
      const repo = yield* ChatMessagesRepo
      const m = message({ reference: "order-1" })
      yield* repo.insert(m)
      assert.deepStrictEqual(yield* repo.get(m.applicationId, m.id), Option.some(m))
      assert.isTrue(Option.isNone(yield* repo.get(uuid() as ApplicationId, m.id)))
      assert.deepStrictEqual(yield* repo.find(m.id), Option.some(m))
      const providerId = `wamid.${uuid()}`
      yield* repo.setProviderId(m.id, providerId)
      assert.deepStrictEqual(
        yield* repo.findByProviderId(providerId),
        Option.some({ ...m, providerMessageId: providerId }),
      )
      assert.isTrue(Option.isNone(yield* repo.findByProviderId("wamid.unknown")))
      assert.isTrue(isDefect(yield* Effect.exit(repo.insert(m))))
    }))

  it.effect("chat messages: a move applies only from the state it names; the error is kept", () =>
    Effect.gen(function* () {
      const repo = yield* ChatMessagesRepo
      const m = message()
      yield* repo.insert(m)
      const sent = yield* repo.move({ id: m.id, from: "accepted", to: "sent", error: null, at: m.createdAt + 10 })
      assert.deepStrictEqual(sent, Option.some({ ...m, status: "sent" as const, occurredAt: m.createdAt + 10 }))
      // A second report racing from `accepted` finds the message moved.
      assert.isTrue(Option.isNone(yield* repo.move({ id: m.id, from: "accepted", to: "read", error: null, at: 1 })))
      const error = { code: "131026", message: "Message undeliverable" }
      const failed = yield* repo.move({ id: m.id, from: "sent", to: "failed", error, at: m.createdAt + 20 })
      assert.deepStrictEqual(
        Option.map(failed, (x) => ({ status: x.status, error: x.error, occurredAt: x.occurredAt })),
        Option.some({ status: "failed" as const, error, occurredAt: m.createdAt + 20 }),
      )
      assert.deepStrictEqual(Option.map(yield* repo.find(m.id), (x) => x.error), Option.some(error))
      assert.isTrue(Option.isNone(yield* repo.move({ id: uuid(), from: "accepted", to: "sent", error: null, at: 1 })))
    }))

  it.effect("chat messages: remove keeps nothing; a rolled-back insert leaves nothing", () =>
    Effect.gen(function* () {
      const repo = yield* ChatMessagesRepo
      const tx = yield* Transactor
      const m = message()
      yield* repo.insert(m)
      yield* repo.remove(m.id)
      assert.isTrue(Option.isNone(yield* repo.find(m.id)))
      const n = message()
      const rolledBack = yield* Effect.exit(tx.withTransaction(Effect.zipRight(repo.insert(n), Effect.fail("no"))))
      assert.isTrue(rolledBack._tag === "Failure")
      assert.isTrue(Option.isNone(yield* repo.find(n.id)))
    }))

  it.effect("chat channels: on by default, switched per application", () =>
    Effect.gen(function* () {
      const repo = yield* ChatChannelsRepo
      const app = uuid() as ApplicationId
      assert.isTrue(yield* repo.enabled(app))
      yield* repo.setEnabled(app, false)
      assert.isFalse(yield* repo.enabled(app))
      assert.isTrue(yield* repo.enabled(uuid() as ApplicationId))
      yield* repo.setEnabled(app, true)
      assert.isTrue(yield* repo.enabled(app))
    }))

  it.effect("chat consent: per application and number, the last write wins", () =>
    Effect.gen(function* () {
      const repo = yield* ChatConsentRepo
      const app = uuid() as ApplicationId
      const to = "+966512345678" as SaudiMobile
      assert.isTrue(Option.isNone(yield* repo.get(app, to)))
      const out = { applicationId: app, to, optedOut: true, source: "inbound" as const, updatedAt: 5 }
      yield* repo.set(out)
      assert.deepStrictEqual(yield* repo.get(app, to), Option.some(out))
      assert.isTrue(Option.isNone(yield* repo.get(uuid() as ApplicationId, to)))
      assert.isTrue(Option.isNone(yield* repo.get(app, "+966512345679" as SaudiMobile)))
      const back = { ...out, optedOut: false, source: "console" as const, updatedAt: 9 }
      yield* repo.set(back)
      assert.deepStrictEqual(yield* repo.get(app, to), Option.some(back))
    }))

  const analysis = (): TemplateAnalysis => ({
    id: uuid(),
    applicationId: uuid() as ApplicationId,
    createdAt: 1_700_000_000_000,
    suggestions: ["welcome", "order_shipped", "cart_reminder"].map((key, position) => ({
      key,
      position,
      name: key,
      category: position === 2 ? "marketing" as const : "utility" as const,
      lang: "ar",
      body: `Hello {{1}}: ${key}.`,
      state: "suggested" as const,
      error: null,
      pickedAt: null,
      madeOrder: null,
    })),
  })

  it.effect("template analyses: insert, get by application with the suggestions in order", () =>
    Effect.gen(function* () {
      const repo = yield* TemplateAnalysesRepo
      const a = analysis()
      yield* repo.insert(a)
      assert.deepStrictEqual(yield* repo.get(a.applicationId, a.id), Option.some(a))
      assert.isTrue(Option.isNone(yield* repo.get(uuid() as ApplicationId, a.id)))
      assert.isTrue(Option.isNone(yield* repo.get(a.applicationId, uuid())))
      assert.isTrue(isDefect(yield* Effect.exit(repo.insert(a))))
    }))

  it.effect("template analyses: pick marks suggested and failed ones; settle records an outcome", () =>
    Effect.gen(function* () {
      const repo = yield* TemplateAnalysesRepo
      const a = analysis()
      yield* repo.insert(a)
      const states = Effect.map(
        repo.get(a.applicationId, a.id),
        Option.match({
          onNone: () => [],
          onSome: (x) => x.suggestions.map((s) => [s.key, s.state, s.error, s.pickedAt, s.madeOrder]),
        }),
      )
      yield* repo.pick(a.id, ["welcome", "order_shipped"], 10)
      yield* repo.settle(a.id, { key: "welcome", state: "made", error: null, madeOrder: 1 })
      yield* repo.settle(a.id, { key: "order_shipped", state: "failed", error: "template_exists", madeOrder: null })
      assert.deepStrictEqual(yield* states, [
        ["welcome", "made", null, 10, 1],
        ["order_shipped", "failed", "template_exists", 10, null],
        ["cart_reminder", "suggested", null, null, null],
      ])
      // A made one stays made; a failed one is picked again, its error cleared; a picked one keeps its time.
      yield* repo.pick(a.id, ["welcome", "order_shipped", "cart_reminder"], 20)
      yield* repo.pick(a.id, ["cart_reminder"], 30)
      assert.deepStrictEqual(yield* states, [
        ["welcome", "made", null, 10, 1],
        ["order_shipped", "picked", null, 20, null],
        ["cart_reminder", "picked", null, 20, null],
      ])
      yield* repo.settle(a.id, {
        key: "cart_reminder",
        state: "picked",
        error: "templates_unavailable",
        madeOrder: null,
      })
      assert.deepStrictEqual((yield* states)[2], ["cart_reminder", "picked", "templates_unavailable", 20, null])
    }))

  it.effect("template analyses: one hold at a time, given back by its holder only, lapsing at its end", () =>
    Effect.gen(function* () {
      const repo = yield* TemplateAnalysesRepo
      const a = analysis()
      yield* repo.insert(a)
      assert.isTrue(yield* repo.lease(a.id, "one", 100, 200))
      assert.isFalse(yield* repo.lease(a.id, "two", 150, 250))
      yield* repo.release(a.id, "two")
      assert.isFalse(yield* repo.lease(a.id, "two", 199, 250))
      // Lapsed at its end: another takes it, and the late holder's release leaves the new hold alone.
      assert.isTrue(yield* repo.lease(a.id, "two", 200, 300))
      yield* repo.release(a.id, "one")
      assert.isFalse(yield* repo.lease(a.id, "three", 250, 350))
      yield* repo.release(a.id, "two")
      assert.isTrue(yield* repo.lease(a.id, "three", 250, 350))
      assert.isFalse(yield* repo.lease(uuid(), "one", 0, 1))
    }))

  it.effect("template analyses: of many callers racing for the hold, exactly one wins", () =>
    Effect.gen(function* () {
      const repo = yield* TemplateAnalysesRepo
      const a = analysis()
      yield* repo.insert(a)
      const won = yield* Effect.forEach(
        Array.from({ length: 12 }, (_, i) => `holder-${i}`),
        (holder) => repo.lease(a.id, holder, 100, 200),
        { concurrency: options.concurrentTransactions ? "unbounded" : 1 },
      )
      assert.strictEqual(won.filter(Boolean).length, 1)
    }))
}
