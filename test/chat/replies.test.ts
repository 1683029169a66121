/**
 * The auto-attendant's replies (core/chat/replies.ts, ports/store/chat-replies.ts, the Cloud API's session message
 * bodies in adapters/chat/cloud-api-wire.ts): every level a valid menu can show is a session message the Cloud API
 * takes, whose tappable ids are the choices'; a customer's replies leave in order, one sender at a time; a failed
 * one waits 5 s, doubling up to an hour.
 */
import { Effect, Layer, Option } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ChatRepliesRepoMemory } from "../../adapters/memory/chat-replies.ts"
import { MemoryDb } from "../../adapters/memory/db.ts"
import { sessionBody } from "../../adapters/chat/cloud-api-wire.ts"
import { labelOf, listButtonLabels, queued, retryDelay } from "../../core/chat/replies.ts"
import { Chat } from "../../core/limits.ts"
import type { ApplicationId, Millis, SaudiMobile } from "../../core/shared/brands.ts"
import { ChatRepliesRepo } from "../../ports/store/chat-replies.ts"
import { sessionProblem } from "../notifications/cloud-api-standin.ts"
import { text } from "./arbitraries.ts"

const idChars = fc.constantFrom(..."abcXYZ019_-".split(""))
/** A level's choices as a valid menu can hold them: 1-10, ids unique of 1-200, titles 1-24, descriptions ≤ 72. */
const level = fc.uniqueArray(
  fc.record({
    id: fc.string({ unit: idChars, minLength: 1, maxLength: Chat.choiceIdMax }),
    title: text(1, Chat.choiceTitleMax),
    description: fc.option(text(1, Chat.choiceDescriptionMax), { nil: null }),
  }),
  { minLength: 0, maxLength: Chat.choicesPerLevel, selector: (c) => c.id },
)

const send = (choices: ReadonlyArray<{ id: string; title: string; description: string | null }>, body: string) => ({
  application: "00000000-0000-4000-8000-000000000001" as ApplicationId,
  messageId: "00000000-0000-4000-8000-000000000002",
  to: "+966551234567" as SaudiMobile,
  text: body,
  choices,
  listButton: listButtonLabels.ar,
  source: "attendant",
  lang: "ar",
})

/** The ids a customer can tap in a Cloud API session body, in order. */
const tappable = (b: any): ReadonlyArray<string> =>
  b.type === "text"
    ? []
    : b.interactive.type === "button"
    ? b.interactive.action.buttons.map((x: any) => x.reply.id)
    : b.interactive.action.sections.flatMap((x: any) => x.rows.map((r: any) => r.id))

describe("every level a valid menu shows is a session message the Cloud API takes; its taps answer the choices' ids", () => {
  it("text without choices, reply buttons for up to 3 short ones without descriptions, else a list", () => {
    fc.assert(
      fc.property(level, text(1, Chat.greetingMax), (choices, body) => {
        const b = sessionBody(send(choices, body)) as any
        expect(sessionProblem(b)).toBeUndefined()
        expect(b.to).toBe("966551234567")
        expect(tappable(b)).toEqual(choices.map((c) => c.id))
        const buttons = choices.length > 0 && choices.length <= 3 &&
          choices.every((c) => c.description === null && [...c.title].length <= 20)
        expect(b.type === "text" ? "text" : b.interactive.type).toBe(
          choices.length === 0 ? "text" : buttons ? "button" : "list",
        )
      }),
      { numRuns: 300 },
    )
  })

  it("a list's button is labelled in the attendant's language (`auto`: as the text reads)", () => {
    expect(labelOf("ar", "Welcome")).toBe(listButtonLabels.ar)
    expect(labelOf("en", "أهلاً")).toBe(listButtonLabels.en)
    expect(labelOf("auto", "أهلاً بك")).toBe(listButtonLabels.ar)
    expect(labelOf("auto", "Welcome")).toBe(listButtonLabels.en)
  })
})

describe("a failed send is tried again after 5 s, doubling up to an hour", () => {
  it("5 s, 10 s, 20 s … capped at 3,600 s", () => {
    expect([1, 2, 3, 4].map(retryDelay)).toEqual([5_000, 10_000, 20_000, 40_000])
    expect(retryDelay(10)).toBe(2_560_000)
    expect(retryDelay(11)).toBe(60 * 60_000)
    expect(retryDelay(1000)).toBe(60 * 60_000)
  })
})

const run = <A>(e: Effect.Effect<A, never, ChatRepliesRepo>) =>
  Effect.runPromise(Effect.provide(e, ChatRepliesRepoMemory.pipe(Layer.provide(MemoryDb.layer))))

describe("a customer's replies leave in order: only the head of the queue is claimed, by one sender", () => {
  const q = {
    applicationId: "00000000-0000-4000-8000-00000000000a" as ApplicationId,
    phone: "+966551234567" as SaudiMobile,
  }
  const messages = [{ text: "greeting", choices: [] }, { text: "answer", choices: [] }]
  const rows = queued({ ...q, conversationId: "c", lang: "ar" }, messages, ["r1", "r2"], 1_000 as Millis)

  it("the head is claimed once; while held, or waiting after a failure, nothing behind it leaves", async () => {
    const seen = await run(Effect.gen(function* () {
      const repo = yield* ChatRepliesRepo
      yield* repo.append(rows)
      const first = yield* repo.claimHead(q, 1_000 as Millis, 61_000 as Millis)
      const meanwhile = yield* repo.claimHead(q, 2_000 as Millis, 62_000 as Millis)
      yield* repo.retryAt("r1", 6_000 as Millis, 1)
      const early = yield* repo.claimHead(q, 5_999 as Millis, 65_999 as Millis)
      const dueEarly = yield* repo.dueQueues(5_999 as Millis, 10)
      const nextDue = yield* repo.earliestDue
      const again = yield* repo.claimHead(q, 6_000 as Millis, 66_000 as Millis)
      yield* repo.remove("r1")
      const second = yield* repo.claimHead(q, 6_000 as Millis, 66_000 as Millis)
      return { first, meanwhile, early, dueEarly, nextDue, again, second }
    }))
    expect(Option.getOrThrow(seen.first).id).toBe("r1")
    expect(Option.isNone(seen.meanwhile)).toBe(true)
    expect(Option.isNone(seen.early)).toBe(true)
    expect(seen.dueEarly).toEqual([])
    expect(Option.getOrThrow(seen.nextDue)).toBe(6_000)
    expect(Option.getOrThrow(seen.again)).toMatchObject({ id: "r1", attempts: 1 })
    expect(Option.getOrThrow(seen.second).message.text).toBe("answer")
  })

  it("a claim whose sender is gone is free again when it ends", async () => {
    const seen = await run(Effect.gen(function* () {
      const repo = yield* ChatRepliesRepo
      yield* repo.append(rows)
      yield* repo.claimHead(q, 1_000 as Millis, 61_000 as Millis)
      const due = yield* repo.earliestDue
      const before = yield* repo.claimHead(q, 60_999 as Millis, 120_999 as Millis)
      const after = yield* repo.claimHead(q, 61_000 as Millis, 121_000 as Millis)
      return { due, before, after }
    }))
    expect(Option.getOrThrow(seen.due)).toBe(61_000)
    expect(Option.isNone(seen.before)).toBe(true)
    expect(Option.getOrThrow(seen.after).id).toBe("r1")
  })
})
