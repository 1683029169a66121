/**
 * The auto-attendant's menu validator (core/chat/attendant.ts, DECISIONS 9.2, 17), a pure function: property tests
 * that any menu it accepts publishes, and that a menu over exactly one limit yields exactly the problem for that
 * limit (or, for the 64 KB and 256-choice limits, exactly the `too_large` refusal); then each problem code, its
 * `choice_id`, `field` and `max`, and the order they come in.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  choiceCount,
  type LiveMenu,
  menuBytes,
  menuProblems,
  menuRefusal,
  publishDecision,
} from "../../core/chat/attendant.ts"
import { Chat } from "../../core/limits.ts"
import { type Choice, copy, type Menu, noStore, only, overOneLimit, reversed, validMenu, walk } from "./arbitraries.ts"

describe("any menu the validator accepts publishes", () => {
  it("no refusal, no problem; publish makes version n+1; publishing it again answers that version", () => {
    fc.assert(
      fc.property(validMenu, fc.integer({ min: 0, max: 50 }), (menu, n) => {
        expect(menuRefusal(menu)).toBeUndefined()
        expect(menuProblems(menu, noStore)).toEqual([])
        const before: LiveMenu | null = n === 0 ? null : { version: n, publishedAt: 1, menu: { greeting: "old" } }
        const decided = publishDecision(menu, before, noStore, 1_000)
        expect(decided).toEqual({ _tag: "Publish", live: { version: n + 1, publishedAt: 1_000, menu } })
        if (decided._tag !== "Publish") return
        // The same menu, its keys in another order, is the live one: nothing new.
        expect(publishDecision(reversed(menu), decided.live, noStore, 2_000)).toEqual({
          _tag: "Unchanged",
          live: decided.live,
        })
      }),
      { numRuns: 200 },
    )
  })

  it("an assistant choice publishes once the application has a store", () => {
    fc.assert(
      fc.property(validMenu, fc.nat(), (menu, at) => {
        const m = copy(menu)
        const choices = walk(m.choices).map((p) => p.choice).filter((c) => c.action.type === "answer")
        fc.pre(choices.length > 0)
        const chosen = choices[at % choices.length]
        chosen.action = { type: "assistant" }
        expect(menuProblems(m, { hasStore: true })).toEqual([])
        expect(only(menuProblems(m, noStore))).toEqual([["no_assistant", chosen.id, "action", null]])
      }),
    )
  })
})

describe("any menu over exactly one limit yields exactly the problem for that limit", () => {
  it("greeting 1,024, title 24, description 72, answer 1,024, id 200, 10 on a level, 3 levels", () => {
    fc.assert(
      fc.property(overOneLimit, ({ menu, expected }) => {
        fc.pre(expected.length > 0 && menuBytes(menu) <= Chat.attendantMenuMaxBytes)
        expect(menuRefusal(menu)).toBeUndefined()
        expect(only(menuProblems(menu, noStore))).toEqual(expected)
        expect(publishDecision(menu, null, noStore, 1)._tag).toBe("NotReady")
      }),
      { numRuns: 300 },
    )
  })

  /** A menu within every per-level limit holding `n` choices in all (10 at the top, 9 menus of up to 10, …). */
  const menuOf = (n: number): Menu => {
    const answer = (i: number): Choice => ({ id: `a${i}`, title: "Answer", action: { type: "answer", text: "Yes" } })
    let next = 0
    const level = (depth: number, room: number): Array<Choice> => {
      const out: Array<Choice> = []
      while (out.length < Chat.choicesPerLevel && next < room) {
        const c = answer(next++)
        out.push(c)
        if (depth < Chat.maxDepth && next < room) c.action = { type: "menu", choices: level(depth + 1, room) }
      }
      return out
    }
    const choices = [{ id: "team", title: "Team", action: { type: "team" } }, ...level(1, n - 1)]
    return { greeting: "Hello", choices }
  }

  it("256 choices in all are accepted; 257 and more are too_large, refused before any problem", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Chat.attendantMaxChoices }), (n) => {
        const menu = menuOf(n)
        expect(choiceCount(menu)).toBe(n)
        expect(menuRefusal(menu)).toBeUndefined()
        expect(menuProblems(menu, noStore)).toEqual([])
      }),
      { numRuns: 40 },
    )
    fc.assert(
      fc.property(fc.integer({ min: Chat.attendantMaxChoices + 1, max: 600 }), (n) => {
        const menu = menuOf(n)
        expect(choiceCount(menu)).toBe(n)
        expect(menuBytes(menu)).toBeLessThanOrEqual(Chat.attendantMenuMaxBytes)
        expect(menuRefusal(menu)).toBe("too_large")
      }),
      { numRuns: 40 },
    )
  })

  /** A menu of exactly `bytes` bytes of JSON, its problems none but size. */
  const menuOfBytes = (bytes: number): Menu => {
    const menu: Menu = { greeting: "Hello", choices: [{ id: "team", title: "Team", action: { type: "team" } }] }
    for (let i = 0; i < 9; i++) {
      const choices: Array<Choice> = []
      for (let j = 0; j < 10; j++) choices.push({ id: `a${i}_${j}`, title: "A", action: { type: "answer", text: "" } })
      menu.choices.push({ id: `m${i}`, title: "M", action: { type: "menu", choices } })
    }
    const answers = walk(menu.choices).filter((p) => p.choice.action.type === "answer").map((p) => p.choice)
    // Spread evenly: every answer holds some text, none more than 1,024 characters.
    const left = bytes - menuBytes(menu)
    answers.forEach((a, i) => {
      a.action.text = "a".repeat(Math.floor(left / answers.length) + (i < left % answers.length ? 1 : 0))
    })
    return menu
  }

  it("64 KB of JSON (65,536 bytes) is accepted; one byte more is too_large", () => {
    fc.assert(
      fc.property(fc.integer({ min: 8_000, max: Chat.attendantMenuMaxBytes }), (n) => {
        const menu = menuOfBytes(n)
        expect(menuBytes(menu)).toBe(n)
        expect(menuRefusal(menu)).toBeUndefined()
        expect(menuProblems(menu, noStore)).toEqual([])
      }),
      { numRuns: 20 },
    )
    const exact = menuOfBytes(Chat.attendantMenuMaxBytes)
    expect([menuBytes(exact), menuRefusal(exact)]).toEqual([65_536, undefined])
    fc.assert(
      fc.property(fc.integer({ min: Chat.attendantMenuMaxBytes + 1, max: 90_000 }), (n) => {
        const menu = menuOfBytes(n)
        expect(menuBytes(menu)).toBe(n)
        expect(menuRefusal(menu)).toBe("too_large")
      }),
      { numRuns: 20 },
    )
  })
})

describe("each problem code (DECISIONS 9.2, 17)", () => {
  const team = { id: "team", title: "Team", action: { type: "team" } }

  it("a menu that is not an object, or none: not_object, required", () => {
    expect([[], "menu", 1, true].map(menuRefusal)).toEqual(["not_object", "not_object", "not_object", "not_object"])
    expect([undefined, null].map(menuRefusal)).toEqual(["required", "required"])
    expect(menuRefusal({})).toBeUndefined()
  })

  it("an empty object: greeting_empty, no_choices, no_team_choice, in that order, at the top level", () => {
    expect(only(menuProblems({}, noStore))).toEqual([
      ["greeting_empty", null, "greeting", null],
      ["no_choices", null, "choices", null],
      ["no_team_choice", null, "choices", null],
    ])
  })

  it("each choice's problems in order, depth first; duplicates across levels; nested no_choices", () => {
    const menu = {
      greeting: "   ",
      choices: [
        { id: "a", title: "", description: "d".repeat(73), action: { type: "answer", text: " " } },
        {
          id: "bad id!",
          title: "t".repeat(25),
          action: {
            type: "menu",
            choices: [
              { id: "a", title: "Dup", action: { type: "answer", text: "x".repeat(1025) } },
              { id: "empty", title: "Empty", action: { type: "menu", choices: [] } },
              { title: "No id", action: { type: "wave" } },
            ],
          },
        },
        { id: "shop", title: "Shop", action: { type: "assistant" } },
        { id: "broken", title: "Broken", action: "team" },
        team,
      ],
    }
    expect(only(menuProblems(menu, noStore))).toEqual([
      ["greeting_empty", null, "greeting", null],
      ["title_empty", "a", "title", null],
      ["description_long", "a", "description", 72],
      ["answer_empty", "a", "action.text", null],
      ["id_invalid", "bad id!", "id", null],
      ["title_long", "bad id!", "title", 24],
      ["id_duplicate", "a", "id", null],
      ["answer_long", "a", "action.text", 1024],
      ["no_choices", "empty", "choices", null],
      ["id_invalid", null, "id", null],
      ["action_invalid", null, "action", null],
      ["no_assistant", "shop", "action", null],
      ["action_invalid", "broken", "action", null],
    ])
  })

  it("a choice on level 4 is too_deep (max 3); the top level is level 1", () => {
    const nest = (depth: number): any =>
      depth === 4
        ? { id: "d4", title: "Four", action: { type: "team" } }
        : { id: `d${depth}`, title: "Level", action: { type: "menu", choices: [nest(depth + 1)] } }
    expect(only(menuProblems({ greeting: "Hi", choices: [nest(1), team] }, noStore))).toEqual([
      ["too_deep", "d4", "id", 3],
    ])
  })

  it("11 choices on one level: too_many_choices (max 10), choice_id the menu choice whose level it is", () => {
    const eleven = Array.from({ length: 11 }, (_, i) => ({ id: `c${i}`, title: "C", action: { type: "team" } }))
    expect(only(menuProblems({ greeting: "Hi", choices: eleven }, noStore))).toEqual([
      ["too_many_choices", null, "choices", 10],
    ])
    const nested = { id: "more", title: "More", action: { type: "menu", choices: eleven } }
    expect(only(menuProblems({ greeting: "Hi", choices: [nested] }, noStore))).toEqual([
      ["too_many_choices", "more", "choices", 10],
    ])
  })

  it("titles are counted in characters (code points): 24 Arabic letters with their marks' code points", () => {
    const marked = (n: number) => "مَ".repeat(n / 2) // a letter and a fatha: two code points
    expect(menuProblems({ greeting: "Hi", choices: [{ ...team, title: marked(24) }] }, noStore)).toEqual([])
    const over = "م".repeat(25)
    expect(only(menuProblems({ greeting: "Hi", choices: [{ ...team, title: over }] }, noStore))).toEqual([
      ["title_long", "team", "title", 24],
    ])
    expect(only(menuProblems({ greeting: "Hi", choices: [{ ...team, title: marked(26) }] }, noStore))).toEqual([
      ["title_long", "team", "title", 24],
    ])
  })

  it("publish: no draft, not ready with the problems, a draft equal to the live menu answers the live version", () => {
    expect(publishDecision(undefined, null, noStore, 1)).toEqual({ _tag: "NoDraft" })
    const notReady = publishDecision({ greeting: "Hi", choices: [] }, null, noStore, 1)
    expect(notReady).toEqual({
      _tag: "NotReady",
      problems: [
        { code: "no_choices", choice_id: null, field: "choices", max: null },
        { code: "no_team_choice", choice_id: null, field: "choices", max: null },
      ],
    })
    const menu = { greeting: "Hi", choices: [team] }
    const live = { version: 4, publishedAt: 7, menu }
    expect(publishDecision(structuredClone(menu), live, noStore, 9)).toEqual({ _tag: "Unchanged", live })
  })
})
