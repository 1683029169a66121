/**
 * The simulators of Email (DECISIONS 8.3), in the store so every process sees the same: the DNS records the
 * simulated resolver answers, and the log of messages the simulated provider took.
 */
import { Context, type Effect } from "effect"
import type { Millis } from "../../core/shared/brands.ts"

export interface SimulatedEmail {
  readonly id: string
  readonly from: string
  readonly to: string
  readonly subject: string
  readonly text: string | null
  readonly html: string | null
  readonly sentAt: Millis
}

export class SimulatedDnsRepo extends Context.Tag("ports/SimulatedDnsRepo")<SimulatedDnsRepo, {
  /** Replaces the set of `type` records at `name` (`[]` removes it). Names are kept as given: callers normalise. */
  readonly put: (type: "TXT" | "CNAME", name: string, values: ReadonlyArray<string>) => Effect.Effect<void>
  readonly get: (type: "TXT" | "CNAME", name: string) => Effect.Effect<ReadonlyArray<string>>
}>() {}

export class SimulatedEmailRepo extends Context.Tag("ports/SimulatedEmailRepo")<SimulatedEmailRepo, {
  readonly append: (email: SimulatedEmail) => Effect.Effect<void>
  /** Newest first (equal times: the last appended first); every recipient when `to` is undefined. */
  readonly list: (to: string | undefined, limit: number) => Effect.Effect<ReadonlyArray<SimulatedEmail>>
}>() {}
