/** Step 1 of the order of checks: 120 requests per fixed 60-second window per presented credential. */
import { TooManyRequests } from "../errors.ts"
import { RateLimit } from "../limits.ts"

export const windowStart = (now: number): number => now - (now % RateLimit.windowMs)

export const retryAfterSeconds = (now: number): number =>
  Math.min(60, Math.max(1, Math.ceil((windowStart(now) + RateLimit.windowMs - now) / 1000)))

/** The refusal of a request over the limit at `now`, with the seconds until the window turns. */
export const tooManyRequests = (now: number): TooManyRequests =>
  new TooManyRequests({ retry_after_seconds: retryAfterSeconds(now) })
