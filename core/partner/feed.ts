/**
 * The partner's event feed (`GET /v1/partner/events`, DECISIONS 13 and 16): every `service.*`, `balance.low` and
 * the partner's `verification.*` copies of the partner account, whatever its webhook subscribes to, oldest first
 * after `cursor` (none: the oldest kept, 30 days), `next_cursor` never null. An entry's `id` is the `webhook-id`
 * of the event's delivery to the account's endpoint. Rehearsals never reach it (they are not outbox events).
 */
import { Clock, Effect, Either } from "effect"
import { type FeedPosition, PartnerFeedRepo, positionBefore } from "../../ports/store/partner-feed.ts"
import { Lists } from "../limits.ts"
import type { PartnerPrincipal } from "../pipeline/authenticate.ts"
import { makeCursors, type Position } from "../pipeline/cursor.ts"
import { InvalidRequest } from "../pipeline/errors.ts"
import { isoMillis } from "../shared/riyadh.ts"
import { untracedStacks } from "../shared/tracing.ts"
import { accountWebhookId } from "../webhooks/envelope.ts"

/** How long the feed keeps an event (DECISIONS 13). */
export const feedRetentionMs = 30 * 86_400_000

/** The list a feed cursor belongs to; it is bound to the account too (another partner's cursor is `400`). */
const FeedList = "partner.events"

export interface FeedInput {
  readonly cursor?: string | undefined
  readonly limit?: number | undefined
  /** Event names (already split and checked by the decoder). */
  readonly types?: ReadonlyArray<string> | undefined
}

const refusedCursor = new InvalidRequest({
  message: "`cursor` is not a cursor this list gave: pass a `next_cursor` as it was answered.",
  fields: { cursor: "is not a cursor of this list" },
  errors: { cursor: "invalid" },
})

/** A cursor's position as the store takes it: `[tx, seq]`, `tx` decimal digits. */
const positionOf = (position: Position): Either.Either<FeedPosition, InvalidRequest> => {
  const [tx, seq] = position
  return position.length === 2 && typeof tx === "string" && /^\d{1,20}$/.test(tx) && typeof seq === "number" &&
      Number.isSafeInteger(seq) && seq >= 0
    ? Either.right({ tx, seq })
    : Either.left(refusedCursor)
}

const later = (a: FeedPosition, b: FeedPosition): FeedPosition => (positionBefore(a, b) ? b : a)

export class PartnerFeed extends Effect.Service<PartnerFeed>()("core/PartnerFeed", {
  effect: Effect.gen(function* () {
    const repo = yield* PartnerFeedRepo
    const cursors = yield* makeCursors

    const list = Effect.fn("PartnerFeed.list", untracedStacks)(function* (p: PartnerPrincipal, input: FeedInput) {
      const now = yield* Clock.currentTimeMillis
      const after = input.cursor === undefined
        ? null
        : yield* Either.flatMap(cursors.read(FeedList, p.account.id, input.cursor), positionOf)
      const limit = input.limit ?? Lists.defaultLimit
      const page = yield* repo.page({
        accountId: p.account.id,
        after,
        since: now - feedRetentionMs,
        types: input.types ?? null,
        limit,
      })
      const last = page.entries.length > 0 ? page.entries[page.entries.length - 1].position : after
      // A full page goes on after its last entry; a short one has read everything settled, so the poller's next
      // read starts past what the filters left out (and never before where it was).
      let next: FeedPosition = last ?? { tx: "0", seq: 0 }
      if (page.entries.length < limit) next = later(next, page.settled)
      return {
        data: page.entries.map((e) => ({
          id: accountWebhookId(e.eventId),
          event: e.event,
          data: e.data,
          created_at: isoMillis(e.createdAt),
        })),
        next_cursor: cursors.make(FeedList, p.account.id, [next.tx, next.seq]),
      }
    })

    return { list } as const
  }),
}) {}
