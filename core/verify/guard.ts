/**
 * The protection guard (DECISIONS 6): pause an application when, in a rolling hour, at least
 * `min_sends` codes went out and under `min_verified_percent` of them were verified.
 */
import { Effect } from "effect"
import { ApplicationsRepo } from "../../ports/store/accounts.ts"
import { VerifySendsRepo } from "../../ports/store/verify.ts"
import type { Application } from "../accounts/model.ts"
import { GuardDefaults } from "../limits.ts"
import type { Millis } from "../shared/brands.ts"
import { serviceEvent } from "../accounts/service-events.ts"
import type { VerifySettings } from "./model.ts"

export const guardTrips = (sends: number, verified: number, settings: VerifySettings["guard"]) =>
  settings.enabled && sends >= settings.min_sends && verified * 100 < settings.min_verified_percent * sends

/** Runs inside the send's transaction, after the send is recorded. */
export const tripGuard = (application: Application, settings: VerifySettings, now: Millis) =>
  Effect.gen(function* () {
    if (!settings.guard.enabled || application.paused) return
    const since = Math.max(now - GuardDefaults.windowMs, application.unpausedAt ?? 0)
    const stats = yield* (yield* VerifySendsRepo).guardStats(application.id, since)
    if (!guardTrips(stats.sends, stats.verified, settings.guard)) return
    const paused = { ...application, paused: true }
    yield* (yield* ApplicationsRepo).update(paused)
    yield* serviceEvent(paused, "service.paused", now, { paused: true })
  })
