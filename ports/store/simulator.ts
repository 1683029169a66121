import { Context, type Effect, type Option } from "effect"
import type { Millis, SaudiMobile } from "../../core/shared/brands.ts"

export interface SimulatedSms {
  readonly id: string
  readonly to: SaudiMobile
  readonly text: string
  readonly sentAt: Millis
}

/** The SMS simulator's log, in the store so every process reads the same one. */
export class SimulatedSmsRepo extends Context.Tag("ports/SimulatedSmsRepo")<SimulatedSmsRepo, {
  readonly append: (sms: SimulatedSms) => Effect.Effect<void>
  /** Newest first. */
  readonly listTo: (to: SaudiMobile, limit: number) => Effect.Effect<ReadonlyArray<SimulatedSms>>
  /** Retention: drops at most `limit` texts sent before `before`, oldest first; answers how many went. */
  readonly prune: (before: Millis, limit: number) => Effect.Effect<number>
  /** When the oldest text kept was sent. */
  readonly oldest: Effect.Effect<Option.Option<Millis>>
}>() {}
