/**
 * Chat's tables (DECISIONS 9.1-9.3): conversation menus, each application's auto-attendant and its versions, and the
 * attendant's conversations (its log).
 */
import { Context, type Effect, type Option } from "effect"
import type { LiveMenu } from "../../core/chat/attendant.ts"
import type { Conversation, Outcome } from "../../core/chat/conversation.ts"
import type { ChatMenu } from "../../core/chat/menus.ts"
import type { Attendant } from "../../core/chat/model.ts"
import type { ApplicationId, Millis } from "../../core/shared/brands.ts"

export class ChatMenusRepo extends Context.Tag("ports/ChatMenusRepo")<ChatMenusRepo, {
  /** The app's menus of the application, oldest first. */
  readonly list: (applicationId: ApplicationId, appName: string) => Effect.Effect<ReadonlyArray<ChatMenu>>
  readonly get: (applicationId: ApplicationId, appName: string, id: string) => Effect.Effect<Option.Option<ChatMenu>>
  /**
   * Adds the menu unless the app already holds `max` of the application's: false then, nothing added. Two adds
   * racing for the last place: one is added.
   */
  readonly insert: (menu: ChatMenu, max: number) => Effect.Effect<boolean>
  /** Replaces the title, url and `updatedAt` of the app's menu. */
  readonly update: (menu: ChatMenu) => Effect.Effect<void>
  /** Removes the app's menu: false when it was not there. */
  readonly remove: (applicationId: ApplicationId, appName: string, id: string) => Effect.Effect<boolean>
}>() {}

export class ChatAttendantsRepo extends Context.Tag("ports/ChatAttendantsRepo")<ChatAttendantsRepo, {
  /**
   * The application's attendant, none if nothing was ever saved. `forUpdate`: held until the transaction ends,
   * so that two writes of one attendant (two publishes) follow each other.
   */
  readonly get: (applicationId: ApplicationId, forUpdate?: boolean) => Effect.Effect<Option.Option<Attendant>>
  /**
   * The application's attendant as a customer's message reads it (`draft` left out: null), in the one round trip
   * that first takes the customer's lock, held until the transaction ends, so that two messages of one customer
   * follow each other (their ongoing conversation is read after it).
   */
  readonly forCustomer: (applicationId: ApplicationId, phone: string) => Effect.Effect<Option.Option<Attendant>>
  /** Writes its settings and draft (not its live version: `publish`). */
  readonly save: (attendant: Attendant) => Effect.Effect<void>
  /** Makes `live` the live version and keeps it among the versions (a conversation keeps the one it began with). */
  readonly publish: (applicationId: ApplicationId, live: LiveMenu) => Effect.Effect<void>
  readonly version: (applicationId: ApplicationId, version: number) => Effect.Effect<Option.Option<LiveMenu>>
}>() {}

/** A conversation of the application's auto-attendant: also its log entry (DECISIONS 9.3). */
export interface ChatConversation extends Conversation {
  readonly applicationId: ApplicationId
}

/** Where a log page ends: the last entry's `started_at` and id (newest first). */
export interface LogPosition {
  readonly startedAt: Millis
  readonly id: string
}

export interface LogQuery {
  readonly applicationId: ApplicationId
  /** Matched (case-insensitively) in the customer's name. */
  readonly q: string | null
  /** Matched in the number as stored (`+9665…`), or, null, the number is not searched. */
  readonly qPhone: string | null
  /** The outcomes to list; null: all. */
  readonly outcomes: ReadonlyArray<Outcome> | null
  readonly after: LogPosition | null
  readonly limit: number
}

export class ChatConversationsRepo extends Context.Tag("ports/ChatConversationsRepo")<ChatConversationsRepo, {
  /**
   * The customer's ongoing conversation with the application, if any, held (with `forUpdate`) until the transaction
   * ends, so that two messages of one customer follow each other.
   */
  readonly ongoing: (
    applicationId: ApplicationId,
    phone: string,
    forUpdate?: boolean,
  ) => Effect.Effect<Option.Option<ChatConversation>>
  /** Adds or replaces the conversation (by id). */
  readonly save: (conversation: ChatConversation) => Effect.Effect<void>
  /** Up to `limit` ongoing conversations of any application whose customer has been silent since `before`. */
  readonly silentSince: (before: Millis, limit: number) => Effect.Effect<ReadonlyArray<ChatConversation>>
  /** How many of the application's conversations ended `team` (handed over) at or after `since`. */
  readonly handedOverSince: (applicationId: ApplicationId, since: Millis) => Effect.Effect<number>
  /** Up to `limit` ongoing conversations of the application (switching it off ends them). */
  readonly ongoingOf: (applicationId: ApplicationId, limit: number) => Effect.Effect<ReadonlyArray<ChatConversation>>
  /** The log, newest first (`started_at`, then id). */
  readonly page: (query: LogQuery) => Effect.Effect<ReadonlyArray<ChatConversation>>
  /** The earliest last customer message of an ongoing conversation (the expiry job's next due time). */
  readonly earliestSilent: Effect.Effect<Option.Option<Millis>>
  /** The earliest `started_at` of any conversation (the retention job's next due time). */
  readonly earliestStarted: Effect.Effect<Option.Option<Millis>>
  /** Deletes up to `limit` conversations that started before `before`: how many. */
  readonly prune: (before: Millis, limit: number) => Effect.Effect<number>
}>() {}
