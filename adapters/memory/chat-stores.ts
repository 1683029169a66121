/** The store assistant's tables in memory (DECISIONS 9.5): connected stores and the assistants' tools. */
import { Effect, Layer, Option } from "effect"
import type { AssistantTools, ChatStore } from "../../core/chat/store-model.ts"
import type { Millis } from "../../core/shared/brands.ts"
import { ChatStoresRepo } from "../../ports/store/chat-stores.ts"
import { deleteIn, memoryTables, setIn } from "./db.ts"

export const chatStoreTables = () => ({
  chatStores: new Map<string, ChatStore>(),
  /** By application. */
  chatAssistantTools: new Map<string, AssistantTools>(),
})

const oldestFirst = (x: ChatStore, y: ChatStore) =>
  x.connectedAt - y.connectedAt || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)

export const ChatStoresRepoMemory = Layer.effect(
  ChatStoresRepo,
  Effect.map(memoryTables(chatStoreTables), (db) => {
    const all = (t: ReturnType<typeof chatStoreTables>) => [...t.chatStores.values()]
    const update = (id: string, change: Partial<ChatStore>) =>
      db.write((t, record) => {
        const held = t.chatStores.get(id)
        if (held !== undefined) setIn(t.chatStores, id, { ...held, ...change }, record)
      })
    return {
      get: (id) => db.read((t) => Option.fromNullable(t.chatStores.get(id))),
      ofApplication: (applicationId) =>
        db.read((t) => Option.fromNullable(all(t).find((s) => s.applicationId === applicationId))),
      connect: (store) =>
        db.write((t, record) => {
          for (const s of all(t)) {
            if (s.applicationId === store.applicationId && s.id !== store.id) deleteIn(t.chatStores, s.id, record)
          }
          setIn(t.chatStores, store.id, store, record)
        }),
      saveRead: (id, read) => update(id, read),
      postpone: (id, nextReadAt) => update(id, { nextReadAt }),
      page: (accountId, after, limit) =>
        db.read((t) =>
          all(t)
            .filter((s) =>
              s.accountId === accountId &&
              (after === null || oldestFirst(s, { connectedAt: after.connectedAt, id: after.id } as ChatStore) > 0)
            )
            .sort(oldestFirst)
            .slice(0, limit)
        ),
      due: (now, limit) =>
        db.read((t) =>
          all(t).filter((s) => s.nextReadAt <= now).sort((x, y) => x.nextReadAt - y.nextReadAt).slice(0, limit)
        ),
      earliestDue: db.read((t) => {
        const times = all(t).map((s) => s.nextReadAt)
        return times.length === 0 ? Option.none() : Option.some(Math.min(...times) as Millis)
      }),
      tools: (applicationId) => db.read((t) => Option.fromNullable(t.chatAssistantTools.get(applicationId))),
      setTools: (applicationId, tools) =>
        db.write((t, record) => setIn(t.chatAssistantTools, applicationId, tools, record)),
    }
  }),
)
