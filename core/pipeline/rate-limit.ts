/** Step 1 of the order of checks: 120 requests per fixed 60-second window per presented credential. */
import { Effect } from "effect"
import { RateLimitRepo } from "../../ports/store/http.ts"
import { TooManyRequests } from "../errors.ts"
import { RateLimit } from "../limits.ts"

export const windowStart = (now: number): number => now - (now % RateLimit.windowMs)

export const retryAfterSeconds = (now: number): number =>
  Math.min(60, Math.max(1, Math.ceil((windowStart(now) + RateLimit.windowMs - now) / 1000)))

/** Runs on every keyed request: plain combinators, not `Effect.gen` (a generator costs several plain steps). */
export const enforceRateLimit = (credentialHash: string): Effect.Effect<void, TooManyRequests, RateLimitRepo> =>
  Effect.flatMap(RateLimitRepo, (repo) =>
    Effect.clockWith((clock) => {
      const now = clock.unsafeCurrentTimeMillis()
      return Effect.flatMap(repo.hit(credentialHash, windowStart(now)), (count) =>
        count > RateLimit.requests
          ? Effect.fail(new TooManyRequests({ retry_after_seconds: retryAfterSeconds(now) }))
          : Effect.void)
    }))
