/** The store assistant's tables (DECISIONS 9.5), beside Chat's (ports/store/chat.ts). */
import { Context, type Effect, type Option } from "effect"
import type { AccountId, ApplicationId, Millis } from "../../core/shared/brands.ts"
import type { AssistantTools, ChatStore } from "../../core/chat/store-model.ts"

/** Where a stores page ends: the last store's connection time and id (oldest first). */
export interface StorePosition {
  readonly connectedAt: Millis
  readonly id: string
}

/** The store assistant's tables (DECISIONS 9.5): each application's connected store and its assistant's tools. */
export class ChatStoresRepo extends Context.Tag("ports/ChatStoresRepo")<ChatStoresRepo, {
  readonly get: (id: string) => Effect.Effect<Option.Option<ChatStore>>
  readonly ofApplication: (applicationId: ApplicationId) => Effect.Effect<Option.Option<ChatStore>>
  /** Makes `store` the application's one store (a store it held before is removed). */
  readonly connect: (store: ChatStore) => Effect.Effect<void>
  /** A read's outcome: the store as read (name, url, products, times), or, failed, only when it is read next. */
  readonly saveRead: (
    id: string,
    read: Pick<ChatStore, "name" | "url" | "products" | "productsReadAt" | "nextReadAt">,
  ) => Effect.Effect<void>
  readonly postpone: (id: string, nextReadAt: Millis) => Effect.Effect<void>
  /** The account's stores, oldest connection first. */
  readonly page: (
    accountId: AccountId,
    after: StorePosition | null,
    limit: number,
  ) => Effect.Effect<ReadonlyArray<ChatStore>>
  /** Up to `limit` stores due to be read at `now`, earliest first. */
  readonly due: (now: Millis, limit: number) => Effect.Effect<ReadonlyArray<ChatStore>>
  /** The earliest `nextReadAt` of any store (the read job's next due time). */
  readonly earliestDue: Effect.Effect<Option.Option<Millis>>
  /** The application's assistant tools, none when never set. */
  readonly tools: (applicationId: ApplicationId) => Effect.Effect<Option.Option<AssistantTools>>
  readonly setTools: (applicationId: ApplicationId, tools: AssistantTools) => Effect.Effect<void>
}>() {}
