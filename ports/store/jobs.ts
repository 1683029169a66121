import { Context, type Effect, type Option } from "effect"
import type { Millis } from "../../core/shared/brands.ts"

/** Leases of periodic jobs, shared by every process on the store. */
export class JobsRepo extends Context.Tag("ports/JobsRepo")<JobsRepo, {
  /**
   * Claims the run of `name` due at or before `now`: exactly one caller wins and moves the next run to
   * `nextRunAt`. A job never seen before is due at once.
   */
  readonly claim: (name: string, now: Millis, nextRunAt: Millis) => Effect.Effect<boolean>
  readonly nextRunAt: (name: string) => Effect.Effect<Option.Option<Millis>>
}>() {}
