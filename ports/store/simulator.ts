import { Context, type Effect } from "effect"
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
}>() {}
