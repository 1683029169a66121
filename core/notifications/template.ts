/**
 * Templates' placeholders and the API's view of templates (DECISIONS 7.1, 7.2, 17). `{{order_id}}` is a named
 * placeholder (`[a-z_][a-z0-9_]*`), `{{1}}` a positional one (`[1-9][0-9]*`); anything else in braces is text.
 */
import type { NetworkTemplate, TemplateButton, TemplateCategory, TemplateStatus } from "./model.ts"

/** Each placeholder's value, in code points, by where it sits. */
export const placeholderMaxLength = { header: 60, body: 1024, button: 2000 } as const

export type PlaceholderComponent = keyof typeof placeholderMaxLength

export interface Placeholder {
  readonly key: string
  readonly component: PlaceholderComponent
  readonly max_length: number
}

/** One occurrence of a placeholder in a text: its key (`order_id`, `"1"`) and its style. */
export interface PlaceholderToken {
  readonly key: string
  readonly named: boolean
}

const pattern = /\{\{([a-z_][a-z0-9_]*|[1-9][0-9]*)\}\}/g

/** Every placeholder occurrence of `text`, in order, repeats included. */
export const tokensOf = (text: string): ReadonlyArray<PlaceholderToken> =>
  Array.from(text.matchAll(pattern), (m) => ({ key: m[1], named: !/^[0-9]/.test(m[1]) }))

const textHeader = (t: NetworkTemplate): string | undefined => t.header?.type === "text" ? t.header.text : undefined

const hasPlaceholder = (text: string | undefined): boolean => text !== undefined && tokensOf(text).length > 0

/**
 * The template's keys: the text header's (`header`), the body's in order of first appearance, then each URL
 * button's (`button_<index>`, its index among all the buttons). An authentication template takes only `code`.
 * A key met twice (a body's `{{header}}` beside a header placeholder) is listed once, where first met.
 */
export const placeholdersOf = (t: NetworkTemplate): ReadonlyArray<Placeholder> => {
  if (t.category === "authentication") {
    return [{ key: "code", component: "body", max_length: placeholderMaxLength.body }]
  }
  const found: Array<Placeholder> = []
  const seen = new Set<string>()
  const add = (key: string, component: PlaceholderComponent) => {
    if (seen.has(key)) return
    seen.add(key)
    found.push({ key, component, max_length: placeholderMaxLength[component] })
  }
  if (hasPlaceholder(textHeader(t))) add("header", "header")
  for (const token of tokensOf(t.body)) add(token.key, "body")
  t.buttons.forEach((button, index) => {
    if (button.type === "url" && hasPlaceholder(button.url)) add(`button_${index}`, "button")
  })
  return found
}

export type ParameterFormat = "named" | "positional" | "mixed" | "none"

/** The style of the body's and the text header's placeholders (buttons do not count). */
export const parameterFormat = (t: NetworkTemplate): ParameterFormat => {
  const tokens = [...tokensOf(textHeader(t) ?? ""), ...tokensOf(t.body)]
  const named = tokens.some((x) => x.named)
  const positional = tokens.some((x) => !x.named)
  return named && positional ? "mixed" : named ? "named" : positional ? "positional" : "none"
}

export type ButtonParam = "none" | "text" | "other"

/** What a send must give a button: a URL's placeholder is text; a flow, a catalog, a marketing coupon need more. */
export const buttonParam = (category: TemplateCategory, button: TemplateButton): ButtonParam =>
  button.type === "url" && hasPlaceholder(button.url)
    ? "text"
    : button.type === "flow" || button.type === "catalog" || (button.type === "copy_code" && category === "marketing")
    ? "other"
    : "none"

export type HeaderType = "none" | "text" | "image" | "video" | "document"

export interface TemplateLanguageView {
  readonly lang: string
  readonly status: TemplateStatus
  readonly reason: string | null
  readonly header_type: HeaderType
  readonly placeholders: ReadonlyArray<Placeholder>
  readonly buttons: ReadonlyArray<{ readonly type: string; readonly text: string; readonly param: ButtonParam }>
}

export interface TemplateView {
  readonly name: string
  readonly category: TemplateCategory
  readonly parameter_format: ParameterFormat
  readonly languages: ReadonlyArray<TemplateLanguageView>
}

const byCodeUnits = (a: string, b: string): number => a < b ? -1 : a > b ? 1 : 0

const languageView = (t: NetworkTemplate): TemplateLanguageView => ({
  lang: t.lang,
  status: t.status,
  reason: t.status === "rejected" || t.status === "paused" || t.status === "disabled" ? t.reason : null,
  header_type: t.header?.type ?? "none",
  placeholders: placeholdersOf(t),
  buttons: t.buttons.map((b) => ({ type: b.type, text: b.text, param: buttonParam(t.category, b) })),
})

/**
 * The API's templates from the network's copies (one per language): grouped by name, sorted by name, each
 * one's languages by `lang`; category and `parameter_format` are its first language's.
 */
export const describeTemplates = (copies: ReadonlyArray<NetworkTemplate>): ReadonlyArray<TemplateView> => {
  const byName = new Map<string, Array<NetworkTemplate>>()
  for (const copy of copies) {
    const group = byName.get(copy.name)
    if (group === undefined) byName.set(copy.name, [copy])
    else group.push(copy)
  }
  return [...byName.keys()].sort(byCodeUnits).map((name) => {
    const languages = byName.get(name)!.slice().sort((a, b) => byCodeUnits(a.lang, b.lang))
    return {
      name,
      category: languages[0].category,
      parameter_format: parameterFormat(languages[0]),
      languages: languages.map(languageView),
    }
  })
}

/** Why a send of this language is `422 unsupported_template`; undefined when the platform can send it. */
export const unsupportedReason = (t: NetworkTemplate): string | undefined => {
  const index = t.buttons.findIndex((b) => buttonParam(t.category, b) === "other")
  if (index >= 0) {
    const type = t.buttons[index].type
    return `The template's ${type} button (index ${index}) needs a parameter other than text, which this API does not send.`
  }
  if (parameterFormat(t) === "mixed") return "The template mixes named and positional placeholders."
  if (t.header?.type === "video" || t.header?.type === "document") {
    return `The template has a ${t.header.type} header, which this API does not send.`
  }
  return undefined
}

/**
 * The body with each placeholder replaced by its value (an authentication template's by the `code`), in one
 * pass: a value holding braces is not read again. A placeholder without a value stays as written.
 */
export const render = (t: NetworkTemplate, params: Readonly<Record<string, string>>): string =>
  t.body.replace(pattern, (whole, key: string) => {
    const value = t.category === "authentication" ? params.code : Object.hasOwn(params, key) ? params[key] : undefined
    return typeof value === "string" ? value : whole
  })
