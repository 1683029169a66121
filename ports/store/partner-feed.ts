/**
 * The Partner API's reads of its own (DECISIONS 13): the event feed of a partner account and the verification
 * log of one client application.
 */
import { Context, type Effect, type Option } from "effect"
import type { AccountId, ApplicationId, EventId, Millis, SaudiMobile } from "../../core/shared/brands.ts"
import type { Verification, VerificationStatus } from "../../core/verify/model.ts"

/**
 * Where an entry stands in its account's feed: entries are ordered by (`tx`, `seq`). On SQL `tx` is the id of
 * the transaction that wrote the entry (PostgreSQL's `xid8`, as decimal text) and `seq` the row's sequence; the
 * memory store writes one transaction at a time, so there `tx` is `"0"` and `seq` the order of insertion.
 */
export interface FeedPosition {
  readonly tx: string
  readonly seq: number
}

/** `a` before `b`. */
export const positionBefore = (a: FeedPosition, b: FeedPosition): boolean => {
  const ta = BigInt(a.tx)
  const tb = BigInt(b.tx)
  return ta < tb || (ta === tb && a.seq < b.seq)
}

/** One entry of a partner account's feed: an outbox event as the account's endpoint gets it. */
export interface FeedEntry {
  readonly position: FeedPosition
  /** The outbox event's id (the entry's `id` is the `webhook-id` made of it). */
  readonly eventId: EventId
  readonly event: string
  /** As the account's endpoint gets it: a `verification.*` copy carries `external_id`. */
  readonly data: Record<string, unknown>
  readonly createdAt: Millis
}

export interface FeedQuery {
  readonly accountId: AccountId
  /** Entries after this position; null: from the first. */
  readonly after: FeedPosition | null
  /** Entries created at or after this time (the feed keeps 30 days). */
  readonly since: Millis
  /** Only these events; null: every one. */
  readonly types: ReadonlyArray<string> | null
  readonly limit: number
}

export interface FeedPage {
  /** Oldest first; every one final: no entry can later appear before any of them. */
  readonly entries: ReadonlyArray<FeedEntry>
  /**
   * A position every entry that will ever sort before it is already written and visible: when the page is not
   * full, the next read may start there (it skips nothing), so a poller's cursor moves past entries the filters
   * left out.
   */
  readonly settled: FeedPosition
}

export class PartnerFeedRepo extends Context.Tag("ports/PartnerFeedRepo")<PartnerFeedRepo, {
  readonly page: (query: FeedQuery) => Effect.Effect<FeedPage>
  /** Drops the entries created before `before` (retention). */
  readonly prune: (before: Millis) => Effect.Effect<void>
  /** When the oldest entry kept was created (None: nothing kept, or nothing to prune in this store). */
  readonly oldest: Effect.Effect<Option.Option<Millis>>
}>() {}

export interface VerificationLogQuery {
  readonly applicationId: ApplicationId
  /** Created at or after, epoch ms. */
  readonly since: Millis
  /** Created before, epoch ms. */
  readonly until: Millis
  readonly status: VerificationStatus | null
  readonly to: SaudiMobile | null
  readonly reference: string | null
  /** Sandbox verifications (made with a test or partner test key) or live ones: a key sees its own kind only. */
  readonly sandbox: boolean
  /** The rows after this one in the list's order (newest first, then the greater id); null: from the newest. */
  readonly before: { readonly createdAt: Millis; readonly id: string } | null
  readonly limit: number
}

export class VerificationLogRepo extends Context.Tag("ports/VerificationLogRepo")<VerificationLogRepo, {
  /** Newest first, then the greater id. */
  readonly page: (query: VerificationLogQuery) => Effect.Effect<ReadonlyArray<Verification>>
}>() {}
