/**
 * The auto-attendant's request bodies (spec Errors, "Auto-attendant"; DECISIONS 9.2): every refused field in one
 * `400 invalid_request` (`fields`, `errors`): `menu` `required`, `not_object`, `too_large`; `enabled` `required`
 * (missing or not a boolean); `mode`, `language` `invalid`; a settings change with neither: `mode` `required`; a
 * field the operation does not take: `unknown`. Nothing is saved when any is refused.
 */
import { Either } from "effect"
import { InvalidRequest } from "../pipeline/errors.ts"
import { echo } from "../shared/text.ts"
import { Chat } from "../limits.ts"
import { menuRefusal } from "./attendant.ts"
import { type AttendantLanguage, attendantLanguages, type AttendantMode, attendantModes } from "./model.ts"

type Obj = Readonly<Record<string, unknown>>

export interface SettingsChange {
  readonly enabled?: boolean
  readonly mode?: AttendantMode
  readonly language?: AttendantLanguage
}

export interface DraftInput extends SettingsChange {
  readonly menu: Obj
}

const messages: Record<string, string> = {
  "menu.required": "is required: the menu object",
  "menu.not_object": "must be an object: { greeting, choices }",
  "menu.too_large": `must hold at most ${Chat.attendantMaxChoices} choices in all and ${
    Chat.attendantMenuMaxBytes / 1024
  } KB of JSON`,
  "enabled.required": "is required: true or false",
  "mode.invalid": `must be one of ${attendantModes.join(", ")}`,
  "mode.required": "is required: give mode or language",
  "language.invalid": `must be one of ${attendantLanguages.join(", ")}`,
  unknown: "is not a field of this operation",
}

class Refused {
  readonly fields: Record<string, string> = {}
  readonly errors: Record<string, string> = {}
  add(name: string, code: string) {
    this.errors[name] = code
    this.fields[name] = messages[`${name}.${code}`] ?? messages[code] ?? code
  }
  unknown(body: Obj, taken: ReadonlyArray<string>) {
    for (const key of Object.keys(body)) if (!taken.includes(key)) this.add(key, "unknown")
  }
  result<A>(a: A): Either.Either<A, InvalidRequest> {
    const names = Object.keys(this.errors)
    if (names.length === 0) return Either.right(a)
    return Either.left(
      new InvalidRequest({
        message: names.length === 1
          ? `\`${echo(names[0])}\` ${echo(this.fields[names[0]])}`
          : `${names.length} fields are refused.`,
        fields: this.fields,
        errors: this.errors,
      }),
    )
  }
}

const has = (body: Obj, name: string): boolean => Object.prototype.hasOwnProperty.call(body, name)

const oneOf = <A extends string>(values: ReadonlyArray<A>, v: unknown): v is A => values.some((x) => x === v)

/** `mode` and `language` when given (`enabled` too, for a draft). */
const settings = (r: Refused, body: Obj, withEnabled: boolean): SettingsChange => {
  const out: { enabled?: boolean; mode?: AttendantMode; language?: AttendantLanguage } = {}
  if (withEnabled && has(body, "enabled")) {
    if (typeof body.enabled === "boolean") out.enabled = body.enabled
    else r.add("enabled", "required")
  }
  if (has(body, "mode")) {
    if (oneOf(attendantModes, body.mode)) out.mode = body.mode
    else r.add("mode", "invalid")
  }
  if (has(body, "language")) {
    if (oneOf(attendantLanguages, body.language)) out.language = body.language
    else r.add("language", "invalid")
  }
  return out
}

/** PUT `/v1/chat/attendant/draft`: `{ menu, enabled?, mode?, language? }`. */
export const draftInput = (body: Obj): Either.Either<DraftInput, InvalidRequest> => {
  const r = new Refused()
  const refusal = menuRefusal(body.menu)
  if (refusal !== undefined) r.add("menu", refusal)
  const change = settings(r, body, true)
  r.unknown(body, ["menu", "enabled", "mode", "language"])
  return r.result({ ...change, menu: body.menu as Obj })
}

/** PUT `/v1/chat/attendant/enabled`: `{ enabled }`. */
export const enabledInput = (body: Obj): Either.Either<{ readonly enabled: boolean }, InvalidRequest> => {
  const r = new Refused()
  if (typeof body.enabled !== "boolean") r.add("enabled", "required")
  r.unknown(body, ["enabled"])
  return r.result({ enabled: body.enabled === true })
}

/** PATCH `/v1/chat/attendant/settings`: `{ mode?, language? }`, at least one. */
export const settingsInput = (body: Obj): Either.Either<SettingsChange, InvalidRequest> => {
  const r = new Refused()
  if (!(has(body, "mode")) && !(has(body, "language"))) r.add("mode", "required")
  const change = settings(r, body, false)
  r.unknown(body, ["mode", "language"])
  return r.result(change)
}
