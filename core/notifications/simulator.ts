/**
 * The chat-network simulator's console use cases (DECISIONS 7.4): what the network holds (numbers, template
 * copies, whether the template list answers), its log, and the network's side of a conversation (status
 * reports, customers' messages), which reach Notifications as a real network's would, and the auto-attendant
 * (whose replies come back through the network port: the log records them).
 */
import { Effect, Option } from "effect"
import { Conversations } from "../chat/conversations.ts"
import { SimulatedChatRepo } from "../../ports/store/chat-simulator.ts"
import { Console } from "../console/service.ts"
import { notFound } from "../errors.ts"
import type { SaudiMobile } from "../shared/brands.ts"
import { isoMillis } from "../shared/riyadh.ts"
import { untracedStacks } from "../shared/tracing.ts"
import type { MessageError, NetworkTemplate, ReportStatus, TemplateButton, TemplateHeader } from "./model.ts"
import { Notifications } from "./service.ts"
import { describeTemplates } from "./template.ts"

export interface SimulatedTemplate {
  readonly category: NetworkTemplate["category"]
  readonly status: NetworkTemplate["status"]
  readonly body: string
  readonly header?: TemplateHeader | undefined
  readonly footer?: string | undefined
  readonly buttons?: ReadonlyArray<TemplateButton> | undefined
  readonly reason?: string | undefined
}

export class ChatSimulator extends Effect.Service<ChatSimulator>()("core/ChatSimulator", {
  effect: Effect.gen(function* () {
    const sim = yield* SimulatedChatRepo
    const operator = yield* Console
    const notifications = yield* Notifications
    const conversations = yield* Conversations

    const setNumber = Effect.fn("ChatSimulator.setNumber", untracedStacks)(
      function* (applicationId: string, number: SaudiMobile | undefined, connected: boolean) {
        const app = yield* operator.application(applicationId)
        yield* sim.setNumber(app.id, number === undefined ? Option.none() : Option.some({ number, connected }))
        return yield* notifications.channelJson(app.id)
      },
    )

    const putTemplate = Effect.fn("ChatSimulator.putTemplate", untracedStacks)(
      function* (applicationId: string, name: string, lang: string, t: SimulatedTemplate) {
        const app = yield* operator.application(applicationId)
        const withReason = t.status === "rejected" || t.status === "paused" || t.status === "disabled"
        yield* sim.putTemplate(app.id, {
          name,
          lang,
          category: t.category,
          status: t.status,
          reason: withReason ? (t.reason ?? `Simulated: ${t.status}.`) : null,
          body: t.body,
          header: t.header ?? null,
          footer: t.footer ?? null,
          buttons: t.buttons ?? [],
        })
        return describeTemplates((yield* sim.templates(app.id)).filter((x) => x.name === name))[0]
      },
    )

    const deleteTemplate = Effect.fn("ChatSimulator.deleteTemplate", untracedStacks)(
      function* (applicationId: string, name: string, lang: string) {
        const app = yield* operator.application(applicationId)
        if ((yield* sim.deleteTemplate(app.id, name, lang)) === 0) return yield* notFound
        return { name, lang, deleted: true as const }
      },
    )

    const setNetwork = Effect.fn("ChatSimulator.setNetwork", untracedStacks)(
      function* (applicationId: string, templatesReadable: boolean) {
        const app = yield* operator.application(applicationId)
        yield* sim.setReadable(app.id, templatesReadable)
        return { templates_readable: templatesReadable }
      },
    )

    const report = (id: string, status: ReportStatus, error: MessageError | undefined) =>
      notifications.report(id, { status, error: error ?? null })

    const inbound = Effect.fn("ChatSimulator.inbound", untracedStacks)(
      function* (input: {
        readonly application: string
        readonly from: SaudiMobile
        readonly name?: string | undefined
        readonly text?: string | undefined
        readonly choice_id?: string | undefined
      }) {
        const app = yield* operator.application(input.application)
        const consent = yield* notifications.inbound({
          application: app.id,
          from: input.from,
          name: input.name ?? null,
          text: input.text ?? null,
          choiceId: input.choice_id ?? null,
          optOut: false,
        })
        const handled = yield* conversations.inbound({
          application: app.id,
          from: input.from,
          name: input.name ?? null,
          text: input.text ?? null,
          choiceId: input.choice_id ?? null,
        })
        return {
          application: app.id,
          from: input.from,
          consent: Option.getOrNull(consent),
          attendant: handled.conversation === null ? null : {
            conversation_id: handled.conversation.id,
            outcome: handled.conversation.outcome,
            messages: handled.messages,
          },
        }
      },
    )

    const sent = (to: SaudiMobile | undefined) =>
      Effect.map(sim.listSent(to, 100), (rows) =>
        rows.map((m) => ({
          id: m.id,
          to: m.to,
          template: m.template,
          lang: m.lang,
          text: m.text,
          sent_at: isoMillis(m.sentAt),
        })))

    return { setNumber, putTemplate, deleteTemplate, setNetwork, report, inbound, sent } as const
  }),
}) {}
