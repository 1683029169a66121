/**
 * Notifications (DECISIONS 7): template sends in the order of checks of 7.2, templates read and written through
 * the chat network, messages and their statuses (7.3), consent from customers' messages and the console.
 */
import { Clock, Effect, Option } from "effect"
import {
  ChatNetwork,
  type NetworkInbound,
  type NetworkReport,
  type NetworkWebhookRequest,
} from "../../ports/chat-network.ts"
import { OutboxRepo } from "../../ports/store/outbox.ts"
import {
  ChatChannelsRepo,
  ChatConsentRepo,
  type ChatMessage,
  ChatMessagesRepo,
  type Consent,
} from "../../ports/store/notifications.ts"
import { Secrets } from "../../ports/secrets.ts"
import { Transactor } from "../../ports/store/transactor.ts"
import { WalletRepo } from "../../ports/store/wallet.ts"
import { PaymentProvider } from "../../ports/payments.ts"
import { Console } from "../console/service.ts"
import { notFound, SendFailed } from "../errors.ts"
import { InvalidDestination } from "../verify/errors.ts"
import type { KeyPrincipal } from "../pipeline/authenticate.ts"
import { type ApplicationId, type EventId, isUuid, type Millis, type SaudiMobile } from "../shared/brands.ts"
import { parseSaudiMobile } from "../shared/phone.ts"
import { isoMillis } from "../shared/riyadh.ts"
import { untracedStacks } from "../shared/tracing.ts"
import { afterCharge, afterChargeDue, charge, type ChargeRequest, countCharge, refund } from "../wallet/charge.ts"
import { Prices } from "../limits.ts"
import { consentSignal } from "./consent.ts"
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
import type { MessageError, NetworkTemplate, ReportStatus, TemplateWrite } from "./model.ts"
import { langProblem, paramProblems, paramRefusal } from "./params.ts"
import { applyReport } from "./status.ts"
import { describeTemplates, render, unsupportedReason } from "./template.ts"
import { messageEventJson, messageJson } from "./wire.ts"
import { InvalidRequest } from "../pipeline/errors.ts"

/** Which send route a template is sent through: one-time codes have their own (DECISIONS 7.1). */
export type SendRoute = "messages" | "codes"

export interface SendInput {
  readonly to: string
  readonly template: string
  readonly lang?: string | undefined
  readonly params?: Readonly<Record<string, unknown>> | undefined
  readonly reference?: string | undefined
  readonly header?: Readonly<Record<string, unknown>> | undefined
}

const routeOf = (category: NetworkTemplate["category"]): SendRoute =>
  category === "authentication" ? "codes" : "messages"

const unavailable = (message: string) => new TemplatesUnavailable({ message })
const unavailableMessage = "The chat network did not answer with the template list; nothing was sent or charged."

export class Notifications extends Effect.Service<Notifications>()("core/Notifications", {
  effect: Effect.gen(function* () {
    const tx = yield* Transactor
    const messages = yield* ChatMessagesRepo
    const channels = yield* ChatChannelsRepo
    const consent = yield* ChatConsentRepo
    const network = yield* ChatNetwork
    const outbox = yield* OutboxRepo
    const secrets = yield* Secrets
    const operator = yield* Console
    // What the wallet's charge and what follows it read, held for the sends.
    const walletContext = yield* Effect.context<WalletRepo | PaymentProvider | Secrets | OutboxRepo>()

    /** The templates of the application's number, or `503 templates_unavailable`. */
    const templatesOf = (applicationId: ApplicationId) =>
      Effect.mapError(network.templates(applicationId), () => unavailable(unavailableMessage))

    /**
     * The channel's own steps, before the body is read (DECISIONS 7.2): `whatsapp_not_enabled`,
     * `no_whatsapp_number`, `number_disconnected`.
     */
    const channel = (p: KeyPrincipal) =>
      Effect.gen(function* () {
        if (!(yield* channels.enabled(p.application.id))) {
          return yield* new WhatsappNotEnabled({})
        }
        const number = yield* Effect.mapError(network.number(p.application.id), () => unavailable(unavailableMessage))
        if (Option.isNone(number)) return yield* new NoWhatsappNumber({})
        if (!number.value.connected) return yield* new NumberDisconnected({})
        return number.value
      })

    const chargeOf = (p: KeyPrincipal, price: number, reference: string, at: Millis): ChargeRequest => ({
      account: p.account,
      priceHalalas: price,
      product: "notifications",
      reference,
      at,
    })

    const send = Effect.fn("Notifications.send", untracedStacks)(
      function* (p: KeyPrincipal, route: SendRoute, input: SendInput) {
        const to = parseSaudiMobile(input.to)
        if (Option.isNone(to)) return yield* new InvalidDestination({})
        const copies = yield* templatesOf(p.application.id)
        const languages = copies.filter((t) => t.name === input.template)
        const chosen = input.lang === undefined ? languages : languages.filter((t) => t.lang === input.lang)
        if (chosen.length === 0) {
          return yield* new UnknownTemplate({})
        }
        const category = chosen[0].category
        if (routeOf(category) !== route) {
          return yield* new TemplateCategoryNotAllowed({
            message: category === "authentication"
              ? "Authentication templates carry one-time codes: send them with POST /v1/chatmsg/codes."
              : `A ${category} template is sent with POST /v1/chatmsg/messages; /v1/chatmsg/codes takes authentication templates only.`,
          })
        }
        const langRequired = langProblem(languages.length, input.lang)
        if (langRequired !== undefined) {
          return yield* new InvalidParams({
            message: "The template has several languages: name one with `lang`.",
            fields: { lang: "The template has several languages: name one." },
            errors: { lang: langRequired },
          })
        }
        const template = chosen[0]
        if (template.status !== "approved") {
          return yield* new TemplateNotApproved({ message: `The template is ${template.status}.` })
        }
        const unsupported = unsupportedReason(template)
        if (unsupported !== undefined) return yield* new UnsupportedTemplate({ message: unsupported })
        const params = input.params ?? {}
        const problems = paramProblems(template, params, input.header)
        if (Object.keys(problems).length > 0) {
          return yield* new InvalidParams(paramRefusal(problems, template))
        }
        if (category === "marketing") {
          const held = yield* consent.get(p.application.id, to.value)
          if (Option.isSome(held) && held.value.optedOut) return yield* new ConsentOptedOut({})
        }
        const values = params as Readonly<Record<string, string>>
        const headerImageLink = template.header?.type === "image"
          ? (input.header as { image: { link: string } }).image.link
          : null
        const price = Prices.chatmsgHalalas[category]
        const id = yield* secrets.uuid
        const now = yield* Clock.currentTimeMillis
        const request = chargeOf(p, price, id, now)
        const message: ChatMessage = {
          id,
          applicationId: p.application.id,
          accountId: p.account.id,
          to: to.value,
          template: template.name,
          lang: template.lang,
          category,
          reference: input.reference ?? null,
          priceHalalas: price,
          status: "accepted",
          error: null,
          providerMessageId: null,
          createdAt: now,
          occurredAt: now,
        }
        // Charged at acceptance, with the message, in one transaction.
        const charged = yield* tx.withTransaction(
          Effect.zipLeft(charge(request), messages.insert(message)),
        ).pipe(Effect.provide(walletContext))
        const sent = yield* Effect.either(network.send({
          application: p.application.id,
          messageId: id,
          to: to.value,
          template,
          params: values,
          headerImageLink,
          text: render(template, values),
        }))
        if (sent._tag === "Left") {
          // Refused at once: refunded in full and nothing kept (no message, no event).
          yield* tx.withTransaction(Effect.zipRight(refund(request), messages.remove(id))).pipe(
            Effect.provide(walletContext),
          )
          return yield* new SendFailed({ provider_code: sent.left.providerCode, message: sent.left.message })
        }
        yield* messages.setProviderId(id, sent.right.providerMessageId)
        yield* countCharge(request)
        if (afterChargeDue(request, charged)) {
          yield* Effect.asVoid(afterCharge(request, charged)).pipe(Effect.provide(walletContext))
        }
        return messageJson({ ...message, providerMessageId: sent.right.providerMessageId })
      },
    )

    const get = Effect.fn("Notifications.get", untracedStacks)(function* (p: KeyPrincipal, id: string) {
      if (!isUuid(id)) return yield* notFound
      const found = yield* messages.get(p.application.id, id)
      if (Option.isNone(found)) return yield* notFound
      return messageJson(found.value)
    })

    const listTemplates = Effect.fn("Notifications.listTemplates", untracedStacks)(function* (p: KeyPrincipal) {
      return { data: describeTemplates(yield* templatesOf(p.application.id)), next_cursor: null }
    })

    /** The template `name` as the API shows it, read again from the network after a write. */
    const templateNamed = (applicationId: ApplicationId, name: string) =>
      Effect.map(templatesOf(applicationId), (copies) => describeTemplates(copies.filter((t) => t.name === name))[0])

    const categoryRefusal = (held: NetworkTemplate) =>
      new InvalidRequest({
        message: `The template's languages share one category: ${held.category}.`,
        fields: { category: `must be ${held.category}, the category of the template's other languages` },
        errors: { category: "invalid" },
      })

    /**
     * Writes through the network. Its own list decides, not the cached one: a language it holds already answers a
     * create as the cached list would have (`409 template_exists`), one it no longer holds answers an edit `404`.
     */
    const writeThrough = <E>(
      applicationId: ApplicationId,
      write: TemplateWrite,
      mode: "create" | "edit",
      conflict: E,
    ) =>
      network.writeTemplate(applicationId, write, mode).pipe(
        Effect.catchTags({
          ChatNetworkUnavailable: () => Effect.fail(unavailable(unavailableMessage)),
          ChatTemplateConflict: () => Effect.fail(conflict),
        }),
      )

    const createTemplate = Effect.fn("Notifications.createTemplate", untracedStacks)(
      function* (p: KeyPrincipal, write: TemplateWrite) {
        const copies = yield* templatesOf(p.application.id)
        const named = copies.filter((t) => t.name === write.name)
        if (named.some((t) => t.lang === write.lang)) {
          return yield* new TemplateExists({
            message: `The template ${write.name} already has the language ${write.lang}: edit it with PUT.`,
          })
        }
        if (named.length > 0 && named[0].category !== write.category) {
          return yield* categoryRefusal(named[0])
        }
        yield* writeThrough(
          p.application.id,
          write,
          "create",
          new TemplateExists({
            message: `The template ${write.name} already has the language ${write.lang}: edit it with PUT.`,
          }),
        )
        return yield* templateNamed(p.application.id, write.name)
      },
    )

    const editTemplate = Effect.fn("Notifications.editTemplate", untracedStacks)(
      function* (p: KeyPrincipal, write: TemplateWrite) {
        const copies = yield* templatesOf(p.application.id)
        const held = copies.find((t) => t.name === write.name && t.lang === write.lang)
        if (held === undefined) return yield* notFound
        if (held.status !== "approved" && held.status !== "rejected" && held.status !== "paused") {
          return yield* new TemplateNotEditable({
            message: `A ${held.status} template cannot be edited; approved, rejected and paused ones can.`,
            status: held.status,
          })
        }
        if (held.category !== write.category) return yield* categoryRefusal(held)
        yield* writeThrough(p.application.id, write, "edit", notFound)
        return yield* templateNamed(p.application.id, write.name)
      },
    )

    const deleteTemplate = Effect.fn("Notifications.deleteTemplate", untracedStacks)(
      function* (p: KeyPrincipal, name: string) {
        const copies = yield* templatesOf(p.application.id)
        if (!copies.some((t) => t.name === name)) return yield* notFound
        yield* Effect.mapError(
          network.deleteTemplate(p.application.id, name),
          () => unavailable(unavailableMessage),
        )
        return { name, deleted: true as const }
      },
    )

    /**
     * Applies a network report to a message (DECISIONS 7.3): forward only, the reached state's event alone, in
     * the transaction that moves it; a report that changes nothing changes nothing. Two reports racing: the
     * loser decides again on what the winner left.
     */
    const applyTo = (found: ChatMessage, report: { status: ReportStatus; error: MessageError | null }) =>
      Effect.gen(function* () {
        let current = found
        for (let attempt = 0; attempt < 10; attempt++) {
          const now = yield* Clock.currentTimeMillis
          const decided = applyReport({ status: current.status, created_at: current.createdAt }, report, now)
          if (decided === "unchanged") return current
          const eventId = (yield* secrets.uuid) as EventId
          const moved = yield* tx.withTransaction(Effect.gen(function* () {
            const after = yield* messages.move({
              id: current.id,
              from: current.status,
              to: decided.status,
              error: decided.error,
              at: now,
            })
            if (Option.isSome(after)) {
              yield* outbox.append([{
                id: eventId,
                event: decided.event,
                data: messageEventJson(after.value),
                applicationId: after.value.applicationId,
                accountId: after.value.accountId,
                externalId: null,
                createdAt: now,
              }])
            }
            return after
          }))
          if (Option.isSome(moved)) return moved.value
          const again = yield* messages.find(current.id)
          if (Option.isNone(again)) return current
          current = again.value
        }
        return yield* Effect.dieMessage(`Notifications: message ${found.id} keeps moving`)
      })

    /** The simulator's report on a message, by the platform's id: the message after it. */
    const report = Effect.fn("Notifications.report", untracedStacks)(
      function* (id: string, input: { status: ReportStatus; error: MessageError | null }) {
        if (!isUuid(id)) return yield* notFound
        const found = yield* messages.find(id)
        if (Option.isNone(found)) return yield* notFound
        return messageJson(yield* applyTo(found.value, input))
      },
    )

    /** A real network's report, by its own id (an unknown one is dropped: not ours, or taken back). */
    const networkReport = (r: NetworkReport) =>
      Effect.flatMap(
        messages.findByProviderId(r.providerMessageId),
        (found) =>
          Option.isNone(found)
            ? Effect.void
            : Effect.asVoid(applyTo(found.value, { status: r.status, error: r.error })),
      )

    /**
     * The network's webhook (a real network's: the Cloud API's challenge and signed deliveries): its answer, once
     * every report and customer's message it carried is applied. A network without one has no such route.
     */
    const webhook = Effect.fn("Notifications.webhook", untracedStacks)(function* (request: NetworkWebhookRequest) {
      if (Option.isNone(network.webhook)) return yield* notFound
      const answer = yield* network.webhook.value(request)
      yield* Effect.forEach(answer.callbacks.reports, networkReport, { discard: true })
      yield* Effect.forEach(answer.callbacks.inbound, inbound, { discard: true })
      return answer
    })

    const consentJson = (c: Consent) => ({
      to: c.to,
      opted_out: c.optedOut,
      source: c.source,
      updated_at: isoMillis(c.updatedAt),
    })

    const recordConsent = (
      applicationId: ApplicationId,
      to: SaudiMobile,
      optedOut: boolean,
      source: Consent["source"],
    ) =>
      Effect.gen(function* () {
        const c: Consent = { applicationId, to, optedOut, source, updatedAt: yield* Clock.currentTimeMillis }
        yield* consent.set(c)
        return c
      })

    /** A customer's message (DECISIONS 7.3): a STOP word records an opt-out, a START word lifts it. */
    const inbound = Effect.fn("Notifications.inbound", untracedStacks)(function* (message: NetworkInbound) {
      const signal = message.optOut ? "opt_out" : message.text === null ? undefined : consentSignal(message.text)
      if (signal === undefined) return Option.none<ReturnType<typeof consentJson>>()
      return Option.some(
        consentJson(yield* recordConsent(message.application, message.from, signal === "opt_out", "inbound")),
      )
    })

    const channelJson = (applicationId: ApplicationId) =>
      Effect.gen(function* () {
        const enabled = yield* channels.enabled(applicationId)
        const number = yield* Effect.orElseSucceed(network.number(applicationId), () => Option.none())
        return {
          enabled,
          number: Option.isSome(number) ? number.value.number : null,
          connected: Option.isSome(number) && number.value.connected,
        }
      })

    /** Console: the channel switch (DECISIONS 7.4). */
    const setChannel = Effect.fn("Notifications.setChannel", untracedStacks)(
      function* (applicationId: string, enabled: boolean) {
        const app = yield* operator.application(applicationId)
        yield* channels.setEnabled(app.id, enabled)
        return yield* channelJson(app.id)
      },
    )

    /** Console: an opt-out set or lifted by the operator (DECISIONS 7.3). */
    const setConsent = Effect.fn("Notifications.setConsent", untracedStacks)(
      function* (applicationId: string, to: SaudiMobile, optedOut: boolean) {
        const app = yield* operator.application(applicationId)
        return consentJson(yield* recordConsent(app.id, to, optedOut, "console"))
      },
    )

    return {
      channel,
      send,
      get,
      listTemplates,
      createTemplate,
      editTemplate,
      deleteTemplate,
      report,
      networkReport,
      inbound,
      webhook,
      channelJson,
      setChannel,
      setConsent,
    } as const
  }),
}) {}
