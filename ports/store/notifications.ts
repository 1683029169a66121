/**
 * Notifications' tables (DECISIONS 7): chat-app messages, each application's channel switch, and customers'
 * opt-outs.
 */
import { Context, type Effect, type Option } from "effect"
import type { MessageError, MessageStatus, TemplateCategory } from "../../core/notifications/model.ts"
import type { AccountId, ApplicationId, Millis, SaudiMobile } from "../../core/shared/brands.ts"

export interface ChatMessage {
  readonly id: string
  readonly applicationId: ApplicationId
  readonly accountId: AccountId
  readonly to: SaudiMobile
  readonly template: string
  readonly lang: string
  readonly category: TemplateCategory
  readonly reference: string | null
  readonly priceHalalas: number
  readonly status: MessageStatus
  readonly error: MessageError | null
  /** The network's id, once the network accepted it (its reports name it). */
  readonly providerMessageId: string | null
  readonly createdAt: Millis
  /** The last change. */
  readonly occurredAt: Millis
}

/** A status move, applied only while the message is still in `from` (two reports racing: one moves it). */
export interface StatusMove {
  readonly id: string
  readonly from: MessageStatus
  readonly to: MessageStatus
  readonly error: MessageError | null
  readonly at: Millis
}

export class ChatMessagesRepo extends Context.Tag("ports/ChatMessagesRepo")<ChatMessagesRepo, {
  readonly insert: (message: ChatMessage) => Effect.Effect<void>
  readonly setProviderId: (id: string, providerMessageId: string) => Effect.Effect<void>
  /** Takes back a message the network refused: nothing of it is kept. */
  readonly remove: (id: string) => Effect.Effect<void>
  /** The application's message. */
  readonly get: (applicationId: ApplicationId, id: string) => Effect.Effect<Option.Option<ChatMessage>>
  /** Any application's message, by its id (the simulator's reports) or the network's (the network's reports). */
  readonly find: (id: string) => Effect.Effect<Option.Option<ChatMessage>>
  readonly findByProviderId: (providerMessageId: string) => Effect.Effect<Option.Option<ChatMessage>>
  /** Moves the status if it is still `from`; answers the message moved, or none when another move came first. */
  readonly move: (move: StatusMove) => Effect.Effect<Option.Option<ChatMessage>>
}>() {}

/** Each application's chat-app channel: on unless the console turned it off. */
export class ChatChannelsRepo extends Context.Tag("ports/ChatChannelsRepo")<ChatChannelsRepo, {
  readonly enabled: (applicationId: ApplicationId) => Effect.Effect<boolean>
  readonly setEnabled: (applicationId: ApplicationId, enabled: boolean) => Effect.Effect<void>
}>() {}

export type ConsentSource = "inbound" | "console"

export interface Consent {
  readonly applicationId: ApplicationId
  readonly to: SaudiMobile
  readonly optedOut: boolean
  readonly source: ConsentSource
  readonly updatedAt: Millis
}

/** Opt-outs of marketing, per application and number (DECISIONS 7.3). */
export class ChatConsentRepo extends Context.Tag("ports/ChatConsentRepo")<ChatConsentRepo, {
  readonly get: (applicationId: ApplicationId, to: SaudiMobile) => Effect.Effect<Option.Option<Consent>>
  readonly set: (consent: Consent) => Effect.Effect<void>
}>() {}
