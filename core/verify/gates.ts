/**
 * Step 5 of the order of checks for a send (DECISIONS 3), in the pinned order:
 * sandbox_unsupported_channel, sandbox_unverified_destination, sandbox_quota_exceeded,
 * rate_limited, ip_rate_limited, spend_cap_reached, application_paused.
 * Balance (step 6) and the send (step 7) follow in the use case.
 */
import { Effect } from "effect"
import { SandboxDestinationsRepo, VerificationsRepo, VerifySendsRepo } from "../../ports/store/verify.ts"
import type { Application } from "../accounts/model.ts"
import {
  ApplicationPaused,
  IpRateLimited,
  RateLimited,
  SandboxQuotaExceeded,
  SandboxUnverifiedDestination,
  SpendCapReached,
} from "../errors.ts"
import { VerifyLimits } from "../limits.ts"
import type { Millis, SaudiMobile } from "../shared/brands.ts"
import { riyadhDayStart } from "../shared/riyadh.ts"
import type { VerifySettings } from "./model.ts"

export interface SendContext {
  readonly application: Application
  readonly to: SaudiMobile
  readonly clientIp: string | null
  readonly priceHalalas: number
  readonly settings: VerifySettings
  readonly now: Millis
}

/** Sandbox gates of a sandbox `start` (resends are neither counted nor refused by them). */
export const sandboxGates = (ctx: SendContext) =>
  Effect.gen(function* () {
    // sandbox_unsupported_channel: SMS carries the [TEST] stamp; reserved for a future channel.
    if (!(yield* (yield* SandboxDestinationsRepo).has(ctx.application.accountId, ctx.to))) {
      return yield* new SandboxUnverifiedDestination({})
    }
    const starts = yield* (yield* VerificationsRepo).countSandboxStarts(ctx.application.id)
    if (starts >= VerifyLimits.sandboxLifetimeStarts) return yield* new SandboxQuotaExceeded({})
  })

/** The caps and the pause, shared by `start` and `resend`. */
export const sendGates = (ctx: SendContext) =>
  Effect.gen(function* () {
    const sends = yield* VerifySendsRepo
    const since = ctx.now - VerifyLimits.capWindowMs
    const toDestination = yield* sends.countToDestination(ctx.application.id, ctx.to, since)
    if (toDestination >= ctx.settings.hourly_cap_per_destination) return yield* new RateLimited({})
    if (ctx.clientIp !== null) {
      const fromIp = yield* sends.countFromIp(ctx.application.id, ctx.clientIp, since)
      if (fromIp >= ctx.settings.max_per_ip_per_hour) return yield* new IpRateLimited({})
    }
    const cap = ctx.settings.daily_spend_cap_halalas
    if (cap !== null && ctx.priceHalalas > 0) {
      const spent = yield* sends.spendSince(ctx.application.id, riyadhDayStart(ctx.now))
      if (spent + ctx.priceHalalas > cap) return yield* new SpendCapReached({})
    }
    if (ctx.application.paused) return yield* new ApplicationPaused({})
  })
