/**
 * The chat-network simulator (DECISIONS 7.4): numbers, templates and the network's log in the store, driven
 * through the console. It reads templates live (no cache), never reports by itself, and refuses the magic
 * number `+966500000001` at once.
 */
import { Clock, Effect, Layer, Option } from "effect"
import { messageText } from "../../core/chat/conversation.ts"
import { ChatNetwork, ChatNetworkUnavailable, ChatSendRefused, ChatTemplateConflict } from "../../ports/chat-network.ts"
import { SimulatedChatRepo } from "../../ports/store/chat-simulator.ts"
import { SimulatedRefusalNumber } from "../sms/simulator.ts"

const unreadable = new ChatNetworkUnavailable({
  message: "The simulated network does not answer (templates_readable: false).",
})

export const ChatNetworkSimulator = Layer.effect(
  ChatNetwork,
  Effect.gen(function* () {
    const sim = yield* SimulatedChatRepo
    const readable = (application: Parameters<typeof sim.readable>[0]) =>
      Effect.flatMap(sim.readable(application), (yes) => (yes ? Effect.void : Effect.fail(unreadable)))
    /**
     * A send, template or session, logged as the network's log shows it (a session's source where a template's
     * name goes); the magic number is refused. The simulator's reports name the platform's id.
     */
    const logged = (to: string, entry: Omit<Parameters<typeof sim.logSend>[0], "sentAt">) =>
      Effect.gen(function* () {
        if (to === SimulatedRefusalNumber) {
          return yield* new ChatSendRefused({
            providerCode: "simulated_refusal",
            message: "The simulated network refused the message.",
          })
        }
        yield* sim.logSend({ ...entry, sentAt: yield* Clock.currentTimeMillis })
        return { providerMessageId: entry.id }
      })
    return {
      number: (application) => sim.number(application),
      templates: (application) => Effect.zipRight(readable(application), sim.templates(application)),
      // API-made templates arrive `pending` (DECISIONS 7.4).
      writeTemplate: (application, write, mode) =>
        Effect.gen(function* () {
          yield* readable(application)
          const held = (yield* sim.templates(application)).some((t) => t.name === write.name && t.lang === write.lang)
          if (held !== (mode === "edit")) return yield* new ChatTemplateConflict({ mode })
          yield* sim.putTemplate(application, { ...write, status: "pending", reason: null })
        }),
      deleteTemplate: (application, name) =>
        Effect.zipRight(readable(application), Effect.asVoid(sim.deleteTemplate(application, name, undefined))),
      send: (message) =>
        logged(message.to, {
          id: message.messageId,
          applicationId: message.application,
          to: message.to,
          template: message.template.name,
          lang: message.template.lang,
          text: message.text,
        }),
      // A session message: its text then one line `[id] title` per choice.
      sendSession: (message) =>
        logged(message.to, {
          id: message.messageId,
          applicationId: message.application,
          to: message.to,
          template: message.source,
          lang: message.lang,
          text: messageText(message),
        }),
      webhook: Option.none(),
    }
  }),
)
