/** Notifications' operations (DECISIONS 7.1), each declared once. */
import { Either, Schema } from "effect"
import { InsufficientCredits, InvalidRequest, NotFound, SendFailed } from "../errors.ts"
import { LiveKeyRequired } from "../pipeline/errors.ts"
import { type AnyOperation, operation, type Parameter, type RawInput } from "../pipeline/operation.ts"
import { Text } from "../shared/fields.ts"
import { InvalidDestination } from "../verify/errors.ts"
import { Notifications as NotificationsLimits } from "../limits.ts"
import {
  ConsentOptedOut,
  InvalidParams,
  NoWhatsappNumber,
  NumberDisconnected,
  TemplateCategoryNotAllowed,
  TemplateExists,
  TemplateNotApproved,
  TemplateNotEditable,
  TemplatesUnavailable,
  UnknownTemplate,
  UnsupportedTemplate,
  WhatsappNotEnabled,
} from "./errors.ts"
import { templateCategories, templateStatuses } from "./model.ts"
import { Notifications } from "./service.ts"
import { templateCreate, templateEdit } from "./template-write.ts"
import { MessageOutput } from "./wire.ts"

const sendGuard = { audience: "application", scope: "notifications:send", liveOnly: true } as const
const readGuard = { audience: "application", scope: "notifications:read", liveOnly: true } as const
const templatesGuard = { audience: "application", scope: "notifications:templates", liveOnly: true } as const

/** The channel's own checks, before the body is read (DECISIONS 7.2). */
const channelErrors = [LiveKeyRequired, WhatsappNotEnabled, NoWhatsappNumber, NumberDisconnected] as const

const AnObject = Schema.Record({ key: Schema.String, value: Schema.Unknown })

export const SendBody = Schema.Struct({
  to: Schema.String.annotations({
    description: "A Saudi mobile number: `+9665XXXXXXXX`, `9665…`, `009665…`, `05…` or `5…`",
  }),
  template: Schema.String.annotations({ description: "The template's name" }),
  lang: Schema.optional(Schema.String).annotations({
    description: "The template's language; required when it has several",
  }),
  params: Schema.optional(AnObject).annotations({
    description: 'Each placeholder\'s value by its key (`order_id`, `"1"`, `header`, `button_0`; `code`)',
  }),
  reference: Schema.optional(Text(NotificationsLimits.referenceMax)),
  header: Schema.optional(AnObject).annotations({
    description: "`{ image: { link } }`: an image header's public `https` link",
  }),
}).annotations({ identifier: "ChatmsgSend" })

const Placeholder = Schema.Struct({
  key: Schema.String,
  component: Schema.Literal("header", "body", "button"),
  max_length: Schema.Int,
})
const ButtonView = Schema.Struct({
  type: Schema.String,
  text: Schema.String,
  param: Schema.Literal("none", "text", "other"),
})
export const TemplateOutput = Schema.Struct({
  name: Schema.String,
  category: Schema.Literal(...templateCategories),
  parameter_format: Schema.Literal("named", "positional", "mixed", "none"),
  languages: Schema.Array(Schema.Struct({
    lang: Schema.String,
    status: Schema.Literal(...templateStatuses),
    reason: Schema.NullOr(Schema.String),
    header_type: Schema.Literal("none", "text", "image", "video", "document"),
    placeholders: Schema.Array(Placeholder),
    buttons: Schema.Array(ButtonView),
  })),
}).annotations({ identifier: "ChatmsgTemplate" })

const HeaderWrite = Schema.Union(
  Schema.Struct({ type: Schema.Literal("text"), text: Schema.String }),
  Schema.Struct({ type: Schema.Literal("image", "video", "document") }),
)
const ButtonWrite = Schema.Struct({
  type: Schema.Literal("quick_reply", "url", "phone_number", "copy_code", "otp"),
  text: Schema.String,
  url: Schema.optional(Schema.String),
  phone: Schema.optional(Schema.String),
})
const templateFields = {
  category: Schema.Literal(...templateCategories),
  body: Schema.String.annotations({ description: "1 to 1,024 characters; `{{name}}` or `{{1}}` placeholders" }),
  header: Schema.optional(HeaderWrite),
  footer: Schema.optional(Schema.String),
  buttons: Schema.optional(Schema.Array(ButtonWrite)),
}
export const TemplateCreateBody = Schema.Struct({
  name: Schema.String.annotations({ description: "`^[a-z0-9_]{1,512}$`" }),
  lang: Schema.String.annotations({ description: "`^[a-z]{2,3}(_[A-Z]{2})?$`, e.g. `ar`, `en_US`" }),
  ...templateFields,
}).annotations({ identifier: "ChatmsgTemplateCreate" })
export const TemplateEditBody = Schema.Struct(templateFields).annotations({ identifier: "ChatmsgTemplateEdit" })

const pathText = (name: string, description: string): Parameter => ({
  name,
  in: "path",
  description,
  schema: Schema.String,
  required: true,
})
const idParameter = pathText("id", "The message id")
const nameParameter = pathText("name", "The template's name")
const langParameter = pathText("lang", "The template's language")

/** A template write's body refused: one `400 invalid_request` naming every field. */
const writeOf = (raw: RawInput, path: { name: string; lang: string } | undefined) => {
  const body = (raw.body ?? {}) as Readonly<Record<string, unknown>>
  return Either.mapLeft(
    path === undefined ? templateCreate(body) : templateEdit(path.name, path.lang, body),
    (refused) => new InvalidRequest({ message: "The template is not valid.", ...refused }),
  )
}

const sendErrors = [
  ...channelErrors,
  InvalidDestination,
  TemplatesUnavailable,
  UnknownTemplate,
  TemplateCategoryNotAllowed,
  InvalidParams,
  TemplateNotApproved,
  UnsupportedTemplate,
  ConsentOptedOut,
  InsufficientCredits,
  SendFailed,
] as const

export const notificationsOperations = [
  ...([
    [
      "messages",
      "Sends an approved utility or marketing template to a Saudi mobile number from the application's connected number.",
    ],
    ["codes", "Sends an approved authentication template carrying a one-time code (`params: { code }`)."],
  ] as const).map(([route, summary]) =>
    operation({
      name: `chatmsg.${route}.send`,
      summary,
      method: "POST",
      path: `/v1/chatmsg/${route}`,
      caller: { _tag: "Key", guard: sendGuard },
      parameters: [],
      body: SendBody,
      output: MessageOutput,
      errors: sendErrors,
      idempotent: true,
      service: Notifications,
      locate: (n, p) => n.channel(p),
      run: (n, p, input) => n.send(p, route, input.body),
    })
  ),
  operation({
    name: "chatmsg.messages.read",
    summary: "Reads a chat-app message (its number unmasked).",
    method: "GET",
    path: "/v1/chatmsg/messages/{id}",
    caller: { _tag: "Key", guard: readGuard },
    parameters: [idParameter],
    body: undefined,
    output: MessageOutput,
    errors: [LiveKeyRequired, NotFound],
    idempotent: false,
    service: Notifications,
    run: (n, p, input) => n.get(p, input.params.id),
  }),
  operation({
    name: "chatmsg.templates.list",
    summary: "Lists the templates of the application's number, every language, by name.",
    method: "GET",
    path: "/v1/chatmsg/templates",
    caller: { _tag: "Key", guard: readGuard },
    parameters: [],
    body: undefined,
    output: Schema.Struct({ data: Schema.Array(TemplateOutput), next_cursor: Schema.Null }),
    errors: [...channelErrors, TemplatesUnavailable],
    idempotent: false,
    service: Notifications,
    locate: (n, p) => n.channel(p),
    run: (n, p) => n.listTemplates(p),
  }),
  operation({
    name: "chatmsg.templates.create",
    summary: "Submits a template language to the network for approval: it is `pending` until the network decides.",
    method: "POST",
    path: "/v1/chatmsg/templates",
    caller: { _tag: "Key", guard: templatesGuard },
    answer: { status: 201, envelope: "bare" },
    parameters: [],
    body: TemplateCreateBody,
    decode: (raw) => writeOf(raw, undefined),
    output: TemplateOutput,
    errors: [...channelErrors, TemplatesUnavailable, TemplateExists],
    idempotent: true,
    service: Notifications,
    locate: (n, p) => n.channel(p),
    run: (n, p, write) => n.createTemplate(p, write),
  }),
  operation({
    name: "chatmsg.templates.edit",
    summary: "Edits an approved, rejected or paused template language: it is `pending` again.",
    method: "PUT",
    path: "/v1/chatmsg/templates/{name}/{lang}",
    caller: { _tag: "Key", guard: templatesGuard },
    parameters: [nameParameter, langParameter],
    body: TemplateEditBody,
    decode: (raw) => writeOf(raw, { name: raw.params.name, lang: raw.params.lang }),
    output: TemplateOutput,
    errors: [...channelErrors, TemplatesUnavailable, NotFound, TemplateNotEditable],
    idempotent: true,
    service: Notifications,
    locate: (n, p) => n.channel(p),
    run: (n, p, write) => n.editTemplate(p, write),
  }),
  operation({
    name: "chatmsg.templates.delete",
    summary: "Deletes every language of a template.",
    method: "DELETE",
    path: "/v1/chatmsg/templates/{name}",
    caller: { _tag: "Key", guard: templatesGuard },
    parameters: [nameParameter],
    body: undefined,
    output: Schema.Struct({ name: Schema.String, deleted: Schema.Literal(true) }),
    errors: [...channelErrors, TemplatesUnavailable, NotFound],
    idempotent: true,
    service: Notifications,
    locate: (n, p) => n.channel(p),
    run: (n, p, input) => n.deleteTemplate(p, input.params.name),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
