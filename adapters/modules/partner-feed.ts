/**
 * The Partner API's feed, verification log and services (DECISIONS 13): the partner feed's table, filled from
 * the outbox by a trigger in the transaction that appends each event, its 30-day retention job, and the
 * verification log's index on Verify's table. Comes after Verify, usage and the accounts it reads.
 */
import { Clock, Effect, Layer, Option } from "effect"
import { feedRetentionMs, PartnerFeed } from "../../core/partner/feed.ts"
import { partnerFeedOperations, PartnerServices } from "../../core/partner/feed-operations.ts"
import { VerificationLog } from "../../core/partner/verification-log.ts"
import { Retention } from "../../core/limits.ts"
import type { Job } from "../../core/shared/job.ts"
import { JobsRepo } from "../../ports/store/jobs.ts"
import { PartnerFeedRepo } from "../../ports/store/partner-feed.ts"
import { dueAfterLease } from "../jobs.ts"
import { PartnerFeedRepoMemory, VerificationLogRepoMemory } from "../memory/partner-feed.ts"
import { product } from "../product.ts"
import { partnerPages } from "../console/pages/partners.tsx"
import { migration as partnerFeed } from "../sql/migrations/partner-feed/0001_partner_feed.ts"
import { migration as feedPageFunction } from "../sql/migrations/partner-feed/0002_feed_page_function.ts"
import { PartnerFeedRepoSql, VerificationLogRepoSql } from "../sql/partner-feed.ts"

const RetentionJob = "partner-feed.retention"

/** Drops feed entries 30 days old (reads already leave them out). */
const retention: Effect.Effect<ReadonlyArray<Job>, never, PartnerFeedRepo | JobsRepo> = Effect.gen(function* () {
  const leases = yield* JobsRepo
  const feed = yield* PartnerFeedRepo
  const job: Job = {
    name: RetentionJob,
    nextDue: Effect.flatMap(
      feed.oldest,
      (oldest) =>
        dueAfterLease(RetentionJob, Option.map(oldest, (at) => at + feedRetentionMs + 1)).pipe(
          Effect.provideService(JobsRepo, leases),
        ),
    ),
    run: Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      if (!(yield* leases.claim(RetentionJob, now, now + Retention.intervalMs))) return
      yield* feed.prune(now - feedRetentionMs)
    }),
  }
  return [job]
})

export const partnerFeedProduct = product({
  name: "partner-feed",
  memory: Layer.mergeAll(PartnerFeedRepoMemory, VerificationLogRepoMemory),
  sql: Layer.mergeAll(PartnerFeedRepoSql, VerificationLogRepoSql),
  migrations: [partnerFeed, feedPageFunction],
  services: () => Layer.mergeAll(PartnerFeed.Default, VerificationLog.Default, PartnerServices.Default),
  operations: partnerFeedOperations,
  jobs: retention,
  // Partner clients in review: it reads the feed for what changed.
  pages: partnerPages,
})
