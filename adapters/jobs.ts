/**
 * Background jobs run in every process and share their work through the store (job leases, row
 * locks). A real-time loop runs whatever is due on the platform clock; the simulated clock's
 * advance runs every job that falls due, in time order, before it answers.
 */
import { Cause, Clock, Context, Duration, Effect, Layer, Option } from "effect"
import { SweepJob, Verify } from "../core/verify/service.ts"
import { Idempotency, RateLimit } from "../core/limits.ts"
import { IdempotencyRepo, RateLimitRepo } from "../ports/store/http.ts"
import { JobsRepo } from "../ports/store/jobs.ts"
import { SimulatedClock } from "./clock/simulated.ts"
import { webhookJob } from "./webhooks/job.ts"

export interface Job {
  readonly name: string
  /** When the job is next due on the platform clock (None: nothing scheduled). */
  readonly nextDue: Effect.Effect<Option.Option<number>>
  /** Runs what is due now; a no-op when nothing is. */
  readonly run: Effect.Effect<void>
}

export class Jobs extends Context.Tag("adapters/Jobs")<Jobs, ReadonlyArray<Job>>() {}

const RetentionJob = "retention"
const retentionIntervalMs = 60 * 60_000

const guarded = (job: Job): Job => ({
  ...job,
  run: job.run.pipe(Effect.catchAllCause((cause) => Effect.logError(`job ${job.name} failed`, Cause.pretty(cause)))),
})

export const JobsLive = Layer.effect(
  Jobs,
  Effect.gen(function* () {
    const verify = yield* Verify
    const leases = yield* JobsRepo
    const windows = yield* RateLimitRepo
    const idempotency = yield* IdempotencyRepo
    const sweep: Job = {
      name: SweepJob,
      nextDue: Effect.map(leases.nextRunAt(SweepJob), Option.orElse(() => Option.some(0))),
      run: Effect.asVoid(verify.sweep(leases.claim)),
    }
    const retention: Job = {
      name: RetentionJob,
      nextDue: Effect.map(leases.nextRunAt(RetentionJob), Option.orElse(() => Option.some(0))),
      run: Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        if (!(yield* leases.claim(RetentionJob, now, now + retentionIntervalMs))) return
        yield* windows.prune(now - 2 * RateLimit.windowMs)
        yield* idempotency.prune(now - Idempotency.ttlMs)
      }),
    }
    return [sweep, retention, yield* webhookJob].map(guarded)
  }),
)

export const runDue = Effect.flatMap(Jobs, (jobs) => Effect.forEach(jobs, (j) => j.run, { discard: true }))

/** A faster real-time loop of one job of the list (the webhook dispatcher's first attempts). */
export const jobLoopOf = (name: string, every: Duration.DurationInput) =>
  Effect.flatMap(Jobs, (jobs) => {
    const job = jobs.find((j) => j.name === name)
    return job === undefined ? Effect.void : job.run.pipe(Effect.zipRight(Effect.sleep(every)), Effect.forever)
  })

/** The real-time loop every process runs. */
export const jobLoop = (every: Duration.DurationInput = "1 second") =>
  runDue.pipe(Effect.zipRight(Effect.sleep(every)), Effect.forever)

const earliestDue = Effect.flatMap(
  Jobs,
  (jobs) =>
    Effect.map(Effect.forEach(jobs, (j) => j.nextDue), (dues) =>
      dues.reduce<number | undefined>(
        (min, d) => (Option.isSome(d) && (min === undefined || d.value < min) ? d.value : min),
        undefined,
      )),
)

/** Moves the simulated clock forward by `ms`, running every job that falls due on the way. */
export const advanceSimulatedClock = (ms: number) =>
  Effect.gen(function* () {
    const time = yield* SimulatedClock
    const target = time.now + ms
    for (let i = 0; i < 10_000; i++) {
      const due = yield* earliestDue
      if (due === undefined || due > target) break
      if (due > time.now) time.now = due
      yield* runDue
      const after = yield* earliestDue
      if (after !== undefined && after <= time.now) break
    }
    time.now = target
    yield* runDue
    return { now: time.now }
  })
