/**
 * The protection guard (DECISIONS 6): pause an application when, in a rolling hour, at least
 * `min_sends` codes went out and under `min_verified_percent` of them were verified.
 *
 * The guard counts by minute (docs/decisions.md, "Verify: the send path"): a send counts in its minute of
 * the application's epoch (its `unpausedAt`, 0 before any unpause, so an unpause starts the count afresh),
 * a verified code credits its start and resends to the minute it started in, and the rolling hour is the
 * minutes that begin within the last 60 minutes. Summing at most 60 counters costs the same whatever the
 * application's traffic; a send in the oldest, partly elapsed minute is left out a little early.
 */
import { Effect } from "effect"
import { ApplicationsRepo } from "../../ports/store/accounts.ts"
import { type GuardSlot, type GuardStats, VerifySendsRepo } from "../../ports/store/verify.ts"
import type { Application } from "../accounts/model.ts"
import { GuardDefaults } from "../limits.ts"
import type { Millis } from "../shared/brands.ts"
import { serviceEvent } from "../accounts/service-events.ts"
import type { Verification, VerifySettings } from "./model.ts"

export const guardTrips = (sends: number, verified: number, settings: VerifySettings["guard"]) =>
  settings.enabled && sends >= settings.min_sends && verified * 100 < settings.min_verified_percent * sends

/** The minute an instant falls in (epoch milliseconds of its start). */
export const minuteOf = (at: number): Millis => (Math.floor(at / 60_000) * 60_000) as Millis

/** The guard's count of an application starts afresh at each unpause. */
export const guardEpoch = (application: Application): Millis => (application.unpausedAt ?? 0) as Millis

/** The first minute of the rolling hour ending at `now`. */
export const guardSince = (now: Millis): Millis => (now - GuardDefaults.windowMs) as Millis

export const guardSlot = (application: Application, at: Millis): GuardSlot => ({
  applicationId: application.id,
  epoch: guardEpoch(application),
  minute: minuteOf(at),
})

/** What a verified code credits the guard: its start and its resends, in the minute it started (if in this epoch). */
export const verifiedCredit = (application: Application, v: Verification) =>
  v.createdAt < guardEpoch(application) ? null : { ...guardSlot(application, v.createdAt), count: 1 + v.resends }

/** Whether the guard's count read back with a send says to pause (the pause itself re-reads under the lock). */
export const guardWouldTrip = (application: Application, settings: VerifySettings, stats: GuardStats | null) =>
  stats !== null && !application.paused && guardTrips(stats.sends, stats.verified, settings.guard)

/** Pauses the application if the guard trips on its current count; run with the application row locked. */
export const tripGuard = (application: Application, settings: VerifySettings, now: Millis) =>
  Effect.gen(function* () {
    if (!settings.guard.enabled || application.paused) return
    const stats = yield* (yield* VerifySendsRepo).guardStats(application.id, guardEpoch(application), guardSince(now))
    if (!guardTrips(stats.sends, stats.verified, settings.guard)) return
    const paused = { ...application, paused: true }
    yield* (yield* ApplicationsRepo).update(paused)
    yield* serviceEvent(paused, "service.paused", now, { paused: true })
  })
