/** Generators of attendant menus for the property tests (test/chat/validator.test.ts, attendant.test.ts). */
import fc from "fast-check"
import { menuBytes, type Problem } from "../../core/chat/attendant.ts"
import { Chat } from "../../core/limits.ts"

export type Choice = { id: string; title: string; description?: string; action: any }
export type Menu = { greeting: string; choices: Array<Choice> }

export const noStore = { hasStore: false }

/** Text of `min` to `max` code points, not blank: ASCII, Arabic letters and combining marks, an emoji. */
export const text = (min: number, max: number) =>
  fc.string({
    unit: fc.constantFrom("a", "Z", "0", " ", "-", "م", "ر", "\u064E", "\u0651", "é", "😀"),
    minLength: min,
    maxLength: max,
  }).filter((s) => s.trim() !== "")

const leaf = fc.oneof(
  text(1, 60).map((t) => ({ type: "answer", text: t })),
  fc.constant({ type: "team" }),
)

const choiceAt = (depth: number): fc.Arbitrary<Choice> =>
  fc.record({
    id: fc.constant(""),
    title: text(1, Chat.choiceTitleMax),
    description: fc.option(text(1, Chat.choiceDescriptionMax), { nil: undefined }),
    action: depth >= Chat.maxDepth ? leaf : fc.oneof(
      leaf,
      levelAt(depth + 1).map((choices) => ({ type: "menu", choices })),
    ),
  }, { requiredKeys: ["id", "title", "action"] })

const levelAt = (depth: number): fc.Arbitrary<Array<Choice>> =>
  fc.array(choiceAt(depth), { minLength: 1, maxLength: depth === 1 ? Chat.choicesPerLevel - 1 : 4 })

interface Placed {
  readonly choice: Choice
  readonly depth: number
}

/** Every choice, depth first, with its level (the top level is 1). */
export const walk = (choices: ReadonlyArray<Choice>, depth = 1): Array<Placed> =>
  choices.flatMap((c) => [
    { choice: c, depth },
    ...(c.action.type === "menu" ? walk(c.action.choices, depth + 1) : []),
  ])

/** A menu with no problem: one top-level team choice among the others, ids unique, within 64 KB. */
export const validMenu: fc.Arbitrary<Menu> = fc.tuple(
  text(1, Chat.greetingMax),
  levelAt(1),
  fc.nat(),
  fc.stringMatching(/^[A-Za-z0-9_-]{0,8}$/),
).map(([greeting, choices, at, prefix]) => {
  const top = [...choices]
  top.splice(at % (top.length + 1), 0, { id: "", title: "Talk to us", action: { type: "team" } })
  walk(top).forEach(({ choice }, i) => (choice.id = `${prefix}${i}`))
  return { greeting, choices: top }
}).filter((m) => menuBytes(m) <= Chat.attendantMenuMaxBytes)

export const copy = (m: Menu): Menu => structuredClone(m)
/** The same value, every object's keys in reverse order. */
export const reversed = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(reversed)
    : typeof v === "object" && v !== null
    ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reversed(x)]))
    : v
export const only = (problems: ReadonlyArray<Problem>) => problems.map((p) => [p.code, p.choice_id, p.field, p.max])

/** One limit broken on a valid menu: the problem it must yield alone. */
export const overOneLimit: fc.Arbitrary<{ menu: Menu; expected: ReadonlyArray<unknown> }> = fc.tuple(
  validMenu,
  fc.nat(),
  fc.constantFrom("greeting", "title", "description", "answer", "id", "level", "depth"),
  fc.integer({ min: 1, max: 40 }),
).map(([valid, at, limit, over]) => {
  const menu = copy(valid)
  const all = walk(menu.choices)
  const placed = all[at % all.length]
  const c = placed.choice
  const long = (max: number) => "a".repeat(max + over)
  switch (limit) {
    case "greeting":
      menu.greeting = long(Chat.greetingMax)
      return { menu, expected: [["greeting_long", null, "greeting", Chat.greetingMax]] }
    case "title":
      c.title = long(Chat.choiceTitleMax)
      return { menu, expected: [["title_long", c.id, "title", Chat.choiceTitleMax]] }
    case "description":
      c.description = long(Chat.choiceDescriptionMax)
      return { menu, expected: [["description_long", c.id, "description", Chat.choiceDescriptionMax]] }
    case "answer": {
      const answers = all.filter((p) => p.choice.action.type === "answer")
      if (answers.length === 0) return { menu: valid, expected: [] }
      const a = answers[at % answers.length].choice
      a.action = { type: "answer", text: long(Chat.answerMax) }
      return { menu, expected: [["answer_long", a.id, "action.text", Chat.answerMax]] }
    }
    case "id":
      c.id = long(Chat.choiceIdMax)
      return { menu, expected: [["id_invalid", c.id, "id", null]] }
    case "level": {
      // Choices added to one level (the top one, or a menu choice's) until it holds more than 10.
      const menus = all.filter((p) => p.choice.action.type === "menu").map((p) => p.choice)
      const owner = at % (menus.length + 1) === 0 ? null : menus[(at % (menus.length + 1)) - 1]
      const level: Array<Choice> = owner === null ? menu.choices : owner.action.choices
      const added = Chat.choicesPerLevel + Math.min(over, 5) - level.length
      // Ids the menu does not hold already (the valid menu's own ids are a prefix and a number: `x0` may be one).
      const taken = new Set(all.map((p) => p.choice.id))
      for (let i = 0, n = 0; i < added; i++, n++) {
        while (taken.has(`x${n}`)) n++
        level.push({ id: `x${n}`, title: "More", action: { type: "team" } })
      }
      return {
        menu,
        expected: [["too_many_choices", owner?.id ?? null, "choices", Chat.choicesPerLevel]],
      }
    }
    case "depth": {
      const deepest = all.filter((p) => p.depth === Chat.maxDepth).map((p) => p.choice)
      if (deepest.length === 0) return { menu: valid, expected: [] }
      const d = deepest[at % deepest.length]
      d.action = { type: "menu", choices: [{ id: "level4", title: "Too deep", action: { type: "team" } }] }
      return { menu, expected: [["too_deep", "level4", "id", Chat.maxDepth]] }
    }
  }
  throw new Error(limit)
})
