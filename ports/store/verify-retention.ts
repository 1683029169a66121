/**
 * Verify's retention (docs/decisions.md, "Retention"): what the verify module's retention job deletes, each call
 * one short statement of at most `limit` rows answering how many it deleted (adapters/retention.ts repeats it).
 */
import { Context, type Effect, type Option } from "effect"
import type { Millis } from "../../core/shared/brands.ts"

/** The oldest row of each kind kept (None: none kept, or none this store prunes), for the job's due time. */
export interface VerifyRetentionOldest {
  /** The oldest send's `sent_at`. */
  readonly send: Option.Option<Millis>
  /** The oldest `created_at` of a verification retention may drop one day (terminal, live or partner). */
  readonly verification: Option.Option<Millis>
  /** The oldest `latest` of the per-destination and per-IP send counters. */
  readonly capCounter: Option.Option<Millis>
  /** The oldest `day_start` of the daily spend counters. */
  readonly spendDay: Option.Option<Millis>
  /** The oldest `minute` of the guard's counters. */
  readonly guardMinute: Option.Option<Millis>
}

export class VerifyRetentionRepo extends Context.Tag("ports/VerifyRetentionRepo")<VerifyRetentionRepo, {
  /** Sends whose `sent_at` is before `before`. */
  readonly pruneSends: (before: Millis, limit: number) => Effect.Effect<number>
  /**
   * Verifications created before `createdBefore` and not verified at or after `verifiedBefore`, that are terminal
   * (never a pending one) and live or partner (sandbox ones count toward the application's lifetime cap).
   */
  readonly pruneVerifications: (createdBefore: Millis, verifiedBefore: Millis, limit: number) => Effect.Effect<number>
  /** Per-destination counters whose latest send is before `before` (nothing left in their hour). */
  readonly pruneDestinationCounters: (before: Millis, limit: number) => Effect.Effect<number>
  /** Per-IP counters whose latest send is before `before`. */
  readonly pruneClientIpCounters: (before: Millis, limit: number) => Effect.Effect<number>
  /** Daily spend counters of Riyadh days that began before `before`. */
  readonly pruneSpendDays: (before: Millis, limit: number) => Effect.Effect<number>
  /** Guard counters of minutes before `before`. */
  readonly pruneGuardMinutes: (before: Millis, limit: number) => Effect.Effect<number>
  readonly oldest: Effect.Effect<VerifyRetentionOldest>
}>() {}
