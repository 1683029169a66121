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
  void options
}
