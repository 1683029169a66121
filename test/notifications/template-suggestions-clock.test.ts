/**
 * A create call's bounds on the TestClock (DECISIONS 10 "Operations"): none started after 8 s from the call's
 * start but always the first, and a second call while one runs answers `suggestions_busy`. The service runs
 * over the memory store and a chat network whose template writes take the time the test gives them.
 */
import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Layer, Option, TestClock } from "effect"
import { ApplicationsRepoMemory } from "../../adapters/memory/accounts.ts"
import { MemoryDb } from "../../adapters/memory/db.ts"
import { TemplateAnalysesRepoMemory } from "../../adapters/memory/template-suggestions.ts"
import { makeSecrets } from "../../adapters/secrets/node-crypto.ts"
import type { TemplateWrite } from "../../core/notifications/model.ts"
import { TemplateSuggestions } from "../../core/notifications/suggestions-service.ts"
import type { ApplicationId } from "../../core/shared/brands.ts"
import { ChatNetwork } from "../../ports/chat-network.ts"
import { Secrets } from "../../ports/secrets.ts"
import { TemplateAnalysesRepo } from "../../ports/store/template-suggestions.ts"

const application = crypto.randomUUID() as ApplicationId

/** A network whose every template write runs `write` (its time on the TestClock); reads answer at once. */
const slowNetwork = (write: (t: TemplateWrite) => Effect.Effect<void>) =>
  Layer.succeed(ChatNetwork, {
    number: () => Effect.succeed(Option.some({ number: "+966555000111", connected: true })),
    templates: () => Effect.succeed([]),
    writeTemplate: (_, t) => write(t),
    deleteTemplate: () => Effect.void,
    send: () => Effect.dieMessage("not sent here"),
    sendSession: () => Effect.dieMessage("not sent here"),
    webhook: Option.none(),
  })

const layerOf = (write: (t: TemplateWrite) => Effect.Effect<void>) =>
  TemplateSuggestions.Default.pipe(
    Layer.provideMerge(Layer.mergeAll(TemplateAnalysesRepoMemory, ApplicationsRepoMemory)),
    Layer.provide(slowNetwork(write)),
    Layer.provide(Layer.succeed(Secrets, makeSecrets("test"))),
    Layer.provide(MemoryDb.layer),
  )

const keys = ["a", "b", "c", "d"]

/** An analysis of four suggestions, `a` to `d`. */
const analysis = Effect.gen(function* () {
  const id = crypto.randomUUID()
  yield* Effect.flatMap(TemplateAnalysesRepo, (r) =>
    r.insert({
      id,
      applicationId: application,
      createdAt: 0,
      suggestions: keys.map((key, position) => ({
        key,
        position,
        name: `tpl_${key}`,
        category: "utility",
        lang: "ar",
        body: "Hello {{1}}.",
        state: "suggested",
        error: null,
        pickedAt: null,
        madeOrder: null,
      })),
    }))
  return id
})

const call = (id: string) => ({
  baseUrl: "http://test",
  again: { operation: "whatsapp.template_suggestions.create", method: "POST", path: `/v1/…/${id}/create` },
})

describe("a create call's time bounds (TestClock)", () => {
  it.effect("writes of 5 s each: the first at 0 s, the second at 5 s, none at 10 s (past 8 s)", () =>
    Effect.gen(function* () {
      const t = yield* TemplateSuggestions
      const id = yield* analysis
      const fiber = yield* Effect.fork(t.create(application, id, keys, call(id)))
      yield* TestClock.adjust("20 seconds")
      const answer = yield* Fiber.join(fiber)
      assert.deepStrictEqual(answer.data, { made: ["a", "b"], failed: [], remaining: ["c", "d"], per_call: 3 })
      assert.deepStrictEqual(answer.next, call(id).again)
    }).pipe(Effect.provide(layerOf(() => Effect.sleep("5 seconds")))))

  it.effect("a write that starts exactly at 8 s still starts; at least one starts however long the first takes", () =>
    Effect.gen(function* () {
      const t = yield* TemplateSuggestions
      const id = yield* analysis
      const fiber = yield* Effect.fork(t.create(application, id, keys, call(id)))
      yield* TestClock.adjust("60 seconds")
      const answer = yield* Fiber.join(fiber)
      // 4 s each: started at 0, 4 and 8 s; the fourth would be past the per-call limit of 3 anyway.
      assert.deepStrictEqual(answer.data.made, ["a", "b", "c"])
      assert.deepStrictEqual(answer.data.remaining, ["d"])
    }).pipe(Effect.provide(layerOf(() => Effect.sleep("4 seconds")))))

  it.effect("the first write is made even when it alone takes longer than 8 s", () =>
    Effect.gen(function* () {
      const t = yield* TemplateSuggestions
      const id = yield* analysis
      const fiber = yield* Effect.fork(t.create(application, id, ["c", "a"], call(id)))
      yield* TestClock.adjust("30 seconds")
      const answer = yield* Fiber.join(fiber)
      // Picked together: made in their order in the analysis.
      assert.deepStrictEqual(answer.data, { made: ["a"], failed: [], remaining: ["c"], per_call: 3 })
    }).pipe(Effect.provide(layerOf(() => Effect.sleep("12 seconds")))))
})

describe("one call at a time on an analysis", () => {
  const writing = Effect.runSync(Deferred.make<void>())
  const gate = Effect.runSync(Deferred.make<void>())
  it.effect("a second call while the first writes: 409 suggestions_busy; after it, the hold is free again", () =>
    Effect.gen(function* () {
      const t = yield* TemplateSuggestions
      const id = yield* analysis
      const first = yield* Effect.fork(t.create(application, id, ["a"], call(id)))
      yield* Deferred.await(writing)
      const busy = yield* Effect.flip(t.create(application, id, ["b"], call(id)))
      assert.strictEqual(busy._tag, "suggestions_busy")
      assert.deepStrictEqual((busy as { next?: unknown }).next, call(id).again)
      yield* Deferred.succeed(gate, undefined)
      const answer = yield* Fiber.join(first)
      assert.deepStrictEqual(answer.data.made, ["a"])
      const after = yield* t.create(application, id, ["b"], call(id))
      assert.deepStrictEqual(after.data.made, ["a", "b"])
    }).pipe(Effect.provide(layerOf(() => Effect.zipRight(Deferred.succeed(writing, undefined), Deferred.await(gate))))))
})
