/**
 * Step 5 of the order of checks for a send (DECISIONS 3), in the pinned order:
 * sandbox_unsupported_channel, sandbox_unverified_destination, sandbox_quota_exceeded,
 * rate_limited, ip_rate_limited, spend_cap_reached, application_paused.
 * Balance (step 6) and the send (step 7) follow in the use case.
 *
 * All of it runs inside the send's transaction, and a refusal rolls the transaction back, so a gate may
 * count the send before a later gate refuses it: what is judged is the order the refusals are answered in.
 * Nothing here locks the application: the sends to one destination (and from one client IP) serialize on
 * that destination's row, the day's spend on one conditional upsert (docs/decisions.md, "Verify: the send path").
 */
import { Effect, Option } from "effect"
import {
  SandboxDestinationsRepo,
  type SendRecord,
  VerificationsRepo,
  VerifySendsRepo,
} from "../../ports/store/verify.ts"
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
import { type ChargeRequest, insufficientCredits } from "../wallet/charge.ts"
import type { VerifySettings } from "./model.ts"
import { defaultSettings } from "./settings.ts"

/** Sandbox gates of a sandbox `start` (resends are neither counted nor refused by them); the application is locked. */
export const sandboxGates = (application: Application, to: SaudiMobile) =>
  Effect.gen(function* () {
    // sandbox_unsupported_channel: SMS carries the [TEST] stamp; reserved for a future channel.
    if (!(yield* (yield* SandboxDestinationsRepo).has(application.accountId, to))) {
      return yield* new SandboxUnverifiedDestination({})
    }
    const starts = yield* (yield* VerificationsRepo).countSandboxStarts(application.id)
    if (starts >= VerifyLimits.sandboxLifetimeStarts) return yield* new SandboxQuotaExceeded({})
  })

/** rate_limited and ip_rate_limited: claims the send in the destination's and the client IP's rolling hour. */
export const claimCaps = (application: Application, to: SaudiMobile, clientIp: string | null, now: Millis) =>
  Effect.gen(function* () {
    const claimed = yield* (yield* VerifySendsRepo).claimCaps({
      applicationId: application.id,
      to,
      clientIp,
      now,
      since: (now - VerifyLimits.capWindowMs) as Millis,
      defaults: defaultSettings,
    })
    if (!claimed.destination) return yield* new RateLimited({})
    if (!claimed.clientIp) return yield* new IpRateLimited({})
    return {
      settings: Option.getOrElse(claimed.settings, () => defaultSettings),
      // Judged as it is now: the guard may have paused it (or an unpause begun a new epoch) since.
      application: { ...application, paused: claimed.paused, unpausedAt: claimed.unpausedAt },
    }
  })

/**
 * Records the send with its charge, then judges spend_cap_reached and application_paused, then
 * insufficient_credits (a short wallet stops the record before the spend is counted: the spend is then read
 * to answer in the pinned order). Answers the guard's count (when it is to judge) and the charge (null: free).
 */
export const recordSend = (
  application: Application,
  settings: VerifySettings,
  record: SendRecord,
  charge: ChargeRequest | null,
) =>
  Effect.gen(function* () {
    const sends = yield* VerifySendsRepo
    const recorded = yield* sends.record(record)
    if (recorded.charged !== null && Option.isNone(recorded.charged)) {
      const cap = settings.daily_spend_cap_halalas
      if (
        cap !== null && record.spend !== null &&
        !(yield* sends.spendAdmits(application.id, record.spend.dayStart, record.send.priceHalalas, cap))
      ) return yield* new SpendCapReached({})
      if (application.paused) return yield* new ApplicationPaused({})
      return yield* insufficientCredits(charge!)
    }
    if (!recorded.spendAdmitted) return yield* new SpendCapReached({})
    if (application.paused) return yield* new ApplicationPaused({})
    return {
      guard: settings.guard.enabled ? recorded.guard : null,
      charged: recorded.charged === null ? null : recorded.charged.value,
    }
  })
