/** The chat-network simulator's store contract: numbers, template copies, readability, the log. */
import { assert } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { NetworkTemplate } from "../../../core/notifications/model.ts"
import type { ApplicationId, SaudiMobile } from "../../../core/shared/brands.ts"
import { SimulatedChatRepo } from "../../../ports/store/chat-simulator.ts"
import { type It, uuid } from "../fixtures.ts"

const template = (name: string, lang: string, over: Partial<NetworkTemplate> = {}): NetworkTemplate => ({
  name,
  lang,
  category: "utility",
  status: "approved",
  reason: null,
  body: "Order {{order_id}} is on its way",
  header: { type: "text", text: "Hello {{1}}" },
  footer: null,
  buttons: [{ type: "url", text: "Track", url: "https://x.sa/t/{{1}}" }],
  ...over,
})

export const contract = (it: It) => {
  it.effect("simulated chat: a number is attached, reconnected, detached", () =>
    Effect.gen(function* () {
      const sim = yield* SimulatedChatRepo
      const app = uuid() as ApplicationId
      assert.isTrue(Option.isNone(yield* sim.number(app)))
      yield* sim.setNumber(app, Option.some({ number: "+966511111111", connected: false }))
      assert.deepStrictEqual(yield* sim.number(app), Option.some({ number: "+966511111111", connected: false }))
      yield* sim.setNumber(app, Option.some({ number: "+966511111112", connected: true }))
      assert.deepStrictEqual(yield* sim.number(app), Option.some({ number: "+966511111112", connected: true }))
      yield* sim.setNumber(app, Option.none())
      assert.isTrue(Option.isNone(yield* sim.number(app)))
    }))

  it.effect("simulated chat: templates by name then language, replaced, deleted by language or all", () =>
    Effect.gen(function* () {
      const sim = yield* SimulatedChatRepo
      const app = uuid() as ApplicationId
      const b = template("b_update", "en")
      const aEn = template("a_offer", "en", { category: "marketing", buttons: [] })
      const aAr = template("a_offer", "ar", { category: "marketing", header: { type: "image" } })
      yield* Effect.forEach([b, aEn, aAr], (t) => sim.putTemplate(app, t))
      assert.deepStrictEqual(yield* sim.templates(app), [aAr, aEn, b])
      assert.deepStrictEqual(yield* sim.templates(uuid() as ApplicationId), [])
      const paused = { ...b, status: "paused" as const, reason: "Low quality" }
      yield* sim.putTemplate(app, paused)
      assert.deepStrictEqual(yield* sim.templates(app), [aAr, aEn, paused])
      assert.strictEqual(yield* sim.deleteTemplate(app, "a_offer", "en"), 1)
      assert.deepStrictEqual(yield* sim.templates(app), [aAr, paused])
      assert.strictEqual(yield* sim.deleteTemplate(app, "a_offer", "en"), 0)
      yield* sim.putTemplate(app, aEn)
      assert.strictEqual(yield* sim.deleteTemplate(app, "a_offer", undefined), 2)
      assert.deepStrictEqual(yield* sim.templates(app), [paused])
    }))

  it.effect("simulated chat: the template list is readable unless switched off", () =>
    Effect.gen(function* () {
      const sim = yield* SimulatedChatRepo
      const app = uuid() as ApplicationId
      assert.isTrue(yield* sim.readable(app))
      yield* sim.setReadable(app, false)
      yield* sim.setReadable(app, false)
      assert.isFalse(yield* sim.readable(app))
      assert.isTrue(yield* sim.readable(uuid() as ApplicationId))
      yield* sim.setReadable(app, true)
      assert.isTrue(yield* sim.readable(app))
    }))

  it.effect("simulated chat: the log is newest first, per number or all, limited", () =>
    Effect.gen(function* () {
      const sim = yield* SimulatedChatRepo
      const app = uuid() as ApplicationId
      const to = `+9665${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}` as SaudiMobile
      const m = (sentAt: number, text: string) => ({
        id: uuid(),
        applicationId: app,
        to,
        template: "t",
        lang: "ar",
        text,
        sentAt,
      })
      const [m1, m2, m3] = [m(1_000, "one"), m(3_000, "two"), m(3_000, "three")]
      yield* Effect.forEach([m1, m2, m3], sim.logSend)
      assert.deepStrictEqual(yield* sim.listSent(to, 10), [m3, m2, m1])
      assert.deepStrictEqual(yield* sim.listSent(to, 1), [m3])
      const all = yield* sim.listSent(undefined, 1000)
      assert.isTrue([m1, m2, m3].every((x) => all.some((y) => y.id === x.id)))
    }))
}
