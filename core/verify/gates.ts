/**
 * Step 5 of the order of checks for a send (DECISIONS 3), in the pinned order:
 * sandbox_unsupported_channel, sandbox_unverified_destination, sandbox_quota_exceeded,
 * rate_limited, ip_rate_limited, spend_cap_reached, application_paused.
 * Balance (step 6) and the send (step 7) follow in the use case.
 *
 * The sandbox gates run first, in the sandbox start's transaction. The rest are judged in the send's one
 * statement, which writes nothing when any of them refuses: what is judged here is the order the refusals are
 * answered in. Nothing locks the application: the sends to one destination (and from one client IP) serialize
 * on that destination's row, the day's spend on one conditional upsert (docs/decisions.md, "Verify: the send
 * path").
 */
import { Effect, Option } from "effect"
import {
  type GuardStats,
  SandboxDestinationsRepo,
  type SendJudged,
  VerificationsRepo,
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
import type { SaudiMobile } from "../shared/brands.ts"
import type { Charged } from "../../ports/store/wallet.ts"
import type { VerifySettings } from "./model.ts"

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

/**
 * The wallet could not cover the send's price: answered `402 insufficient_credits` with the balance read once the
 * send's transaction is over. A send that lost the wallet's race under its row lock raised `verify_send_undone`,
 * which aborts the transaction it ran in (a resend's): nothing may be read on it.
 */
export interface Unaffordable {
  readonly _tag: "Unaffordable"
}

const unaffordable: Unaffordable = { _tag: "Unaffordable" }

/**
 * rate_limited, ip_rate_limited, spend_cap_reached, application_paused, then insufficient_credits (step 6,
 * `Unaffordable`), on what the send was judged on (`VerifySendsRepo.send`: a refused send wrote nothing). Answers
 * the guard's count (when it is to judge) and the balance after the charge (null: free).
 */
export const judgeSend = (
  judged: SendJudged,
  settings: VerifySettings,
): Effect.Effect<
  { readonly guard: GuardStats | null; readonly charged: Charged | null } | Unaffordable,
  RateLimited | IpRateLimited | SpendCapReached | ApplicationPaused
> => {
  if (!judged.destination) return new RateLimited({})
  if (!judged.clientIp) return new IpRateLimited({})
  if (!judged.spendAdmitted) return new SpendCapReached({})
  if (judged.paused) return new ApplicationPaused({})
  if (judged.charged !== null && Option.isNone(judged.charged)) return Effect.succeed(unaffordable)
  return Effect.succeed({
    guard: settings.guard.enabled ? judged.guard : null,
    charged: judged.charged === null ? null : judged.charged.value,
  })
}
