/** The simulated clock's control (DECISIONS 16): moves the platform's time, running what falls due. */
import { Context, type Effect } from "effect"

export class ClockSimulator extends Context.Tag("ports/ClockSimulator")<ClockSimulator, {
  /** Moves the clock forward by `ms`, running every job that falls due on the way; answers the new time. */
  readonly advance: (ms: number) => Effect.Effect<{ readonly now: number }>
}>() {}
