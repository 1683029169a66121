/**
 * What every retention job shares (docs/decisions.md, "Retention"): deletes in bounded batches, each its own
 * short statement outside any transaction, repeated until a batch comes back short; and the job itself, run by
 * one process at a time (a lease of `Retention.intervalMs`) and due when its oldest row becomes old enough.
 */
import { Clock, Effect, Option } from "effect"
import { GuardDefaults, Retention, VerifyLimits } from "../core/limits.ts"
import type { Job } from "../core/shared/job.ts"
import { DAY_MS, riyadhDayStart } from "../core/shared/riyadh.ts"
import { usageDropsFrom, usageSince } from "../core/usage/period.ts"
import { JobsRepo } from "../ports/store/jobs.ts"
import { SimulatedSmsRepo } from "../ports/store/simulator.ts"
import { VerifyRetentionRepo } from "../ports/store/verify-retention.ts"
import { dueAfterLease, earliest } from "./jobs.ts"

/**
 * Runs `batch(limit)` (one delete of at most `limit` rows, answering how many it deleted) until a batch deletes
 * fewer than `limit`; answers how many rows went in all. Each batch commits on its own, so no lock is held
 * longer than one batch.
 */
export const inBatches = (
  batch: (limit: number) => Effect.Effect<number>,
  limit: number = Retention.batchRows,
): Effect.Effect<number> =>
  Effect.suspend(() => {
    const loop = (total: number): Effect.Effect<number> =>
      Effect.flatMap(batch(limit), (n) => (n < limit ? Effect.succeed(total + n) : loop(total + n)))
    return loop(0)
  })

/**
 * A retention job: due at `workAt` (when its oldest row becomes old enough; None: nothing to drop) but not before
 * its lease allows; a run claims the lease for `Retention.intervalMs`, so one process prunes, then prunes
 * everything old enough at the run's time.
 */
export const retentionJob = (
  name: string,
  workAt: Effect.Effect<Option.Option<number>>,
  prune: (now: number) => Effect.Effect<void>,
): Effect.Effect<Job, never, JobsRepo> =>
  Effect.map(JobsRepo, (leases) => ({
    name,
    nextDue: Effect.flatMap(
      workAt,
      (at) => dueAfterLease(name, at).pipe(Effect.provideService(JobsRepo, leases)),
    ),
    run: Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      if (!(yield* leases.claim(name, now, now + Retention.intervalMs))) return
      yield* prune(now)
    }),
  }))

export const VerifyRetentionJob = "verify.retention"

/**
 * The verify module's retention job (beside its sweep): sends once usage no longer reads their month; terminal
 * live and partner verifications past `verificationsBefore`; the send counters once their hour (per destination,
 * per IP, the guard's minutes) or their Riyadh day (spend) is over.
 */
export const verifyRetention: Effect.Effect<ReadonlyArray<Job>, never, VerifyRetentionRepo | JobsRepo> = Effect
  .gen(function* () {
    const repo = yield* VerifyRetentionRepo
    const job = yield* retentionJob(
      VerifyRetentionJob,
      Effect.map(repo.oldest, (o) =>
        earliest(
          Option.map(o.send, usageDropsFrom),
          // No sooner than both: the latest `verified_at` a verification can have is `verificationOpenMs` in.
          Option.map(o.verification, (created) =>
            Math.max(
              created + Retention.verificationsMs + 1,
              usageDropsFrom(created + Retention.verificationOpenMs),
            )),
          Option.map(o.capCounter, (latest) => latest + VerifyLimits.capWindowMs + 1),
          // Riyadh keeps UTC+03:00 all year: a day is DAY_MS long, and the next one begins then.
          Option.map(o.spendDay, (day) => day + DAY_MS),
          Option.map(o.guardMinute, (minute) => minute + GuardDefaults.windowMs + 1),
        )),
      (now) =>
        Effect.all([
          inBatches((limit) => repo.pruneSends(usageSince(now), limit)),
          // The partner verification log shows 90 days by `created_at`; usage counts `verified_at` in its months.
          inBatches((limit) => repo.pruneVerifications(now - Retention.verificationsMs, usageSince(now), limit)),
          inBatches((limit) => repo.pruneDestinationCounters(now - VerifyLimits.capWindowMs, limit)),
          inBatches((limit) => repo.pruneClientIpCounters(now - VerifyLimits.capWindowMs, limit)),
          inBatches((limit) => repo.pruneSpendDays(riyadhDayStart(now), limit)),
          inBatches((limit) => repo.pruneGuardMinutes(now - GuardDefaults.windowMs, limit)),
        ], { discard: true }),
    )
    return [job]
  })

export const SmsSimulatorRetentionJob = "sms-simulator.retention"

/** The SMS simulator's log (only while the simulator is selected): texts `Retention.simulatorLogMs` old go. */
export const smsSimulatorRetention: Effect.Effect<ReadonlyArray<Job>, never, SimulatedSmsRepo | JobsRepo> = Effect
  .gen(function* () {
    const log = yield* SimulatedSmsRepo
    const job = yield* retentionJob(
      SmsSimulatorRetentionJob,
      Effect.map(log.oldest, Option.map((at) => at + Retention.simulatorLogMs + 1)),
      (now) => inBatches((limit) => log.prune(now - Retention.simulatorLogMs, limit)),
    )
    return [job]
  })
