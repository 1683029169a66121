import { Context, type Effect, type Option } from "effect"
import type { Millis } from "../../core/shared/brands.ts"

/** Rate-limit windows: counted by `CredentialsRepo.present` (with the credential, one look-up), pruned here. */
export class RateLimitRepo extends Context.Tag("ports/RateLimitRepo")<RateLimitRepo, {
  /** Drops at most `limit` windows that began before `before` (one short statement); answers how many. */
  readonly prune: (before: Millis, limit: number) => Effect.Effect<number>
  /** The start of the oldest window kept (when retention next has work). */
  readonly oldestWindow: Effect.Effect<Option.Option<Millis>>
  /** The count of a window for a hash, without counting (the console's sign-in reads its failures: 0 if none). */
  readonly countOf: (hash: string, windowStart: Millis) => Effect.Effect<number>
}>() {}
