/**
 * The partner feed and the verification log over the memory tables (as adapters/sql/partner-feed.ts): the feed
 * is read straight from the outbox, in the order events were appended, for partner accounts only. It is read
 * holding the store's transaction permit, so no transaction still running has events in it.
 */
import { Effect, Layer, Option } from "effect"
import { isVerificationEvent } from "../../core/webhooks/events.ts"
import { isSandboxMode } from "../../core/shared/key-mode.ts"
import type { Verification } from "../../core/verify/model.ts"
import { type FeedEntry, PartnerFeedRepo, positionBefore, VerificationLogRepo } from "../../ports/store/partner-feed.ts"
import { isPartnerFeedEvent } from "../../core/partner/feed-events.ts"
import { accountTables } from "./accounts.ts"
import { memoryTables } from "./db.ts"
import { outboxTables } from "./outbox.ts"
import { outboxRetentionTables } from "./outbox-retention.ts"
import { verifyTables } from "./verify.ts"

/** The feed's own state: how far retention has pruned (the entries themselves are the outbox's). */
export const partnerFeedTables = () => ({ partnerFeedPrunedBefore: { at: 0 } })

export const PartnerFeedRepoMemory = Layer.effect(
  PartnerFeedRepo,
  Effect.map(memoryTables(outboxTables, accountTables, partnerFeedTables, outboxRetentionTables), (db) => ({
    page: (query) =>
      db.withTransaction(db.read((t) => {
        const partner = t.accounts.get(query.accountId)?.partner === true
        const entries: Array<FeedEntry> = []
        // Positions count the events retention dropped from the outbox's front (adapters/memory/outbox-retention.ts).
        const dropped = t.outboxDropped.count
        if (partner) {
          for (let i = 0; i < t.outbox.length && entries.length < query.limit; i++) {
            const e = t.outbox[i]
            const position = { tx: "0", seq: dropped + i + 1 }
            if (e.accountId !== query.accountId || !isPartnerFeedEvent(e.event)) continue
            if (query.after !== null && !positionBefore(query.after, position)) continue
            if (e.createdAt < query.since || e.createdAt < t.partnerFeedPrunedBefore.at) continue
            if (query.types !== null && !query.types.includes(e.event)) continue
            entries.push({
              position,
              eventId: e.id,
              event: e.event,
              data: isVerificationEvent(e.event) ? { ...e.data, external_id: e.externalId } : e.data,
              createdAt: e.createdAt,
            })
          }
        }
        return { entries, settled: { tx: "0", seq: dropped + t.outbox.length } }
      })),
    // The memory feed is the outbox itself: pruning moves the line reads leave out before (never back).
    prune: (before) =>
      db.write((t, record) => {
        const previous = t.partnerFeedPrunedBefore.at
        t.partnerFeedPrunedBefore.at = Math.max(previous, before)
        record(() => {
          t.partnerFeedPrunedBefore.at = previous
        })
      }),
    // Nothing is ever due to drop: the retention job has no work on the memory store.
    oldest: Effect.succeed(Option.none()),
  })),
)

/** Newest first, then the greater id (as the SQL `ORDER BY created_at DESC, id DESC`). */
const newestFirst = (a: Verification, b: Verification) =>
  b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)

export const VerificationLogRepoMemory = Layer.effect(
  VerificationLogRepo,
  Effect.map(memoryTables(verifyTables), (db) => ({
    page: (query) =>
      db.read((t) => {
        const rows: Array<Verification> = []
        for (const v of t.verifications.values()) {
          if (v.applicationId !== query.applicationId) continue
          if (v.createdAt < query.since || v.createdAt >= query.until) continue
          if (query.status !== null && v.status !== query.status) continue
          if (query.to !== null && v.to !== query.to) continue
          if (query.reference !== null && v.reference !== query.reference) continue
          if (isSandboxMode(v.mode) !== query.sandbox) continue
          const b = query.before
          if (b !== null && !(v.createdAt < b.createdAt || (v.createdAt === b.createdAt && v.id < b.id))) continue
          rows.push(v)
        }
        return rows.sort(newestFirst).slice(0, query.limit)
      }),
  })),
)
