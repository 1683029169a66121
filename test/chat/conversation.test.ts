/**
 * The conversation engine (core/chat/conversation.ts) as a pure function, without any layer: taps never leave the
 * version a conversation began with, an ended conversation takes no more events, every choice is reachable from
 * the greeting by taps, expiry falls exactly 24 hours after the customer's last message, STOP and switching off
 * end it `stopped`, and `after_hours` answers only when no team member is free.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  allChoices,
  type Conversation,
  type Event,
  handOverNotices,
  levelChoices,
  silenceMillis,
  type Situation,
  step,
  teamFree,
} from "../../core/chat/conversation.ts"
import { validMenu } from "./arbitraries.ts"

const phone = "+966501234567"
const t0 = Date.UTC(2026, 0, 1)

const on = (menu: unknown, now = t0, version = 1): Situation => ({
  now,
  enabled: true,
  mode: "always",
  teamFree: false,
  live: { version, menu },
  menu,
})

const hello: Event = { _tag: "Inbound", text: "hello", name: "Sara" }
const tap = (choiceId: string): Event => ({ _tag: "Inbound", choiceId })

const started = (menu: unknown) => step(null, hello, on(menu), phone, "c1").conversation!

/** The taps that lead from the greeting to the choice with this id. */
const pathTo = (choices: ReadonlyArray<any>, id: string): Array<string> | undefined => {
  for (const c of choices) {
    if (c.id === id) return [c.id]
    if (c.action.type === "menu") {
      const rest = pathTo(c.action.choices, id)
      if (rest) return [c.id, ...rest]
    }
  }
  return undefined
}

describe("conversation engine", () => {
  it("greets a first message while on with a version live, and not otherwise", () => {
    fc.assert(fc.property(validMenu, (menu) => {
      const first = step(null, hello, on(menu), phone, "c1")
      expect(first.conversation).toMatchObject({ id: "c1", version: 1, outcome: "ongoing", customerName: "Sara" })
      expect(first.messages).toEqual([{
        text: menu.greeting,
        choices: menu.choices.map((c) => ({ id: c.id, title: c.title, description: c.description ?? null })),
      }])
      expect(step(null, hello, { ...on(menu), enabled: false }, phone, "c1").conversation).toBeNull()
      expect(step(null, hello, { ...on(menu), live: null }, phone, "c1").messages).toEqual([])
      expect(step(null, { _tag: "Inbound", text: " STOP " }, on(menu), phone, "c1").conversation).toBeNull()
    }))
  })

  it("every choice is reachable from the greeting by taps, each ending as its action says", () => {
    fc.assert(fc.property(validMenu, (menu) => {
      for (const target of allChoices(menu.choices as any)) {
        let c: Conversation | null = started(menu)
        const taps = pathTo(menu.choices, target.id)!
        let last = step(c, tap(taps[0]), on(menu), phone, "x")
        for (const id of taps.slice(1)) {
          c = last.conversation
          last = step(c, tap(id), on(menu), phone, "x")
        }
        const after = last.conversation!
        expect(after.choices.map((x) => x.id)).toEqual(taps)
        const type = target.action.type
        if (type === "menu") {
          expect(after.outcome).toBe("ongoing")
          expect(last.messages[0].choices.map((x) => x.id)).toEqual(target.action.choices.map((x: any) => x.id))
        } else {
          expect(after.outcome).toBe(type === "answer" ? "answered" : type)
          expect(last.ended).toEqual(after)
          if (type === "answer") expect(last.messages).toEqual([{ text: target.action.text, choices: [] }])
        }
      }
    }))
  })

  it("taps never leave the version the conversation began with", () => {
    fc.assert(fc.property(validMenu, validMenu, fc.array(fc.nat(), { maxLength: 8 }), (v1, v2, picks) => {
      let c: Conversation | null = started(v1)
      for (const pick of picks) {
        if (c === null || c.outcome !== "ongoing") break
        // The live version is now v2, the conversation's own menu still v1; the customer may tap v2's ids too.
        const offered = [...levelChoices(v1, c.level), ...allChoices(v2.choices as any)]
        const id = offered[pick % offered.length].id
        const s = { ...on(v2, t0 + 1000, 2), menu: v1 }
        const next = step(c, tap(id), s, phone, "x")
        c = next.conversation
        expect(c?.version).toBe(1)
        for (const m of next.messages) {
          for (const choice of m.choices) {
            expect(allChoices(v1.choices as any).some((x) => x.id === choice.id)).toBe(true)
          }
        }
        for (const t of c?.choices ?? []) expect(allChoices(v1.choices as any).map((x) => x.id)).toContain(t.id)
      }
    }))
  })

  it("an ended conversation takes no more events", () => {
    const events = fc.oneof(
      fc.constant<Event>({ _tag: "Tick" }),
      fc.constant<Event>({ _tag: "HumanReply" }),
      fc.constant<Event>({ _tag: "SwitchedOff" }),
      fc.string().map((text): Event => ({ _tag: "Inbound", text })),
      fc.string().map((choiceId): Event => ({ _tag: "Inbound", choiceId })),
    )
    fc.assert(fc.property(validMenu, fc.array(events, { maxLength: 10 }), (menu, later) => {
      const ended = step(started(menu), { _tag: "HumanReply" }, on(menu, t0 + 5), phone, "x").conversation!
      expect(ended.outcome).toBe("human")
      for (const e of later) {
        const next = step(ended, e, on(menu, t0 + 10), phone, "c2")
        expect(next.ended).toBeNull()
        // A new message starts a new conversation; the ended one is left as it was.
        if (next.conversation?.id === ended.id) expect(next.conversation).toBe(ended)
        expect(ended.outcome).toBe("human")
      }
    }))
  })

  it("expires exactly 24 hours after the customer's last message", () => {
    fc.assert(fc.property(validMenu, fc.integer({ min: 1, max: silenceMillis - 1 }), (menu, later) => {
      const c = step(started(menu), { _tag: "Inbound", text: "hi" }, on(menu, t0 + later), phone, "x").conversation!
      expect(c.lastCustomerAt).toBe(t0 + later)
      const before = step(c, { _tag: "Tick" }, on(menu, t0 + later + silenceMillis - 1), phone, "x")
      expect(before.conversation?.outcome).toBe("ongoing")
      const at = step(c, { _tag: "Tick" }, on(menu, t0 + later + silenceMillis), phone, "x")
      expect(at.ended).toMatchObject({ outcome: "expired", endedAt: t0 + later + silenceMillis })
      // A message after the expiry ends the old one and starts a new one.
      const again = step(c, hello, on(menu, t0 + later + silenceMillis + 1), phone, "c2")
      expect(again.ended?.outcome).toBe("expired")
      expect(again.conversation).toMatchObject({ id: "c2", outcome: "ongoing" })
    }))
  })

  it("a STOP word or switching off ends it stopped", () => {
    const menu = fc.sample(validMenu, 1)[0]
    const stop = step(started(menu), { _tag: "Inbound", text: "إيقاف" }, on(menu, t0 + 1), phone, "x")
    expect(stop.ended).toMatchObject({ outcome: "stopped", endedAt: t0 + 1 })
    expect(stop.messages).toEqual([])
    const off = step(started(menu), { _tag: "SwitchedOff" }, on(menu, t0 + 2), phone, "x")
    expect(off.ended).toMatchObject({ outcome: "stopped", endedAt: t0 + 2 })
  })
})

describe("after_hours: the attendant answers only when no team member is free", () => {
  it("a member is free while the active members outnumber the recent hand-overs", () => {
    fc.assert(fc.property(fc.nat(20), fc.nat(20), (members, handOvers) => {
      expect(teamFree(members, handOvers)).toBe(members > handOvers)
    }))
    expect(teamFree(0, 0)).toBe(false)
  })

  it("a first message starts a conversation in after_hours exactly when no member is free; always, whatever", () => {
    fc.assert(fc.property(
      validMenu,
      fc.constantFrom("always" as const, "after_hours" as const),
      fc.nat(6),
      fc.nat(6),
      (menu, mode, members, handOvers) => {
        const free = teamFree(members, handOvers)
        const first = step(null, hello, { ...on(menu), mode, teamFree: free }, phone, "c1")
        const answers = mode === "always" || !free
        expect(first.conversation === null).toBe(!answers)
        expect(first.messages.length).toBe(answers ? 1 : 0)
      },
    ))
  })

  it("an ongoing conversation goes on when a member becomes free meanwhile", () => {
    fc.assert(fc.property(validMenu, (menu) => {
      const afterHours = { ...on(menu), mode: "after_hours" as const }
      const c = step(null, hello, afterHours, phone, "c1").conversation!
      const next = step(c, { _tag: "Inbound", text: "still there?" }, { ...afterHours, teamFree: true }, phone, "x")
      expect(next.conversation).toMatchObject({ id: "c1", outcome: "ongoing" })
      expect(next.messages).toHaveLength(1)
    }))
  })
})

describe("the hand-over: the customer gets a short notice, Arabic or English per the attendant's language", () => {
  const menu = {
    greeting: "Welcome",
    choices: [
      { id: "talk", title: "Talk to us", action: { type: "team" } },
      { id: "kalam", title: "كلمنا", action: { type: "team" } },
    ],
  }
  it("one notice, in the attendant's language (auto: as the tapped choice's title reads), and the end is team", () => {
    const cases = [
      ["ar", "talk", handOverNotices.ar],
      ["en", "kalam", handOverNotices.en],
      [undefined, "talk", handOverNotices.ar],
      ["auto", "talk", handOverNotices.en],
      ["auto", "kalam", handOverNotices.ar],
    ] as const
    for (const [language, id, text] of cases) {
      const handed = step(started(menu), tap(id), { ...on(menu, t0 + 1), language }, phone, "x")
      expect(handed.ended).toMatchObject({ outcome: "team", endedAt: t0 + 1 })
      expect(handed.messages).toEqual([{ text, choices: [] }])
    }
  })

  it("every team choice of any valid menu sends exactly one notice, and nothing after", () => {
    fc.assert(fc.property(validMenu, (menu) => {
      for (const target of allChoices(menu.choices as any).filter((c) => c.action.type === "team")) {
        let last = step(started(menu), tap(pathTo(menu.choices, target.id)![0]), on(menu), phone, "x")
        for (const id of pathTo(menu.choices, target.id)!.slice(1)) {
          last = step(last.conversation, tap(id), on(menu), phone, "x")
        }
        expect(last.ended?.outcome).toBe("team")
        expect(last.messages).toEqual([{ text: handOverNotices.ar, choices: [] }])
        expect(step(last.ended, { _tag: "Tick" }, on(menu, t0 + 5), phone, "y").messages).toEqual([])
      }
    }))
  })
})
