/**
 * Background jobs run in every process and share their work through the store (job leases, row
 * locks). A real-time loop runs whatever is due on the platform clock; the simulated clock's
 * advance runs every job that falls due, in time order, before it answers.
 */
import { Cause, Context, Duration, Effect, Layer, Option } from "effect"
import { storeUnreachable } from "./sql/unreachable.ts"
import type { Job } from "../core/shared/job.ts"
import { ClockSimulator } from "../ports/clock-simulator.ts"
import { JobsRepo } from "../ports/store/jobs.ts"
import { Telemetry } from "../ports/telemetry.ts"
import { SimulatedClock } from "./clock/simulated.ts"

export type { Job }

export class Jobs extends Context.Tag("adapters/Jobs")<Jobs, ReadonlyArray<Job>>() {}

/** The longest the jobs wait between two tries while the store is out of reach. */
export const storeBackoffCapMs = 30_000

/**
 * The store as the jobs last found it. While it is out of reach every loop waits as long as it has been out of
 * reach (1 s at least, so about 1, 2, 4 … s) up to 30 s between runs instead of its period, and one line is
 * logged when it goes and one when it comes back (not one per job and run: about 55 lines a second with
 * PostgreSQL stopped, before). It is back once a whole pass of the shared loop found it nowhere out of reach:
 * not at one job's success, which a job that did not need the store would give while it is still down.
 */
export class StoreWatch {
  /** When the jobs first found the store out of reach; undefined: reachable. */
  private since: number | undefined = undefined
  /** How many job runs found it out of reach, ever (a pass compares it before and after). */
  failures = 0
  /** Real time, whatever the platform clock (a simulated clock must not stretch or shrink the backoff). */
  constructor(private readonly now: () => number = Date.now) {}
  get down(): boolean {
    return this.since !== undefined
  }
  /** The wait before the next run while down: as long as it has been down, from 1 s up to the cap (doubling). */
  get backoffMs(): number {
    return this.since === undefined ? 0 : Math.min(storeBackoffCapMs, Math.max(1_000, this.now() - this.since))
  }
  readonly unreachable = (cause: Cause.Cause<unknown>) =>
    Effect.suspend(() => {
      this.failures++
      if (this.since !== undefined) return Effect.void
      this.since = this.now()
      const first = Cause.squash(cause)
      return Effect.logWarning(
        `store unreachable (${first instanceof Error ? first.message : String(first)}); the jobs back off up to ${
          storeBackoffCapMs / 1000
        } s and requests answer 503 store_unavailable until it is back`,
      )
    })
  readonly reachable = Effect.suspend(() => {
    if (this.since === undefined) return Effect.void
    const seconds = Math.round((this.now() - this.since) / 1000)
    this.since = undefined
    return Effect.logInfo(`store reachable again after ${seconds} s; the jobs run as before`)
  })
  /** Waits `every`, or the backoff while the store is out of reach. */
  readonly pause = (every: Duration.DurationInput) =>
    Effect.suspend(() => Effect.sleep(this.down ? Duration.millis(this.backoffMs) : every))
}

export class StoreHealth extends Context.Tag("adapters/StoreHealth")<StoreHealth, StoreWatch>() {}

const guarded = (job: Job, watch: StoreWatch): Job => {
  const run = job.run.pipe(
    Effect.catchAllCause((cause) =>
      storeUnreachable(cause)
        ? watch.unreachable(cause)
        : Effect.logError(`job ${job.name} failed`, Cause.pretty(cause))
    ),
  )
  // While tracing is on (ports/telemetry.ts), each run is a trace of its own: its statements and calls under it.
  const traced = Effect.withSpan(run, `job ${job.name}`, {
    root: true,
    captureStackTrace: false,
    attributes: { "job.name": job.name },
  })
  return { ...job, run: Effect.flatMap(Telemetry, (t) => t.tracing ? traced : run) }
}

/** Work at `workAt` (None: no work), but not before the job's lease allows its next run. */
export const dueAfterLease = (
  name: string,
  workAt: Option.Option<number>,
): Effect.Effect<Option.Option<number>, never, JobsRepo> =>
  Option.isNone(workAt) ? Effect.succeed(Option.none<number>()) : Effect.flatMap(
    JobsRepo,
    (leases) =>
      Effect.map(
        leases.nextRunAt(name),
        (next) => Option.some(Math.max(workAt.value, Option.getOrElse(next, () => 0))),
      ),
  )

/** The earliest of some times, if any. */
export const earliest = (...times: ReadonlyArray<Option.Option<number>>): Option.Option<number> => {
  const t = Option.reduceCompact(times, Number.POSITIVE_INFINITY, Math.min)
  return t === Number.POSITIVE_INFINITY ? Option.none() : Option.some(t)
}

/**
 * The jobs of every product of the list, each guarded (a failure is logged, the loop goes on; the store out of
 * reach is told to the `StoreHealth` the loops back off by).
 */
export const jobsOf = (
  jobs: ReadonlyArray<Effect.Effect<ReadonlyArray<Job>, never, any>>,
): Layer.Layer<Jobs | StoreHealth, never, any> =>
  Layer.effectContext(Effect.map(Effect.all(jobs), (lists) => {
    const watch = new StoreWatch()
    return Context.make(Jobs, lists.flat().map((job) => guarded(job, watch))).pipe(Context.add(StoreHealth, watch))
  }))

export const runDue = Effect.flatMap(Jobs, (jobs) => Effect.forEach(jobs, (j) => j.run, { discard: true }))

/** The faster real-time loops of the jobs that declare their own period (`every`), together. */
export const ownJobLoops = Effect.flatMap(Jobs, (jobs) =>
  Effect.flatMap(StoreHealth, (watch) =>
    Effect.forEach(
      jobs.flatMap((job) => (job.every === undefined ? [] : [{ run: job.run, every: job.every }])),
      ({ run, every }) => run.pipe(Effect.zipRight(watch.pause(every)), Effect.forever),
      { concurrency: "unbounded", discard: true },
    )))

/** The real-time loop every process runs; each pass logged at `debug` (a job's failure at `error`). */
export const jobLoop = (every: Duration.DurationInput = "1 second") =>
  Effect.flatMap(StoreHealth, (watch) =>
    Effect.suspend(() => {
      const before = watch.failures
      const started = performance.now()
      return runDue.pipe(
        Effect.zipRight(Effect.suspend(() => watch.failures === before ? watch.reachable : Effect.void)),
        Effect.zipRight(Effect.suspend(() =>
          Effect.logDebug("jobs pass").pipe(
            Effect.annotateLogs({
              duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
              store_reachable: !watch.down,
            }),
          )
        )),
      )
    }).pipe(Effect.zipRight(watch.pause(every)), Effect.forever))

/** Each job with the time it next has work during an advance from `since` to `until` (`Job.settledDue`). */
const settledDuesOf = (since: number, until: number) =>
  Effect.flatMap(
    Jobs,
    (jobs) =>
      Effect.forEach(jobs, (job) =>
        Effect.map(job.settledDue === undefined ? job.nextDue : job.settledDue(since, until), (due) => ({ job, due }))),
  )

/**
 * Moves the simulated clock forward by `ms`, running every job that falls due on the way, in time order:
 * the clock jumps from one due time to the next (not in steps), and runs only the jobs due then. A job's due
 * time on the way is its `settledDue` when it has one (what can change while nothing outside does), then at the
 * end every job due at the target runs (`runDue`).
 */
export const advanceSimulatedClock = (ms: number) =>
  Effect.gen(function* () {
    const time = yield* SimulatedClock
    const since = time.now
    const target = time.now + ms
    const duesOf = settledDuesOf(since, target)
    for (let i = 0; i < 100_000; i++) {
      const dues = yield* duesOf
      const next = dues.reduce<number | undefined>(
        (min, d) => (Option.isSome(d.due) && (min === undefined || d.due.value < min) ? d.due.value : min),
        undefined,
      )
      if (next === undefined || next > target) break
      if (next > time.now) time.now = next
      const due = dues.filter((d) => Option.isSome(d.due) && d.due.value <= time.now)
      yield* Effect.forEach(due, (d) => d.job.run, { discard: true })
      // A job still due at the same instant after running would loop for ever: let time move on.
      const again = yield* duesOf
      if (again.some((d) => Option.isSome(d.due) && d.due.value <= time.now)) {
        if (time.now >= target) break
        time.now += 1
      }
    }
    time.now = target
    yield* runDue
    return { now: time.now }
  })

/**
 * The simulated clock's control for the console (`POST /console/v1/simulator/clock`): built after the jobs
 * list, since it runs them; only while the clock is simulated.
 */
export const ClockSimulatorLive: Layer.Layer<ClockSimulator, never, Jobs | SimulatedClock> = Layer.effect(
  ClockSimulator,
  Effect.map(
    Effect.context<Jobs | SimulatedClock>(),
    (context) => ({ advance: (ms: number) => Effect.provide(advanceSimulatedClock(ms), context) }),
  ),
)
