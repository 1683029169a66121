import { Context, type Effect, type Option } from "effect"
import type { Millis } from "../../core/shared/brands.ts"

/** Rate-limit windows: counted by `CredentialsRepo.present` (with the credential, one look-up), pruned here. */
export class RateLimitRepo extends Context.Tag("ports/RateLimitRepo")<RateLimitRepo, {
  /** Drops windows that ended before `before`. */
  readonly prune: (before: Millis) => Effect.Effect<void>
  /** The start of the oldest window kept (when retention next has work). */
  readonly oldestWindow: Effect.Effect<Option.Option<Millis>>
}>() {}
