/** The chat-network simulator's state in memory, wired only while the simulator is selected. */
import { Effect, Layer, Option } from "effect"
import type { NetworkTemplate } from "../../core/notifications/model.ts"
import type { ChatNumber } from "../../ports/chat-network.ts"
import { type SimulatedChatMessage, SimulatedChatRepo } from "../../ports/store/chat-simulator.ts"
import { deleteIn, memoryTables, pushTo, setIn } from "./db.ts"

export const chatSimulatorTables = () => ({
  simChatNumbers: new Map<string, ChatNumber>(),
  /** By application, then `name\0lang`. */
  simChatTemplates: new Map<string, Map<string, NetworkTemplate>>(),
  simChatUnreadable: new Map<string, true>(),
  simChatSent: [] as Array<SimulatedChatMessage>,
})

const templateKey = (name: string, lang: string) => `${name}\u0000${lang}`
const byNameThenLang = (a: NetworkTemplate, b: NetworkTemplate) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.lang < b.lang ? -1 : a.lang > b.lang ? 1 : 0

export const SimulatedChatRepoMemory = Layer.effect(
  SimulatedChatRepo,
  Effect.map(memoryTables(chatSimulatorTables), (db) => ({
    number: (applicationId) => db.read((t) => Option.fromNullable(t.simChatNumbers.get(applicationId))),
    setNumber: (applicationId, number) =>
      db.write((t, record) =>
        Option.isSome(number)
          ? setIn(t.simChatNumbers, applicationId, number.value, record)
          : deleteIn(t.simChatNumbers, applicationId, record)
      ),
    templates: (applicationId) =>
      db.read((t) => [...(t.simChatTemplates.get(applicationId)?.values() ?? [])].sort(byNameThenLang)),
    putTemplate: (applicationId, template) =>
      db.write((t, record) => {
        let held = t.simChatTemplates.get(applicationId)
        if (held === undefined) setIn(t.simChatTemplates, applicationId, held = new Map(), record)
        setIn(held, templateKey(template.name, template.lang), template, record)
      }),
    deleteTemplate: (applicationId, name, lang) =>
      db.write((t, record) => {
        const held = t.simChatTemplates.get(applicationId)
        if (held === undefined) return 0
        const gone = [...held.values()].filter((x) => x.name === name && (lang === undefined || x.lang === lang))
        for (const x of gone) deleteIn(held, templateKey(x.name, x.lang), record)
        return gone.length
      }),
    readable: (applicationId) => db.read((t) => !t.simChatUnreadable.has(applicationId)),
    setReadable: (applicationId, readable) =>
      db.write((t, record) =>
        readable
          ? deleteIn(t.simChatUnreadable, applicationId, record)
          : setIn(t.simChatUnreadable, applicationId, true as const, record)
      ),
    logSend: (message) => db.write((t, record) => pushTo(t.simChatSent, message, record)),
    // Newest first; among equal times the last logged first.
    listSent: (to, limit) =>
      db.read((t) =>
        t.simChatSent.filter((m) => to === undefined || m.to === to).reverse().sort((a, b) => b.sentAt - a.sentAt)
          .slice(0, limit)
      ),
  })),
)
