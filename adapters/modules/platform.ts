/**
 * What every product shares: the transactor, rate-limit windows, idempotency records, the outbox, job
 * leases, the platform secret; the retention job; `GET /openapi.json` is added by the platform itself.
 */
import { Effect, Layer, Option } from "effect"
import { Idempotency, RateLimit } from "../../core/limits.ts"
import type { Job } from "../../core/shared/job.ts"
import { IdempotencyRepo } from "../../ports/store/idempotency.ts"
import { JobsRepo } from "../../ports/store/jobs.ts"
import { RateLimitRepo } from "../../ports/store/rate-limit.ts"
import { earliest } from "../jobs.ts"
import { IdempotencyRepoMemory } from "../memory/idempotency.ts"
import { JobsRepoMemory } from "../memory/jobs.ts"
import { OutboxRepoMemory } from "../memory/outbox.ts"
import { MemoryPlatformSecret } from "../memory/platform-secret.ts"
import { RateLimitRepoMemory } from "../memory/rate-limit.ts"
import { ConsoleSessionsRepoMemory } from "../memory/console-sessions.ts"
import { TransactorMemory } from "../memory/transactor.ts"
import { product } from "../product.ts"
import { inBatches, retentionJob } from "../retention.ts"
import { migration as foundation } from "../sql/migrations/platform/0001_foundation.ts"
import { migration as platformSecret } from "../sql/migrations/platform/0002_platform_secret.ts"
import { migration as unloggedRateWindows } from "../sql/migrations/platform/0003_unlogged_rate_windows.ts"
import { IdempotencyRepoSql } from "../sql/idempotency.ts"
import { JobsRepoSql } from "../sql/jobs.ts"
import { OutboxRepoSql } from "../sql/outbox.ts"
import { SqlPlatformSecret } from "../sql/platform-secret.ts"
import { RateLimitRepoSql } from "../sql/rate-limit.ts"
import { ConsoleSessionsRepoSql } from "../sql/console-sessions.ts"
import { migration as consoleSessionEnds } from "../sql/migrations/platform/0004_console_session_ends.ts"
import { TransactorSql } from "../sql/transactor.ts"
import { pipelineErrors } from "../../core/pipeline/errors.ts"
import { SmsGatewayUnifonic } from "../sms/unifonic.ts"

const RetentionJob = "retention"

/**
 * Prunes rate-limit windows two windows after they began and idempotency records a day after they expired, in
 * batches (adapters/retention.ts).
 */
export const platformRetention: Effect.Effect<ReadonlyArray<Job>, never, RateLimitRepo | IdempotencyRepo | JobsRepo> =
  Effect.gen(
    function* () {
      const windows = yield* RateLimitRepo
      const idempotency = yield* IdempotencyRepo
      const job = yield* retentionJob(
        RetentionJob,
        Effect.map(
          Effect.all([windows.oldestWindow, idempotency.earliestExpiry]),
          ([window, expiry]) =>
            earliest(
              Option.map(window, (at) => at + 2 * RateLimit.windowMs + 1),
              Option.map(expiry, (at) => at + Idempotency.ttlMs),
            ),
        ),
        (now) =>
          Effect.zipRight(
            inBatches((limit) => windows.prune(now - 2 * RateLimit.windowMs, limit)),
            inBatches((limit) => idempotency.prune(now - Idempotency.ttlMs, limit)),
          ),
      )
      return [job]
    },
  )

export const platformProduct = product({
  name: "platform",
  errors: pipelineErrors,
  smsGateways: { unifonic: SmsGatewayUnifonic },
  memory: Layer.mergeAll(
    TransactorMemory,
    RateLimitRepoMemory,
    IdempotencyRepoMemory,
    OutboxRepoMemory,
    JobsRepoMemory,
    MemoryPlatformSecret,
    ConsoleSessionsRepoMemory,
  ),
  sql: Layer.mergeAll(
    TransactorSql,
    RateLimitRepoSql,
    IdempotencyRepoSql,
    OutboxRepoSql,
    JobsRepoSql,
    SqlPlatformSecret,
    ConsoleSessionsRepoSql,
  ),
  migrations: [foundation, platformSecret, unloggedRateWindows, consoleSessionEnds],
  jobs: platformRetention,
})
