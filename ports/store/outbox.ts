import { Context, type Effect } from "effect"
import type { AccountId, ApplicationId, EventId, Millis } from "../../core/shared/brands.ts"

/**
 * An event waiting to leave. Written in the same transaction as the state change that fired it;
 * the webhook dispatcher routes it to endpoints and delivers it.
 */
export interface OutboxEvent {
  readonly id: EventId
  readonly event: string
  readonly data: Record<string, unknown>
  readonly applicationId: ApplicationId | null
  readonly accountId: AccountId
  /** Added to the partner account's copy of a verification event. */
  readonly externalId: string | null
  readonly createdAt: Millis
}

export class OutboxRepo extends Context.Tag("ports/OutboxRepo")<OutboxRepo, {
  readonly append: (events: ReadonlyArray<OutboxEvent>) => Effect.Effect<void>
  readonly listRecent: (limit: number) => Effect.Effect<ReadonlyArray<OutboxEvent>>
}>() {}
