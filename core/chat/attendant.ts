/**
 * The auto-attendant's menu (DECISIONS 9.2, 17), as pure functions: whether a draft's `menu` may be saved at all
 * (`menuRefusal`: `required`, `not_object`, `too_large`), the problems of one that may (`menuProblems`), and what
 * publishing a draft does (`publishDecision`). Nothing here reads a store: whether the application has a store for
 * an `assistant` choice is given.
 *
 * Problems come in a stable order: the greeting's, the top level's, then each choice depth first in the order
 * given (its id, title, description, action, then the choices of its menu), and `no_team_choice` last.
 */
import { Schema } from "effect"
import { Chat } from "../limits.ts"
import { codePointLength } from "../shared/text.ts"

export const problemCodes = [
  "greeting_empty",
  "greeting_long",
  "no_choices",
  "too_many_choices",
  "too_deep",
  "id_invalid",
  "id_duplicate",
  "title_empty",
  "title_long",
  "description_long",
  "action_invalid",
  "answer_empty",
  "answer_long",
  "no_team_choice",
  "no_assistant",
] as const
export type ProblemCode = typeof problemCodes[number]

/** One rule the menu breaks: `choice_id` null at the top level; `max` the limit broken, if it is one. */
export interface Problem {
  readonly code: ProblemCode
  readonly choice_id: string | null
  readonly field: string
  readonly max: number | null
}

export const ProblemSchema = Schema.Struct({
  code: Schema.Literal(...problemCodes),
  choice_id: Schema.NullOr(Schema.String),
  field: Schema.String,
  max: Schema.NullOr(Schema.Int),
}).annotations({ identifier: "AttendantProblem" })

export const actionTypes = ["answer", "team", "assistant", "menu"] as const

type Obj = Readonly<Record<string, unknown>>
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v)

const idPattern = new RegExp(`^[A-Za-z0-9_-]{1,${Chat.choiceIdMax}}$`)

/** Text with something in it besides white space. */
const filled = (v: unknown): v is string => typeof v === "string" && v.trim() !== ""

/** The menu's JSON in UTF-8 bytes (as the platform writes it back). */
export const menuBytes = (menu: unknown): number => new TextEncoder().encode(JSON.stringify(menu)).length

/** The choices of a menu at every level together (every `choices` array under the top one and under menu actions). */
export const choiceCount = (menu: unknown): number => {
  const count = (choices: unknown): number =>
    Array.isArray(choices)
      ? choices.reduce<number>(
        (n, c) => n + 1 + (isObject(c) && isObject(c.action) ? count(c.action.choices) : 0),
        0,
      )
      : 0
  return isObject(menu) ? count(menu.choices) : 0
}

/** Why a draft's `menu` cannot be saved at all (`400 invalid_request`'s code for `menu`), if it cannot. */
export const menuRefusal = (menu: unknown): "required" | "not_object" | "too_large" | undefined => {
  if (menu === undefined || menu === null) return "required"
  if (!isObject(menu)) return "not_object"
  if (choiceCount(menu) > Chat.attendantMaxChoices || menuBytes(menu) > Chat.attendantMenuMaxBytes) return "too_large"
  return undefined
}

/** What the validator is told about the application beside the menu. */
export interface MenuContext {
  /** Whether the application has a connected store for the assistant (DECISIONS 9.5). */
  readonly hasStore: boolean
}

/**
 * Every problem of a menu (an object `menuRefusal` lets through), in a stable order. An empty list: the menu may
 * be published.
 */
export const menuProblems = (menu: Obj, context: MenuContext): ReadonlyArray<Problem> => {
  const problems: Array<Problem> = []
  const add = (code: ProblemCode, choice_id: string | null, field: string, max: number | null = null) =>
    problems.push({ code, choice_id, field, max })
  const seen = new Set<string>()
  let teamChoice = false

  const greeting = menu.greeting
  if (!filled(greeting)) add("greeting_empty", null, "greeting")
  else if (codePointLength(greeting) > Chat.greetingMax) add("greeting_long", null, "greeting", Chat.greetingMax)

  /** A level's own problems (`choice_id` that of the choice whose menu it is), then each of its choices. */
  const level = (choices: unknown, owner: string | null, field: string, depth: number) => {
    if (!Array.isArray(choices) || choices.length === 0) return add("no_choices", owner, field)
    if (choices.length > Chat.choicesPerLevel) add("too_many_choices", owner, field, Chat.choicesPerLevel)
    for (const c of choices) choice(c, depth)
  }

  const choice = (c: unknown, depth: number) => {
    const given = isObject(c) ? c : {}
    const id = typeof given.id === "string" ? given.id : null
    if (depth > Chat.maxDepth) return add("too_deep", id, "id", Chat.maxDepth)
    if (id === null || !idPattern.test(id)) add("id_invalid", id, "id")
    else if (seen.has(id)) add("id_duplicate", id, "id")
    if (id !== null) seen.add(id)
    if (!filled(given.title)) add("title_empty", id, "title")
    else if (codePointLength(given.title) > Chat.choiceTitleMax) add("title_long", id, "title", Chat.choiceTitleMax)
    const description = given.description
    if (
      description !== undefined && description !== null &&
      (typeof description !== "string" || codePointLength(description) > Chat.choiceDescriptionMax)
    ) add("description_long", id, "description", Chat.choiceDescriptionMax)
    const action = given.action
    const type = isObject(action) ? action.type : undefined
    if (!isObject(action) || !actionTypes.some((t) => t === type)) return add("action_invalid", id, "action")
    switch (type) {
      case "answer":
        if (!filled(action.text)) add("answer_empty", id, "action.text")
        else if (codePointLength(action.text) > Chat.answerMax) add("answer_long", id, "action.text", Chat.answerMax)
        return
      case "team":
        teamChoice = true
        return
      case "assistant":
        if (!context.hasStore) add("no_assistant", id, "action")
        return
      case "menu":
        return level(action.choices, id, "choices", depth + 1)
    }
  }

  level(menu.choices, null, "choices", 1)
  if (!teamChoice) add("no_team_choice", null, "choices")
  return problems
}

/** The same JSON value whatever the order of its objects' keys. */
export const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_, v) => isObject(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v)

/** A published version of the menu. */
export interface LiveMenu {
  readonly version: number
  readonly publishedAt: number
  readonly menu: unknown
}

export type PublishDecision =
  | { readonly _tag: "NoDraft" }
  | { readonly _tag: "NotReady"; readonly problems: ReadonlyArray<Problem> }
  /** The draft is the live menu: the live version answers, none is made. */
  | { readonly _tag: "Unchanged"; readonly live: LiveMenu }
  | { readonly _tag: "Publish"; readonly live: LiveMenu }

/**
 * What publishing does (DECISIONS 9.2): no draft, `attendant_no_draft`; a draft with problems,
 * `attendant_not_ready`; a draft equal to the live menu, the live version; else version n+1 (the first is 1),
 * the draft staying the draft.
 */
export const publishDecision = (
  draft: unknown | undefined,
  live: LiveMenu | null,
  context: MenuContext,
  now: number,
): PublishDecision => {
  if (draft === undefined) return { _tag: "NoDraft" }
  const problems = isObject(draft) ? menuProblems(draft, context) : [
    { code: "no_choices" as const, choice_id: null, field: "choices", max: null },
  ]
  if (problems.length > 0) return { _tag: "NotReady", problems }
  if (live !== null && canonicalJson(live.menu) === canonicalJson(draft)) return { _tag: "Unchanged", live }
  return { _tag: "Publish", live: { version: (live?.version ?? 0) + 1, publishedAt: now, menu: draft } }
}
