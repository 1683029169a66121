/** Notifications' tables in memory: messages, channel switches, opt-outs. */
import { Effect, Layer, Option } from "effect"
import {
  ChatChannelsRepo,
  ChatConsentRepo,
  type ChatMessage,
  ChatMessagesRepo,
  type Consent,
} from "../../ports/store/notifications.ts"
import { deleteIn, memoryTables, setIn, violation } from "./db.ts"

export const notificationsTables = () => ({
  chatMessages: new Map<string, ChatMessage>(),
  chatMessagesByProvider: new Map<string, string>(),
  chatChannels: new Map<string, boolean>(),
  chatConsent: new Map<string, Consent>(),
})

const consentKey = (applicationId: string, to: string) => `${applicationId}\u0000${to}`

export const ChatMessagesRepoMemory = Layer.effect(
  ChatMessagesRepo,
  Effect.map(memoryTables(notificationsTables), (db) => ({
    insert: (message) =>
      db.write((t, record) => {
        if (t.chatMessages.has(message.id)) violation(`duplicate chat message ${message.id}`)
        setIn(t.chatMessages, message.id, message, record)
      }),
    setProviderId: (id, providerMessageId) =>
      db.write((t, record) => {
        const message = t.chatMessages.get(id)
        if (message === undefined) return
        if (t.chatMessagesByProvider.has(providerMessageId)) violation(`duplicate provider id ${providerMessageId}`)
        setIn(t.chatMessages, id, { ...message, providerMessageId }, record)
        setIn(t.chatMessagesByProvider, providerMessageId, id, record)
      }),
    remove: (id) =>
      db.write((t, record) => {
        const message = t.chatMessages.get(id)
        if (message === undefined) return
        deleteIn(t.chatMessages, id, record)
        if (message.providerMessageId !== null) deleteIn(t.chatMessagesByProvider, message.providerMessageId, record)
      }),
    get: (applicationId, id) =>
      db.read((t) =>
        Option.filter(Option.fromNullable(t.chatMessages.get(id)), (m) => m.applicationId === applicationId)
      ),
    find: (id) => db.read((t) => Option.fromNullable(t.chatMessages.get(id))),
    findByProviderId: (providerMessageId) =>
      db.read((t) => {
        const id = t.chatMessagesByProvider.get(providerMessageId)
        return id === undefined ? Option.none() : Option.fromNullable(t.chatMessages.get(id))
      }),
    move: (move) =>
      db.write((t, record) => {
        const message = t.chatMessages.get(move.id)
        if (message === undefined || message.status !== move.from) return Option.none()
        const moved: ChatMessage = { ...message, status: move.to, error: move.error, occurredAt: move.at }
        setIn(t.chatMessages, move.id, moved, record)
        return Option.some(moved)
      }),
  })),
)

export const ChatChannelsRepoMemory = Layer.effect(
  ChatChannelsRepo,
  Effect.map(memoryTables(notificationsTables), (db) => ({
    enabled: (applicationId) => db.read((t) => t.chatChannels.get(applicationId) ?? true),
    setEnabled: (applicationId, enabled) =>
      db.write((t, record) => setIn(t.chatChannels, applicationId, enabled, record)),
  })),
)

export const ChatConsentRepoMemory = Layer.effect(
  ChatConsentRepo,
  Effect.map(memoryTables(notificationsTables), (db) => ({
    get: (applicationId, to) => db.read((t) => Option.fromNullable(t.chatConsent.get(consentKey(applicationId, to)))),
    set: (consent) =>
      db.write((t, record) => setIn(t.chatConsent, consentKey(consent.applicationId, consent.to), consent, record)),
  })),
)
