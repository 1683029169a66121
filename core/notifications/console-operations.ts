/**
 * Notifications' console operations (DECISIONS 7.3-7.4): the channel switch and consent; and the chat-network
 * simulator's, served only while `CHAT_PROVIDER` is `simulator`.
 */
import { outcomes } from "../chat/conversation.ts"
import { Effect, Either, Option, Schema } from "effect"
import { applicationParameter, consoleCaller as console, consoleDone as done } from "../console/operations.ts"
import { InvalidRequest, NotFound, notFound } from "../errors.ts"
import { isUuid } from "../shared/brands.ts"
import { type AnyOperation, operation, type Parameter } from "../pipeline/operation.ts"
import { consoleBody } from "../shared/fields.ts"
import { parseSaudiMobile, SaudiMobileFromString } from "../shared/phone.ts"
import { mediaHeaderTypes, reportStatuses, templateCategories, templateStatuses } from "./model.ts"
import { TemplateOutput } from "./operations.ts"
import { Notifications } from "./service.ts"
import { ChatSimulator } from "./simulator.ts"
import { MessageOutput } from "./wire.ts"

const Mobile = SaudiMobileFromString.annotations({ description: "A Saudi mobile number, in any accepted form" })

const ChannelOutput = Schema.Struct({
  enabled: Schema.Boolean,
  number: Schema.NullOr(Schema.String),
  connected: Schema.Boolean,
}).annotations({ identifier: "ChatmsgChannel" })

const ConsentOutput = Schema.Struct({
  to: Schema.String,
  opted_out: Schema.Boolean,
  source: Schema.Literal("inbound", "console"),
  updated_at: Schema.String,
}).annotations({ identifier: "ChatmsgConsent" })

const pathText = (name: string, description: string): Parameter => ({
  name,
  in: "path",
  description,
  schema: Schema.String,
  required: true,
})

export const notificationsConsoleOperations = [
  operation({
    name: "console.chatmsg.channel.put",
    summary: "Turns an application's chat-app channel on or off (on by default).",
    method: "PUT",
    path: "/console/v1/applications/{application}/chatmsg",
    caller: console,
    answer: done,
    parameters: [applicationParameter],
    body: consoleBody({ enabled: Schema.Boolean }),
    output: ChannelOutput,
    errors: [NotFound],
    idempotent: false,
    service: Notifications,
    run: (n, _, input) => n.setChannel(input.params.application, input.body.enabled),
  }),
  operation({
    name: "console.chatmsg.consent.put",
    summary: "Records or lifts a customer's opt-out of an application's marketing messages.",
    method: "PUT",
    path: "/console/v1/applications/{application}/chatmsg/consent",
    caller: console,
    answer: done,
    parameters: [applicationParameter],
    body: consoleBody({ to: Mobile, opted_out: Schema.Boolean }),
    output: ConsentOutput,
    errors: [NotFound],
    idempotent: false,
    service: Notifications,
    run: (n, _, input) => n.setConsent(input.params.application, input.body.to, input.body.opted_out),
  }),
] as const satisfies ReadonlyArray<AnyOperation>

const HeaderCopy = Schema.Union(
  Schema.Struct({ type: Schema.Literal("text"), text: Schema.String }),
  Schema.Struct({ type: Schema.Literal(...mediaHeaderTypes) }),
)
const ButtonCopy = Schema.Struct({
  type: Schema.Literal("quick_reply", "url", "phone_number", "copy_code", "otp", "flow", "catalog"),
  text: Schema.String,
  url: Schema.optional(Schema.String),
  phone: Schema.optional(Schema.String),
})
const TemplateCopyBody = consoleBody({
  category: Schema.Literal(...templateCategories),
  status: Schema.Literal(...templateStatuses),
  body: Schema.String,
  header: Schema.optional(HeaderCopy),
  footer: Schema.optional(Schema.String),
  buttons: Schema.optional(Schema.Array(ButtonCopy)),
  reason: Schema.optional(Schema.String),
})
const decodeTemplateCopy = Schema.decodeUnknownEither(TemplateCopyBody)

const namePattern = /^[a-z0-9_]{1,512}$/
const langPattern = /^[a-z]{2,3}(_[A-Z]{2})?$/

const simulatorApplication = "/console/v1/simulator/chatmsg/applications/{application}"

export const chatSimulatorOperations = [
  operation({
    name: "console.simulator.chatmsg.number.put",
    summary: "Attaches a number to an application on the simulated network (`connected: false`: disconnected).",
    method: "PUT",
    path: `${simulatorApplication}/number`,
    caller: console,
    answer: done,
    parameters: [applicationParameter],
    body: consoleBody({ number: Mobile, connected: Schema.optional(Schema.Boolean) }),
    output: ChannelOutput,
    errors: [NotFound],
    idempotent: false,
    service: ChatSimulator,
    run: (s, _, input) => s.setNumber(input.params.application, input.body.number, input.body.connected ?? true),
  }),
  operation({
    name: "console.simulator.chatmsg.number.delete",
    summary: "Detaches the application's number from the simulated network.",
    method: "DELETE",
    path: `${simulatorApplication}/number`,
    caller: console,
    answer: done,
    parameters: [applicationParameter],
    body: undefined,
    output: ChannelOutput,
    errors: [NotFound],
    idempotent: false,
    service: ChatSimulator,
    run: (s, _, input) => s.setNumber(input.params.application, undefined, false),
  }),
  operation({
    name: "console.simulator.chatmsg.template.put",
    summary:
      "Writes the simulated network's copy of one template language (any status; `flow`, `catalog` and marketing `copy_code` buttons take a non-text parameter).",
    method: "PUT",
    path: `${simulatorApplication}/templates/{name}/{lang}`,
    caller: console,
    answer: done,
    parameters: [applicationParameter, pathText("name", "The template's name"), pathText("lang", "Its language")],
    body: TemplateCopyBody,
    decode: ({ body, params }) => {
      // A path value that cannot be an application names nothing: 404 before the body is judged.
      if (!isUuid(params.application)) return Either.left(notFound)
      const fields: Record<string, string> = {}
      if (!namePattern.test(params.name)) fields.name = "must match ^[a-z0-9_]{1,512}$"
      if (!langPattern.test(params.lang)) fields.lang = "must match ^[a-z]{2,3}(_[A-Z]{2})?$"
      const copy = decodeTemplateCopy(body ?? {})
      if (Either.isLeft(copy)) fields.body = "must be { category, status, body, header?, footer?, buttons?, reason? }"
      if (Object.keys(fields).length > 0 || Either.isLeft(copy)) {
        return Either.left(new InvalidRequest({ message: "The template copy is not valid.", fields }))
      }
      return Either.right({ application: params.application, name: params.name, lang: params.lang, copy: copy.right })
    },
    output: TemplateOutput,
    errors: [NotFound],
    idempotent: false,
    service: ChatSimulator,
    run: (s, _, input) => s.putTemplate(input.application, input.name, input.lang, input.copy),
  }),
  operation({
    name: "console.simulator.chatmsg.template.delete",
    summary: "Deletes one template language from the simulated network.",
    method: "DELETE",
    path: `${simulatorApplication}/templates/{name}/{lang}`,
    caller: console,
    answer: done,
    parameters: [applicationParameter, pathText("name", "The template's name"), pathText("lang", "Its language")],
    body: undefined,
    output: Schema.Struct({ name: Schema.String, lang: Schema.String, deleted: Schema.Literal(true) }),
    errors: [NotFound],
    idempotent: false,
    service: ChatSimulator,
    run: (s, _, input) => s.deleteTemplate(input.params.application, input.params.name, input.params.lang),
  }),
  operation({
    name: "console.simulator.chatmsg.network.put",
    summary: "Makes the simulated network answer template reads for the application, or not.",
    method: "PUT",
    path: `${simulatorApplication}/network`,
    caller: console,
    answer: done,
    parameters: [applicationParameter],
    body: consoleBody({ templates_readable: Schema.Boolean }),
    output: Schema.Struct({ templates_readable: Schema.Boolean }),
    errors: [NotFound],
    idempotent: false,
    service: ChatSimulator,
    run: (s, _, input) => s.setNetwork(input.params.application, input.body.templates_readable),
  }),
  operation({
    name: "console.simulator.chatmsg.report",
    summary: "The simulated network's status report on a message; answers the message.",
    method: "POST",
    path: "/console/v1/simulator/chatmsg/messages/{id}/report",
    caller: console,
    answer: done,
    parameters: [pathText("id", "The message id")],
    body: consoleBody({
      status: Schema.Literal(...reportStatuses),
      error: Schema.optional(Schema.Struct({ code: Schema.String, message: Schema.String })),
    }),
    output: MessageOutput,
    errors: [NotFound],
    idempotent: false,
    service: ChatSimulator,
    run: (s, _, input) => s.report(input.params.id, input.body.status, input.body.error),
  }),
  operation({
    name: "console.simulator.chatmsg.inbound",
    summary: "A customer's message to an application's number (STOP and START words, attendant taps).",
    method: "POST",
    path: "/console/v1/simulator/chatmsg/inbound",
    caller: console,
    answer: done,
    parameters: [],
    body: consoleBody({
      application: Schema.UUID,
      from: Mobile,
      name: Schema.optional(Schema.String),
      text: Schema.optional(Schema.String),
      choice_id: Schema.optional(Schema.String),
    }),
    output: Schema.Struct({
      application: Schema.String,
      from: Schema.String,
      consent: Schema.NullOr(ConsentOutput),
      attendant: Schema.NullOr(Schema.Struct({
        conversation_id: Schema.String,
        outcome: Schema.Literal(...outcomes),
        messages: Schema.Array(Schema.Struct({
          text: Schema.String,
          choices: Schema.Array(
            Schema.Struct({ id: Schema.String, title: Schema.String, description: Schema.NullOr(Schema.String) }),
          ),
        })),
      })),
    }),
    errors: [NotFound],
    idempotent: false,
    service: ChatSimulator,
    run: (s, _, input) => s.inbound(input.body),
  }),
  operation({
    name: "console.simulator.chatmsg.messages.list",
    summary: "The messages the simulated network took, newest first (at most 100), to one number or all.",
    method: "GET",
    path: "/console/v1/simulator/chatmsg/messages",
    caller: console,
    answer: done,
    parameters: [{
      name: "to",
      in: "query",
      description: "A Saudi mobile number, in any accepted form",
      schema: Schema.String,
      required: false,
    }],
    body: undefined,
    decode: ({ query }) => {
      const given = query.get("to")
      if (given === null) return Either.right(undefined)
      const to = parseSaudiMobile(given)
      return Option.isSome(to) ? Either.right(to.value) : Either.left(
        new InvalidRequest({ message: "`to` must be a Saudi mobile number.", fields: { to: "invalid" } }),
      )
    },
    output: Schema.Array(Schema.Struct({
      id: Schema.String,
      to: Schema.String,
      template: Schema.String,
      lang: Schema.String,
      text: Schema.String,
      sent_at: Schema.String,
    })),
    errors: [],
    idempotent: false,
    service: ChatSimulator,
    run: (s, _, to) => Effect.map(s.sent(to), (rows) => rows),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
