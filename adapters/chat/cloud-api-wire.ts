/**
 * The WhatsApp Cloud API's wire shapes and their mapping onto the chat-network port, as pure functions
 * (adapters/chat/cloud-api.ts does the HTTP). Documented at
 *   https://developers.facebook.com/docs/whatsapp/cloud-api/guides/send-message-templates   (template sends)
 *   https://developers.facebook.com/docs/whatsapp/business-management-api/message-templates (template rows)
 *   https://developers.facebook.com/docs/whatsapp/cloud-api/webhooks/components            (webhook payloads)
 *   https://developers.facebook.com/docs/whatsapp/cloud-api/messages/interactive-list-messages (session lists)
 *   https://developers.facebook.com/docs/whatsapp/cloud-api/messages/interactive-reply-buttons-messages (buttons)
 */
import { Option } from "effect"
import type { NetworkTemplate, TemplateButton, TemplateHeader, TemplateWrite } from "../../core/notifications/model.ts"
import type { ApplicationId } from "../../core/shared/brands.ts"
import { parseSaudiMobile } from "../../core/shared/phone.ts"
import type {
  NetworkCallbacks,
  NetworkInbound,
  NetworkReport,
  SessionChoice,
  SessionSend,
  TemplateSend,
} from "../../ports/chat-network.ts"

type Json = Record<string, unknown>

export const isRecord = (u: unknown): u is Json => typeof u === "object" && u !== null && !Array.isArray(u)
const str = (u: unknown): string | undefined => typeof u === "string" ? u : undefined
const records = (u: unknown): ReadonlyArray<Json> => Array.isArray(u) ? u.filter(isRecord) : []

export const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The Graph API's error envelope `{ error: { message, type, code, error_subcode, fbtrace_id } }`. */
export const graphError = (json: unknown): { readonly code: string; readonly message: string } | undefined => {
  if (!isRecord(json) || !isRecord(json["error"])) return undefined
  const error = json["error"]
  const code = error["code"]
  if (typeof code !== "number" && typeof code !== "string") return undefined
  const message = str(error["message"]) ?? ""
  return { code: String(code), message: message.length > 300 ? `${message.slice(0, 300)}…` : message }
}

/** `+966 50 123 4567`, `966501234567` → `+966501234567`. */
export const e164 = (display: string): string => `+${display.replace(/\D/g, "")}`

// ---- template rows -------------------------------------------------------------------------------------------

const statuses: Readonly<Record<string, NetworkTemplate["status"]>> = {
  APPROVED: "approved",
  // Flagged templates still send (a warning before a pause); reinstated ones are approved again.
  FLAGGED: "approved",
  REINSTATED: "approved",
  PENDING: "pending",
  IN_APPEAL: "pending",
  REJECTED: "rejected",
  PAUSED: "paused",
  DISABLED: "disabled",
}
const categories: Readonly<Record<string, NetworkTemplate["category"]>> = {
  UTILITY: "utility",
  MARKETING: "marketing",
  AUTHENTICATION: "authentication",
}
const fallbackReason: Readonly<Record<string, string>> = {
  rejected: "Rejected by WhatsApp",
  paused: "Paused by WhatsApp for low quality",
  disabled: "Disabled by WhatsApp",
}

const headerOf = (component: Json | undefined): TemplateHeader | null => {
  if (component === undefined) return null
  const format = str(component["format"])?.toUpperCase()
  if (format === "TEXT") return { type: "text", text: str(component["text"]) ?? "" }
  if (format === "IMAGE") return { type: "image" }
  if (format === "VIDEO") return { type: "video" }
  if (format === "DOCUMENT") return { type: "document" }
  return null // LOCATION headers take no parameter the platform offers
}

const buttonOf = (button: Json, authentication: boolean): TemplateButton => {
  const raw = (str(button["type"]) ?? "").toLowerCase()
  // Authentication's OTP button is stored as a URL button ("upon creation the button type will be set to URL").
  const type = authentication && raw === "url" ? "otp" : raw
  return {
    type,
    text: str(button["text"]) ?? "",
    ...(str(button["url"]) !== undefined ? { url: str(button["url"]) } : {}),
    ...(str(button["phone_number"]) !== undefined ? { phone: str(button["phone_number"]) } : {}),
  }
}

/** One row of `GET /{waba-id}/message_templates`; null for rows the platform cannot use (deleted, archived…). */
export const templateFromRow = (row: Json): NetworkTemplate | null => {
  const name = str(row["name"])
  const lang = str(row["language"])
  const status = statuses[str(row["status"])?.toUpperCase() ?? ""]
  const category = categories[str(row["category"])?.toUpperCase() ?? ""]
  if (name === undefined || lang === undefined || status === undefined || category === undefined) return null
  const components = records(row["components"])
  const component = (type: string) => components.find((c) => str(c["type"])?.toUpperCase() === type)
  const rejected = str(row["rejected_reason"])
  const reason = status in fallbackReason
    ? (rejected !== undefined && rejected !== "" && rejected !== "NONE" ? rejected : fallbackReason[status])
    : null
  const footer = str(component("FOOTER")?.["text"])
  return {
    name,
    lang,
    category,
    status,
    reason,
    body: str(component("BODY")?.["text"]) ?? "",
    header: headerOf(component("HEADER")),
    footer: footer ?? null,
    buttons: records(component("BUTTONS")?.["buttons"]).map((b) => buttonOf(b, category === "authentication")),
  }
}

// ---- template writes -----------------------------------------------------------------------------------------

const placeholders = (text: string): ReadonlyArray<string> => {
  const seen: Array<string> = []
  for (const match of text.matchAll(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g)) {
    if (!seen.includes(match[1])) seen.push(match[1])
  }
  return seen
}
const isPositional = (key: string) => /^\d+$/.test(key)
const sample = (key: string) => isPositional(key) ? `sample_${key}` : key

/** Named when any placeholder of the body or header is a name (`{{order_id}}`), else positional. */
const parameterFormat = (t: TemplateWrite): "NAMED" | "POSITIONAL" => {
  const keys = [...placeholders(t.body), ...(t.header?.type === "text" ? placeholders(t.header.text) : [])]
  return keys.some((k) => !isPositional(k)) ? "NAMED" : "POSITIONAL"
}

const textExample = (text: string, named: boolean, part: "header" | "body"): Json | undefined => {
  const keys = placeholders(text)
  if (keys.length === 0) return undefined
  if (named) return { [`${part}_text_named_params`]: keys.map((k) => ({ param_name: k, example: sample(k) })) }
  return part === "header" ? { header_text: keys.map(sample) } : { body_text: [keys.map(sample)] }
}

const writeButton = (b: TemplateButton): Json => {
  const type = b.type.toUpperCase()
  if (type === "OTP") return { type, otp_type: "COPY_CODE", text: b.text }
  if (type === "URL") {
    const dynamic = b.url !== undefined && placeholders(b.url).length > 0
    return {
      type,
      text: b.text,
      url: b.url,
      ...(dynamic && b.url !== undefined ? { example: [b.url.replace(/\{\{[^}]*\}\}/g, "sample")] } : {}),
    }
  }
  if (type === "PHONE_NUMBER") return { type, text: b.text, phone_number: b.phone }
  if (type === "COPY_CODE") return { type, example: "SAMPLE" }
  return { type, text: b.text }
}

/**
 * A body that tells the customer not to share the code, in English or Arabic. From a string, not a regular expression
 * literal: the bundler escapes a string's Arabic letters, so the built bundle stays ASCII (one byte a character).
 */
const doNotShare = new RegExp("do not share|لا تشارك", "i")

/**
 * Components of a create or edit. Authentication bodies are preset by WhatsApp (only the security
 * recommendation and the code's expiry are chosen), so they are read off the platform's body and footer.
 * Media headers go without the `header_handle` example (it needs a resumable upload the platform does not make).
 */
export const writeComponents = (t: TemplateWrite): ReadonlyArray<Json> => {
  const buttons = t.buttons.length > 0 ? [{ type: "BUTTONS", buttons: t.buttons.map(writeButton) }] : []
  if (t.category === "authentication") {
    const minutes = t.footer === null ? undefined : /(\d+)/.exec(t.footer)?.[1]
    return [
      { type: "BODY", add_security_recommendation: doNotShare.test(t.body) },
      ...(minutes !== undefined ? [{ type: "FOOTER", code_expiration_minutes: Number(minutes) }] : []),
      ...buttons,
    ]
  }
  const named = parameterFormat(t) === "NAMED"
  const header: Array<Json> = t.header === null ? [] : t.header.type === "text"
    ? [
      withExample({ type: "HEADER", format: "TEXT", text: t.header.text }, textExample(t.header.text, named, "header")),
    ]
    : [{ type: "HEADER", format: t.header.type.toUpperCase() }]
  return [
    ...header,
    withExample({ type: "BODY", text: t.body }, textExample(t.body, named, "body")),
    ...(t.footer !== null ? [{ type: "FOOTER", text: t.footer }] : []),
    ...buttons,
  ]
}
const withExample = (component: Json, example: Json | undefined): Json =>
  example === undefined ? component : { ...component, example }

/** The body of `POST /{waba-id}/message_templates`. */
export const createBody = (t: TemplateWrite): Json => ({
  name: t.name,
  language: t.lang,
  category: t.category.toUpperCase(),
  ...(t.category === "authentication" ? {} : { parameter_format: parameterFormat(t) }),
  components: writeComponents(t),
})

// ---- sends ---------------------------------------------------------------------------------------------------

const textParam = (key: string, text: string): Json =>
  isPositional(key) ? { type: "text", text } : { type: "text", parameter_name: key, text }

/** The `components` of a template send, from the template and the parameters by key (DECISIONS 7.1). */
export const sendComponents = (m: TemplateSend): ReadonlyArray<Json> => {
  const t = m.template
  const out: Array<Json> = []
  const code = m.params["code"]
  if (t.category === "authentication" && code !== undefined) {
    out.push({ type: "body", parameters: [{ type: "text", text: code }] })
    const index = t.buttons.findIndex((b) => b.type === "otp" || b.type === "url")
    if (index >= 0) {
      out.push({ type: "button", sub_type: "url", index: String(index), parameters: [{ type: "text", text: code }] })
    }
    return out
  }
  if (t.header?.type === "text" && m.params["header"] !== undefined) {
    const key = placeholders(t.header.text)[0] ?? "1"
    out.push({ type: "header", parameters: [textParam(key, m.params["header"])] })
  } else if (t.header?.type === "image" && m.headerImageLink !== null) {
    out.push({ type: "header", parameters: [{ type: "image", image: { link: m.headerImageLink } }] })
  }
  const keys = placeholders(t.body).filter((k) => m.params[k] !== undefined)
  const ordered = keys.every(isPositional) ? [...keys].sort((a, b) => Number(a) - Number(b)) : keys
  if (ordered.length > 0) out.push({ type: "body", parameters: ordered.map((k) => textParam(k, m.params[k])) })
  t.buttons.forEach((_, index) => {
    const value = m.params[`button_${index}`]
    if (value !== undefined) {
      out.push({ type: "button", sub_type: "url", index: String(index), parameters: [{ type: "text", text: value }] })
    }
  })
  return out
}

/** The body of `POST /{phone-number-id}/messages`: `to` without `+`, the platform's id as callback data. */
export const sendBody = (m: TemplateSend): Json => {
  const components = sendComponents(m)
  return {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to: m.to.replace(/^\+/, ""),
    type: "template",
    template: {
      name: m.template.name,
      language: { code: m.template.lang },
      ...(components.length > 0 ? { components } : {}),
    },
    biz_opaque_callback_data: m.messageId,
  }
}

// ---- session messages ----------------------------------------------------------------------------------------

/** The Cloud API's limits on a session message, in characters. */
export const SessionLimits = {
  /** `text.body`. */
  textBody: 4096,
  /** `interactive.body.text`. */
  interactiveBody: 1024,
  /** Reply buttons: at most 3, a title of at most 20. */
  buttons: 3,
  buttonTitle: 20,
  /** A list: its button's label, its rows (every section together), a row's title and description. */
  listButton: 20,
  listRows: 10,
  rowTitle: 24,
  rowDescription: 72,
} as const

const chars = (s: string): number => [...s].length
const cut = (s: string, max: number): string => chars(s) <= max ? s : [...s].slice(0, max).join("")

/** Reply buttons show a title only: they serve up to 3 choices with short titles and no description. */
const asButtons = (choices: ReadonlyArray<SessionChoice>): boolean =>
  choices.length <= SessionLimits.buttons &&
  choices.every((c) => c.description === null && chars(c.title) <= SessionLimits.buttonTitle)

/**
 * The body of `POST /{phone-number-id}/messages` for a session message: `type: text` without choices,
 * `interactive` reply buttons for up to 3 short ones without descriptions, else an `interactive` list of one
 * section (a tap answers `button_reply` / `list_reply` with the choice's id).
 */
export const sessionBody = (m: SessionSend): Json => {
  const envelope = { messaging_product: "whatsapp", recipient_type: "individual", to: m.to.replace(/^\+/, "") }
  if (m.choices.length === 0) {
    return { ...envelope, type: "text", text: { preview_url: false, body: cut(m.text, SessionLimits.textBody) } }
  }
  const body = { text: cut(m.text, SessionLimits.interactiveBody) }
  if (asButtons(m.choices)) {
    return {
      ...envelope,
      type: "interactive",
      interactive: {
        type: "button",
        body,
        action: { buttons: m.choices.map((c) => ({ type: "reply", reply: { id: c.id, title: c.title } })) },
      },
    }
  }
  return {
    ...envelope,
    type: "interactive",
    interactive: {
      type: "list",
      body,
      action: {
        button: cut(m.listButton, SessionLimits.listButton),
        sections: [{
          rows: m.choices.slice(0, SessionLimits.listRows).map((c) => ({
            id: c.id,
            title: cut(c.title, SessionLimits.rowTitle),
            ...(c.description === null ? {} : { description: cut(c.description, SessionLimits.rowDescription) }),
          })),
        }],
      },
    },
  }
}

// ---- webhook deliveries --------------------------------------------------------------------------------------

/** "Message failed to send because the user has stopped marketing messages" (a per-number opt-out). */
export const USER_STOPPED_MARKETING = 131050
const reportStatuses = new Set(["sent", "delivered", "read", "failed"])
/** The text of WhatsApp's marketing opt-out quick reply ("Stop promotions"). */
const optOutButton = /^stop promotions$/i

const inboundOf = (
  message: Json,
  application: ApplicationId,
  contacts: ReadonlyArray<Json>,
): NetworkInbound | null => {
  const from = Option.getOrUndefined(parseSaudiMobile(str(message["from"]) ?? ""))
  if (from === undefined) return null
  const contact = contacts.find((c) => c["wa_id"] === message["from"]) ?? contacts[0]
  const name = isRecord(contact?.["profile"]) ? str(contact["profile"]["name"]) ?? null : null
  let text: string | null = null
  let choiceId: string | null = null
  let optOut = false
  const type = str(message["type"])
  if (type === "text" && isRecord(message["text"])) text = str(message["text"]["body"]) ?? null
  if (type === "button" && isRecord(message["button"])) {
    text = str(message["button"]["text"]) ?? str(message["button"]["payload"]) ?? null
    optOut = [message["button"]["text"], message["button"]["payload"]].some((s) =>
      typeof s === "string" && optOutButton.test(s.trim())
    )
  }
  if (type === "interactive" && isRecord(message["interactive"])) {
    const reply = message["interactive"]["button_reply"] ?? message["interactive"]["list_reply"]
    if (isRecord(reply)) choiceId = str(reply["id"]) ?? null
  }
  return { application, from, name, text, choiceId, optOut }
}

const reportOf = (status: Json): NetworkReport | null => {
  const id = str(status["id"])
  const value = str(status["status"])
  if (id === undefined || value === undefined || !reportStatuses.has(value)) return null
  const first = records(status["errors"])[0]
  const error = value !== "failed" || first === undefined ? null : {
    code: String(first["code"] ?? "unknown"),
    message: str(first["title"]) ?? str(first["message"]) ?? "",
  }
  return { providerMessageId: id, status: value as NetworkReport["status"], error }
}

/** What a verified delivery carried; `applicationOf` finds the application of a `metadata.phone_number_id`. */
export const parseDelivery = (
  json: unknown,
  applicationOf: (phoneNumberId: string) => ApplicationId | undefined,
): NetworkCallbacks => {
  const reports: Array<NetworkReport> = []
  const inbound: Array<NetworkInbound> = []
  for (const entry of records(isRecord(json) ? json["entry"] : undefined)) {
    for (const change of records(entry["changes"])) {
      const value = isRecord(change["value"]) ? change["value"] : {}
      const phoneNumberId = isRecord(value["metadata"]) ? str(value["metadata"]["phone_number_id"]) : undefined
      const application = phoneNumberId === undefined ? undefined : applicationOf(phoneNumberId)
      for (const status of records(value["statuses"])) {
        const report = reportOf(status)
        if (report !== null) reports.push(report)
        const stopped = records(status["errors"]).some((e) => Number(e["code"]) === USER_STOPPED_MARKETING)
        const to = Option.getOrUndefined(parseSaudiMobile(str(status["recipient_id"]) ?? ""))
        if (stopped && application !== undefined && to !== undefined) {
          inbound.push({ application, from: to, name: null, text: null, choiceId: null, optOut: true })
        }
      }
      if (application === undefined) continue
      const contacts = records(value["contacts"])
      for (const message of records(value["messages"])) {
        const one = inboundOf(message, application, contacts)
        if (one !== null) inbound.push(one)
      }
    }
  }
  return { reports, inbound }
}
