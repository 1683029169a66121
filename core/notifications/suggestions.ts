/**
 * Template suggestions (DECISIONS 10, 14, 16): an analysis is a reading of an application's business with the
 * templates it suggests, each under a key. The console records one; the account API shows it and creates the
 * picked ones on the chat network, a few a call.
 *
 * A suggestion's `state`: `suggested` (as the analysis gave it), `picked` (asked for, not made yet), `made`
 * (written to the network: it arrived there `pending`), `failed` (the network refused it for good: `error` says
 * why; picking it again retries it). A picked one whose write the network did not answer stays `picked`, with
 * `error` `templates_unavailable`, and is made by a later call.
 */
import { Either } from "effect"
import { codePointLength, isStorableText } from "../shared/text.ts"
import type { TemplateCategory, TemplateWrite } from "./model.ts"
import { templateCreate } from "./template-write.ts"

export const suggestionStates = ["suggested", "picked", "made", "failed"] as const
export type SuggestionState = typeof suggestionStates[number]

export const SuggestionLimits = {
  /** A key: 1 to 512 characters (DECISIONS 8 "Suggestion keys"). */
  keyMax: 512,
  /** Keys of one create call. */
  keysPerCall: 6,
  /** Suggestions of one analysis. */
  perAnalysis: 100,
  /** Suggestions a create call makes at most (`per_call`). */
  perCall: 3,
  /** No suggestion is started this long after the call began; the first always is. */
  startWithinMs: 8_000,
  /** How long a create call's hold on the analysis lasts if its process dies before releasing it. */
  leaseMs: 120_000,
} as const

/** Why a suggestion failed (its `error`). */
export const suggestionErrors = {
  /** The network already holds a template of that name in that language. */
  exists: "template_exists",
  /** The network holds the name in another category (a template's languages share one). */
  category: "template_category_mismatch",
  /** The network did not answer the write: the suggestion stays picked. */
  unavailable: "templates_unavailable",
} as const

export interface TemplateSuggestion {
  readonly key: string
  /** Its place in the analysis, from 0. */
  readonly position: number
  readonly name: string
  readonly category: TemplateCategory
  readonly lang: string
  readonly body: string
  readonly state: SuggestionState
  readonly error: string | null
  /** When it was last picked (`picked`, `made`, `failed` ones); null while `suggested`. */
  readonly pickedAt: number | null
  /** Its place among the analysis' made ones (1, 2, 3…); null until made. */
  readonly madeOrder: number | null
}

/** The suggestions a create call makes, in order: picked ones, oldest pick first, then by their place. */
export const queueOf = (suggestions: ReadonlyArray<TemplateSuggestion>): ReadonlyArray<TemplateSuggestion> =>
  suggestions.filter((s) => s.state === "picked").sort((a, b) =>
    (a.pickedAt ?? 0) - (b.pickedAt ?? 0) || a.position - b.position
  )

/** The next made one's `madeOrder`. */
export const nextMadeOrder = (suggestions: ReadonlyArray<TemplateSuggestion>): number =>
  suggestions.reduce((max, s) => Math.max(max, s.madeOrder ?? 0), 0) + 1

/** The keys made, in the order they were made. */
export const madeKeys = (suggestions: ReadonlyArray<TemplateSuggestion>): ReadonlyArray<string> =>
  suggestions.filter((s) => s.state === "made")
    .sort((a, b) => (a.madeOrder ?? 0) - (b.madeOrder ?? 0))
    .map((s) => s.key)

/** The key of each given key that no suggestion has, by its index in `keys`. */
export const unknownKeys = (
  suggestions: ReadonlyArray<TemplateSuggestion>,
  keys: ReadonlyArray<string>,
): ReadonlyArray<number> => {
  const held = new Set(suggestions.map((s) => s.key))
  return keys.flatMap((k, i) => (held.has(k) ? [] : [i]))
}

/** The network write of a suggestion: a body-only template. */
export const writeOf = (s: TemplateSuggestion): TemplateWrite => ({
  name: s.name,
  lang: s.lang,
  category: s.category,
  body: s.body,
  header: null,
  footer: null,
  buttons: [],
})

/** A suggestion as the console gives it, checked. */
export interface NewSuggestion {
  readonly key: string
  readonly name: string
  readonly category: TemplateCategory
  readonly lang: string
  readonly body: string
}

type Refused = { readonly fields: Record<string, string>; readonly errors: Record<string, string> }

const isObject = (v: unknown): v is Readonly<Record<string, unknown>> =>
  typeof v === "object" && v !== null && !Array.isArray(v)

/**
 * The console's `suggestions` (DECISIONS 14): 1 to 100 objects, each key 1 to 512 characters and unique in
 * the analysis, and `name`, `category`, `lang`, `body` as a template write takes them (template-write.ts), each
 * refusal named under its place (`suggestions[2].body`). Other fields of a suggestion are ignored, as the
 * console ignores fields it does not take.
 */
export const newSuggestions = (given: unknown): Either.Either<ReadonlyArray<NewSuggestion>, Refused> => {
  const fields: Record<string, string> = {}
  const errors: Record<string, string> = {}
  const add = (name: string, code: string, message: string) => {
    if (!(name in errors)) {
      errors[name] = code
      fields[name] = message
    }
  }
  if (given === undefined || given === null) add("suggestions", "required", "is required")
  else if (!Array.isArray(given)) add("suggestions", "invalid", "must be an array of suggestions")
  else if (given.length === 0) add("suggestions", "invalid", "must hold at least one suggestion")
  else if (given.length > SuggestionLimits.perAnalysis) {
    add("suggestions", "too_long", `at most ${SuggestionLimits.perAnalysis} suggestions`)
  }
  if (!Array.isArray(given) || "suggestions" in errors) return Either.left({ fields, errors })
  const made: Array<NewSuggestion> = []
  const seen = new Set<string>()
  given.forEach((s: unknown, i: number) => {
    const at = `suggestions[${i}]`
    if (!isObject(s)) return add(at, "invalid", "must be an object")
    const key = s.key
    if (key === undefined || key === null) add(`${at}.key`, "required", "is required")
    else if (typeof key !== "string") add(`${at}.key`, "not_string", "must be a string")
    else if (key === "" || !isStorableText(key)) add(`${at}.key`, "invalid", "must be 1 to 512 storable characters")
    else if (codePointLength(key) > SuggestionLimits.keyMax) {
      add(`${at}.key`, "too_long", `at most ${SuggestionLimits.keyMax} characters`)
    } else if (seen.has(key)) add(`${at}.key`, "duplicate", "is the key of an earlier suggestion")
    else seen.add(key)
    const write = templateCreate({ name: s.name, lang: s.lang, category: s.category, body: s.body })
    if (Either.isLeft(write)) {
      for (const name of Object.keys(write.left.errors)) {
        add(`${at}.${name}`, write.left.errors[name], write.left.fields[name])
      }
    } else if (typeof key === "string") {
      const { name, lang, category, body } = write.right
      made.push({ key, name, lang, category, body })
    }
  })
  return Object.keys(errors).length > 0 ? Either.left({ fields, errors }) : Either.right(made)
}
