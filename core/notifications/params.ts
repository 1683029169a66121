/**
 * A send's parameters against the template's language (DECISIONS 7.2): every problem of `422 invalid_params`,
 * keyed `params.<key>`, `lang` or `header.image.link`, one reason each.
 */
import { hasControlCharacter } from "../shared/names.ts"
import { codePointLength, echo } from "../shared/text.ts"
import type { NetworkTemplate } from "./model.ts"
import { placeholdersOf } from "./template.ts"

export type ParamProblem =
  | "missing"
  | "empty"
  | "unexpected"
  | "too_long"
  | "control_character"
  | "not_string"
  | "invalid"
  | "required"

export const linkKey = "header.image.link"
/** An image header's link, in code points. */
export const maxLinkLength = 2048

const authenticationCode = /^[A-Za-z0-9]{4,15}$/

/** An absolute `https:` URL with a host (`https:x.sa`, which a URL parser mends, is not written absolute). */
export const isHttpsUrl = (s: string): boolean => {
  if (!/^https:\/\//i.test(s)) return false
  try {
    return new URL(s).hostname !== ""
  } catch {
    return false
  }
}

/** A given value's problem, in the order of precedence: not a string, empty, control character, too long, invalid. */
const valueProblem = (
  value: unknown,
  maxLength: number,
  valid: (s: string) => boolean,
): ParamProblem | undefined =>
  typeof value !== "string"
    ? "not_string"
    : value.trim() === ""
    ? "empty"
    : hasControlCharacter(value)
    ? "control_character"
    : codePointLength(value) > maxLength
    ? "too_long"
    : valid(value)
    ? undefined
    : "invalid"

const isObject = (v: unknown): v is Readonly<Record<string, unknown>> =>
  typeof v === "object" && v !== null && !Array.isArray(v)

/** The link the caller gave at `header.image.link`, undefined when there is none. */
const linkOf = (header: unknown): unknown => isObject(header) && isObject(header.image) ? header.image.link : undefined

/**
 * Every problem of the parameters (`params`) and the header (`header`, an object or undefined) of a send of `t`:
 * `params.<key>` and `header.image.link` → reason. Empty when the send may go on.
 */
export const paramProblems = (
  t: NetworkTemplate,
  params: Readonly<Record<string, unknown>>,
  header: unknown,
): Record<string, ParamProblem> => {
  const problems: Record<string, ParamProblem> = {}
  const keys = new Set<string>()
  for (const { key, max_length } of placeholdersOf(t)) {
    keys.add(key)
    const given = Object.hasOwn(params, key) ? params[key] : undefined
    const valid = t.category === "authentication" ? (s: string) => authenticationCode.test(s) : () => true
    const problem = given === undefined ? "missing" : valueProblem(given, max_length, valid)
    if (problem !== undefined) problems[`params.${key}`] = problem
  }
  for (const key of Object.keys(params)) if (!keys.has(key)) problems[`params.${key}`] = "unexpected"
  const link = linkOf(header)
  if (t.header?.type === "image") {
    const problem = link === undefined ? "required" : valueProblem(link, maxLinkLength, isHttpsUrl)
    // A link past its limit is not an acceptable link: `invalid`, as DECISIONS 7.2 words it.
    if (problem !== undefined) problems[linkKey] = problem === "too_long" ? "invalid" : problem
  } else if (link !== undefined) {
    problems[linkKey] = "unexpected"
  }
  return problems
}

/** `lang` is `required` when the template has several languages and the send names none. */
export const langProblem = (languages: number, lang: string | undefined): "required" | undefined =>
  languages > 1 && lang === undefined ? "required" : undefined

const sentence = (key: string, problem: ParamProblem, t: NetworkTemplate | undefined): string => {
  if (key === "lang") return "is required: the template has several languages"
  const isLink = key === linkKey
  const placeholder = isLink ? undefined : t && placeholdersOf(t).find((p) => `params.${p.key}` === key)
  switch (problem) {
    case "missing":
      return "is missing: the template has this placeholder"
    case "empty":
      return "must not be empty or only white space"
    case "unexpected":
      return isLink ? "is not taken: the template has no image header" : "is not a placeholder of the template"
    case "too_long":
      return placeholder ? `must be at most ${placeholder.max_length} characters` : "is too long"
    case "control_character":
      return "must not contain control characters (U+0000-U+001F, U+007F-U+009F)"
    case "not_string":
      return "must be a string"
    case "invalid":
      return isLink
        ? `must be an absolute https URL of at most ${maxLinkLength} characters`
        : "must be 4 to 15 ASCII letters or digits"
    case "required":
      return isLink ? "is required: the template has an image header" : "is required"
  }
}

/**
 * `422 invalid_params`' body from the problems (and the template's language, for the limits it names): a message,
 * `fields` (key → sentence) and `errors` (key → reason). A key is the caller's text in part: the message quotes
 * at most `Http.maxEchoChars` of it; no value is quoted.
 */
export const paramRefusal = (
  problems: Readonly<Record<string, ParamProblem>>,
  t?: NetworkTemplate,
): { readonly message: string; readonly fields: Record<string, string>; readonly errors: Record<string, string> } => {
  const keys = Object.keys(problems)
  const fields = Object.fromEntries(keys.map((k) => [k, sentence(k, problems[k], t)]))
  return {
    message: keys.length === 1 ? `\`${echo(keys[0])}\` ${fields[keys[0]]}.` : `${keys.length} parameters are refused.`,
    fields,
    errors: { ...problems },
  }
}
