/**
 * The retry schedule (DECISIONS 5): an attempt that gets no 2xx within `Webhooks.timeoutMs` is retried
 * after each of `Webhooks.retryDelaysMs` in turn, then given up. A manual replay of a finished
 * delivery is one attempt with no schedule after it.
 */
import { Webhooks } from "../limits.ts"
import type { Millis } from "../shared/brands.ts"
import type { DeliveryOutcome, WebhookDelivery } from "../../ports/store/webhook-deliveries.ts"

/** How the dispatcher works through the queue (not part of the contract). */
export const Dispatch = {
  /** Deliveries claimed, and attempted at once, per round. */
  batch: 32,
  /** Outbox events routed per transaction. */
  routeBatch: 200,
  /** A claimed delivery is taken over by another process if not recorded within this long. */
  leaseMs: 20_000,
  /** Rounds per run before it yields (a run drains what is due). */
  maxRounds: 1_000,
} as const

export const isSuccessStatus = (status: number): boolean => status >= 200 && status <= 299

/** The delay before the retry that follows the `n`-th failed scheduled attempt (1-based), if any. */
export const retryDelay = (n: number): number | undefined => Webhooks.retryDelaysMs[n - 1]

export const afterAttempt = (d: WebhookDelivery, succeeded: boolean, now: Millis): DeliveryOutcome => {
  if (d.manual) {
    return { status: succeeded ? "succeeded" : "failed", scheduledAttempts: d.scheduledAttempts, nextAttemptAt: null }
  }
  const n = d.scheduledAttempts + 1
  if (succeeded) return { status: "succeeded", scheduledAttempts: n, nextAttemptAt: null }
  const delay = retryDelay(n)
  return delay === undefined
    ? { status: "failed", scheduledAttempts: n, nextAttemptAt: null }
    : { status: "pending", scheduledAttempts: n, nextAttemptAt: now + delay }
}
