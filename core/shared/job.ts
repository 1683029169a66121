/** A background job: the platform's jobs loop and the simulated clock's advance run it when it falls due. */
import type { Duration, Effect, Option } from "effect"

export interface Job {
  readonly name: string
  /**
   * When the job next has work on the platform clock (None: nothing to do until something changes). A
   * simulated-clock advance jumps from one due time to the next, so a store at rest moves 90 days at once.
   */
  readonly nextDue: Effect.Effect<Option.Option<number>>
  /**
   * For the simulated clock's advance from `since` to `until`, which takes no real time (nothing outside the
   * platform changes during it: no request, no simulator's record): when the job next has work whose outcome can
   * differ from what its runs since `since` found, or its last due time by `until` (so that it ends the advance as
   * if it had run at each). Absent: `nextDue`. A job that polls the outside world (the e-mail domains' DNS check
   * every 10 minutes) runs once for what changed before the advance, then only when its own deadlines fall and at
   * its last poll: a 72-hour move checks a pending domain 3 times, not 432.
   */
  readonly settledDue?: (since: number, until: number) => Effect.Effect<Option.Option<number>>
  /** Runs what is due now; a no-op when nothing is. */
  readonly run: Effect.Effect<void>
  /**
   * Also run in a real-time loop of its own at this period, besides the shared loop (the webhook dispatcher's
   * first attempts leave within a second). The simulated clock's advance runs it like any other.
   */
  readonly every?: Duration.DurationInput
}
