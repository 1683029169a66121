/**
 * The auto-attendant's replies waiting to leave through the chat network (DECISIONS 9.3: "greeting to the outbox"):
 * written in the transaction that steps the customer's conversation, then sent in order, one customer's queue at
 * a time, by whoever claims its head (the request that wrote them, or the delivery job after a failure).
 */
import { Context, type Effect, type Option } from "effect"
import type { OutMessage } from "../../core/chat/conversation.ts"
import type { ApplicationId, Millis, SaudiMobile } from "../../core/shared/brands.ts"

export interface ChatReply {
  readonly id: string
  readonly applicationId: ApplicationId
  readonly phone: SaudiMobile
  readonly conversationId: string
  readonly message: OutMessage
  /** The language the attendant writes in (`ar`, `en`, `auto`). */
  readonly lang: string
  readonly createdAt: Millis
  /** Not sent before this (a failed attempt moves it on). */
  readonly dueAt: Millis
  /** Failed attempts so far. */
  readonly attempts: number
}

/** A customer's queue of replies. */
export interface ReplyQueue {
  readonly applicationId: ApplicationId
  readonly phone: SaudiMobile
}

export class ChatRepliesRepo extends Context.Tag("ports/ChatRepliesRepo")<ChatRepliesRepo, {
  /**
   * Queues replies after every reply already queued for their customers, in the order given. `claimUntil` (replies
   * of one customer): they are queued claimed by the caller until then, and answer true, when nothing of their
   * customer's was queued before them (the caller then sends them in order with no claim of its own); otherwise,
   * false, unclaimed (`claimHead` takes them in turn).
   */
  readonly append: (replies: ReadonlyArray<ChatReply>, claimUntil?: Millis) => Effect.Effect<boolean>
  /**
   * Claims the head of a customer's queue until `until`: none when the queue is empty, its head is not due at
   * `now`, or another holds its claim. Two claimers at once: one gets it.
   */
  readonly claimHead: (queue: ReplyQueue, now: Millis, until: Millis) => Effect.Effect<Option.Option<ChatReply>>
  /** Sent (or given up): gone from the queue. */
  readonly remove: (id: string) => Effect.Effect<void>
  /** A failed attempt: the claim is released and the reply is due again at `dueAt`. */
  readonly retryAt: (id: string, dueAt: Millis, attempts: number) => Effect.Effect<void>
  /** Queues whose head can be claimed at `now` (at most `limit`). */
  readonly dueQueues: (now: Millis, limit: number) => Effect.Effect<ReadonlyArray<ReplyQueue>>
  /** When the earliest reply can next be claimed (its due time, or the end of its claim). */
  readonly earliestDue: Effect.Effect<Option.Option<Millis>>
}>() {}
