/** Step 1 of the order of checks: 120 requests per fixed 60-second window per presented credential. */
import { Clock, Effect } from "effect"
import { RateLimitRepo } from "../../ports/store/http.ts"
import { TooManyRequests } from "../errors.ts"
import { RateLimit } from "../limits.ts"

export const windowStart = (now: number): number => now - (now % RateLimit.windowMs)

export const retryAfterSeconds = (now: number): number =>
  Math.min(60, Math.max(1, Math.ceil((windowStart(now) + RateLimit.windowMs - now) / 1000)))

export const enforceRateLimit = (credentialHash: string) =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const count = yield* (yield* RateLimitRepo).hit(credentialHash, windowStart(now))
    if (count > RateLimit.requests) {
      return yield* new TooManyRequests({ retry_after_seconds: retryAfterSeconds(now) })
    }
  })
