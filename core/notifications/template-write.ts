/**
 * A template write's body (DECISIONS 7.1 "Template writes"): POST `/v1/chatmsg/templates` takes
 * `{ name, lang, category, body, header?, footer?, buttons? }`, PUT `/v1/chatmsg/templates/{name}/{lang}` the same
 * without `name` and `lang` (the path's). Refused fields are named as the pipeline names them (`header.text`,
 * `buttons[2].url`) with its codes: `required`, `unknown`, `not_string`, `too_long`, `invalid`. Like the Cloud
 * API, a body may not mix named and positional placeholders nor number positional ones other than 1, 2, 3… in
 * order of first appearance, and an authentication template's body must hold the code's placeholder.
 */
import { Either } from "effect"
import { codePointLength, isStorableText, unstorableMessage } from "../shared/text.ts"
import {
  mediaHeaderTypes,
  type TemplateButton,
  templateCategories,
  type TemplateCategory,
  type TemplateHeader,
  type TemplateWrite,
} from "./model.ts"
import { isHttpsUrl } from "./params.ts"
import { type PlaceholderToken, tokensOf } from "./template.ts"

export const writeLimits = {
  name: 512,
  body: 1024,
  headerText: 60,
  footer: 60,
  buttons: 10,
  buttonText: 25,
  buttonUrl: 2000,
} as const

export const buttonTypes = ["quick_reply", "url", "phone_number", "copy_code", "otp"] as const

/** `400 invalid_request`'s refused fields: `fields` {name: message}, `errors` {name: code}. */
export interface WriteRefusal {
  readonly fields: Record<string, string>
  readonly errors: Record<string, string>
}

type Obj = Readonly<Record<string, unknown>>
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v)
const absent = (v: unknown): boolean => v === undefined || v === null

class Refusals implements WriteRefusal {
  readonly fields: Record<string, string> = {}
  readonly errors: Record<string, string> = {}
  /** The first refusal of a field stands. */
  add(name: string, code: string, message: string): undefined {
    if (!(name in this.errors)) {
      this.errors[name] = code
      this.fields[name] = message
    }
    return undefined
  }
  unknown(given: Obj, prefix: string, taken: ReadonlyArray<string>, message = "is not a field of this operation") {
    for (const key of Object.keys(given)) if (!taken.includes(key)) this.add(`${prefix}${key}`, "unknown", message)
  }
  get none(): boolean {
    return Object.keys(this.errors).length === 0
  }
}

/** A text field: a string the stores hold, not blank, at most `max` code points; undefined when refused or absent. */
const text = (r: Refusals, name: string, value: unknown, max: number, required = true): string | undefined => {
  if (absent(value)) return required ? r.add(name, "required", "is required") : undefined
  if (typeof value !== "string") return r.add(name, "not_string", "must be a string")
  if (!isStorableText(value)) return r.add(name, "invalid", unstorableMessage)
  if (value.trim() === "") return r.add(name, "invalid", "must be a non-empty string")
  if (codePointLength(value) > max) return r.add(name, "too_long", `at most ${max} characters`)
  return value
}

const matching = (r: Refusals, name: string, value: string | undefined, re: RegExp, message: string) =>
  value === undefined || re.test(value) ? value : r.add(name, "invalid", message)

/** Why a body's placeholders are refused, if they are. */
const bodyProblem = (tokens: ReadonlyArray<PlaceholderToken>, category: TemplateCategory | undefined) => {
  if (tokens.some((t) => t.named) && tokens.some((t) => !t.named)) {
    return "must not mix named ({{order_id}}) and positional ({{1}}) placeholders"
  }
  const positional = [...new Set(tokens.filter((t) => !t.named).map((t) => t.key))]
  if (positional.some((key, i) => key !== String(i + 1))) {
    return "must number its positional placeholders 1, 2, 3… in order of first appearance"
  }
  if (category === "authentication" && tokens.length === 0) {
    return "must hold a placeholder for the code (an authentication template)"
  }
  return undefined
}

const header = (r: Refusals, value: unknown, body: ReadonlyArray<PlaceholderToken>): TemplateHeader | null => {
  if (absent(value)) return null
  if (!isObject(value)) return r.add("header", "invalid", "must be an object") ?? null
  const type = text(r, "header.type", value.type, Infinity)
  if (type === undefined) return null
  if (type !== "text") {
    const media = mediaHeaderTypes.find((m) => m === type)
    if (media === undefined) return r.add("header.type", "invalid", "must be text, image, video or document") ?? null
    r.unknown(value, "header.", ["type"], "is not a field of a media header")
    return { type: media }
  }
  r.unknown(value, "header.", ["type", "text"])
  const own = text(r, "header.text", value.text, writeLimits.headerText)
  if (own === undefined) return null
  const tokens = tokensOf(own)
  if (tokens.length > 1) return r.add("header.text", "invalid", "must hold at most one placeholder") ?? null
  if (tokens.length === 1 && body.length > 0 && tokens[0].named !== body[0].named) {
    return r.add("header.text", "invalid", "must use the body's style of placeholder (named or positional)") ?? null
  }
  return { type: "text", text: own }
}

const button = (r: Refusals, at: string, value: unknown): TemplateButton | undefined => {
  if (!isObject(value)) return r.add(at, "invalid", "must be an object")
  r.unknown(value, `${at}.`, ["type", "text", "url", "phone"])
  const type = matching(
    r,
    `${at}.type`,
    text(r, `${at}.type`, value.type, Infinity),
    /^(quick_reply|url|phone_number|copy_code|otp)$/,
    `must be one of ${buttonTypes.join(", ")}`,
  )
  const label = text(r, `${at}.text`, value.text, writeLimits.buttonText)
  const url = type === "url" ? text(r, `${at}.url`, value.url, writeLimits.buttonUrl) : undefined
  if (url !== undefined && !isHttpsUrl(url)) r.add(`${at}.url`, "invalid", "must be an absolute https URL")
  if (url !== undefined && tokensOf(url).length > 1) r.add(`${at}.url`, "invalid", "must hold at most one placeholder")
  if (type !== undefined && type !== "url" && !absent(value.url)) r.add(`${at}.url`, "unknown", "is for url buttons")
  const phone = type === "phone_number"
    ? matching(r, `${at}.phone`, text(r, `${at}.phone`, value.phone, Infinity), /^\+[1-9][0-9]{1,14}$/, "must be E.164")
    : undefined
  if (type !== undefined && type !== "phone_number" && !absent(value.phone)) {
    r.add(`${at}.phone`, "unknown", "is for phone_number buttons")
  }
  if (type === undefined || label === undefined) return undefined
  return { type, text: label, ...(url !== undefined ? { url } : {}), ...(phone !== undefined ? { phone } : {}) }
}

const buttons = (r: Refusals, value: unknown): ReadonlyArray<TemplateButton> => {
  if (absent(value)) return []
  if (!Array.isArray(value)) return r.add("buttons", "invalid", "must be an array") ?? []
  if (value.length > writeLimits.buttons) {
    return r.add("buttons", "too_long", `at most ${writeLimits.buttons} buttons`) ?? []
  }
  return value.flatMap((b, i) => button(r, `buttons[${i}]`, b) ?? [])
}

const write = (
  r: Refusals,
  name: string | undefined,
  lang: string | undefined,
  body: Obj,
): Either.Either<TemplateWrite, WriteRefusal> => {
  const category = matching(
    r,
    "category",
    text(r, "category", body.category, Infinity),
    /^(utility|marketing|authentication)$/,
    `must be one of ${templateCategories.join(", ")}`,
  ) as TemplateCategory | undefined
  const own = text(r, "body", body.body, writeLimits.body)
  const tokens = own === undefined ? [] : tokensOf(own)
  const problem = own === undefined ? undefined : bodyProblem(tokens, category)
  if (problem !== undefined) r.add("body", "invalid", problem)
  const written = {
    header: header(r, body.header, tokens),
    footer: text(r, "footer", body.footer, writeLimits.footer, false) ?? null,
    buttons: buttons(r, body.buttons),
  }
  if (!r.none || name === undefined || lang === undefined || category === undefined || own === undefined) {
    return Either.left({ fields: r.fields, errors: r.errors })
  }
  return Either.right({ name, lang, category, body: own, ...written })
}

const taken = ["category", "body", "header", "footer", "buttons"]

/** A POST body: the template's new language, or every refused field. */
export const templateCreate = (body: Obj): Either.Either<TemplateWrite, WriteRefusal> => {
  const r = new Refusals()
  r.unknown(body, "", ["name", "lang", ...taken])
  const name = matching(
    r,
    "name",
    text(r, "name", body.name, writeLimits.name),
    /^[a-z0-9_]+$/,
    "must hold only lower-case letters a-z, digits and _",
  )
  const lang = matching(
    r,
    "lang",
    text(r, "lang", body.lang, Infinity),
    /^[a-z]{2,3}(_[A-Z]{2})?$/,
    "must be a language code such as ar or en_US",
  )
  return write(r, name, lang, body)
}

/**
 * A PUT body: the edit of the path's `name` and `lang` (not checked here: the edit answers by the template's
 * existence), or every refused field; `name` or `lang` in the body is a field the operation does not take.
 */
export const templateEdit = (name: string, lang: string, body: Obj): Either.Either<TemplateWrite, WriteRefusal> => {
  const r = new Refusals()
  r.unknown(body, "", taken)
  return write(r, name, lang, body)
}
