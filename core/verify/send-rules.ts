/**
 * Verify's send rules, stated once (spec 3, 7 and 8; DECISIONS 3 and 18): what refuses a start or a resend, in
 * which order and with which error, and what a send that passes is charged and counted for. Both stores implement
 * exactly this statement: the memory store calls `sendGates` and `admitted` (adapters/memory/verify.ts); the SQL
 * store judges each gate as one column of its send statement's `pre` (adapters/sql/verify.ts, `sendText`). A
 * property test holds the two to the same answers (test/verify/send-rules-property.test.ts).
 *
 * Before these come the shared steps of the order of checks (rate limit, key, access, `account_not_active`, the
 * body, `unsupported_channel`, `invalid_destination`: core/pipeline, core/verify/requests.ts).
 *
 * A start:
 *   1. A sandbox key (test, partner test) only, under the application's lock (`sandboxGates`):
 *      `sandbox_unsupported_channel` (reserved: SMS carries the `[TEST]` stamp), `sandbox_unverified_destination`
 *      (the number is not on the account's proven list), `sandbox_quota_exceeded` (the application's 10 lifetime
 *      sandbox starts are used).
 *   2. The send's gates (below).
 * A resend, on the verification's row (core/verify/machine.ts, `decide`):
 *   1. `not_found`: an unknown id, another application's, or one of the other kind of key (live and partner keys
 *      see live verifications, test and partner test keys sandbox ones).
 *   2. `not_resendable` with its `status`: terminal, or found past `expires_at` (it expires then, with its event).
 *   3. `resend_limit_reached`: its 3 resends are used.
 *   4. The send's gates (below). The sandbox gates neither count nor refuse a resend.
 * The send's gates, in this order, all judged on the same state (`sendGates`):
 *   `rate_limited`          the destination's sends of the rolling hour reach `hourly_cap_per_destination`;
 *   `ip_rate_limited`       a `client_ip` was given (a resend's is its start's) and its sends of the rolling hour
 *                           reach `max_per_ip_per_hour`;
 *   `spend_cap_reached`     a priced send would take the application's spend of the Riyadh day past
 *                           `daily_spend_cap_halalas` (when set);
 *   `application_paused`    the application is paused (the protection guard paused it);
 *   `insufficient_credits`  (step 6) a priced send, and the wallet holds less than the price.
 * A send that passes every gate is written whole: the verification (a start's, or the resend's new code), the
 * send (counted in its destination's and client IP's rolling hour, the day's spend and the guard's minute) and,
 * when priced, its charge. The price (`sendPrice`): 9 halalas for a live or partner key; a test or partner test
 * send is free and never touches the wallet. A send refused by a gate writes nothing. A send the network then
 * refuses (`send_failed`) is taken back whole: refunded, counted nowhere, and a start leaves no verification.
 *
 * The send's gates are judged and the send written in one step of the store, which writes nothing when any gate
 * refuses; nothing locks the application: the sends to one destination (and from one client IP) serialize on
 * that destination's row, the day's spend on one conditional upsert (docs/decisions.md, "Verify: the send path").
 */
import { Effect, Option } from "effect"
import {
  type GuardStats,
  SandboxDestinationsRepo,
  type SendAttempt,
  type SendJudged,
  VerificationsRepo,
} from "../../ports/store/verify.ts"
import type { Charged, LedgerEntry } from "../../ports/store/wallet.ts"
import type { Application } from "../accounts/model.ts"
import {
  ApplicationPaused,
  IpRateLimited,
  RateLimited,
  SandboxQuotaExceeded,
  SandboxUnverifiedDestination,
  SpendCapReached,
} from "../errors.ts"
import { Prices, VerifyLimits } from "../limits.ts"
import type { Millis, SaudiMobile } from "../shared/brands.ts"
import { isSandboxMode, type KeyMode } from "../shared/key-mode.ts"
import { riyadhDayStart } from "../shared/riyadh.ts"
import { guardSince, minuteOf } from "./guard.ts"
import type { VerifySend, VerifySettings } from "./model.ts"

/** What a send costs: live and partner keys pay for each SMS; sandbox sends are free. */
export const sendPrice = (mode: KeyMode): number => (isSandboxMode(mode) ? 0 : Prices.verifySmsHalalas)

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
 * A send to judge and record (`VerifySendsRepo.send`), prepared on `settings` (`saved`: the application's saved
 * settings they came from): the rolling hour, the caps, the Riyadh day a priced send is counted in with its cap,
 * its charge (`charge`: the ledger row of its price, priced sends only) and the guard's minute.
 */
export const sendAttempt = (
  send: VerifySend,
  verification: SendAttempt["verification"],
  saved: Option.Option<VerifySettings>,
  settings: VerifySettings,
  charge: LedgerEntry | null,
): SendAttempt => ({
  send,
  verification,
  settings: saved,
  since: (send.sentAt - VerifyLimits.capWindowMs) as Millis,
  caps: { destination: settings.hourly_cap_per_destination, clientIp: settings.max_per_ip_per_hour },
  spend: send.priceHalalas > 0
    ? { dayStart: riyadhDayStart(send.sentAt) as Millis, capHalalas: settings.daily_spend_cap_halalas }
    : null,
  charge,
  guardMinute: minuteOf(send.sentAt),
  guardSince: settings.guard.enabled ? guardSince(send.sentAt) : null,
})

/** What a send's gates are judged on: what a store reads for it, before it writes anything. */
export interface SendFacts {
  /** The destination's sends since `attempt.since`. */
  readonly destinationSends: number
  /** The client IP's sends since `attempt.since` (not read, null, when the send has none). */
  readonly clientIpSends: number | null
  /** The application's spend of the day beginning at `attempt.spend.dayStart` (not read, 0, when free). */
  readonly daySpent: number
  readonly paused: boolean
  /** The wallet's balance, 0 when the account has none (not read, null, when free). */
  readonly balance: number | null
}

/** Each gate of a send, in the order refusals are answered: true when it lets the send through (`paused`: false). */
export interface SendGates {
  readonly destination: boolean
  readonly clientIp: boolean
  readonly spendAdmitted: boolean
  readonly paused: boolean
  readonly affordable: boolean
}

/** The send's gates on what the store read (the statement of rules above says each in words). */
export const sendGates = (attempt: SendAttempt, facts: SendFacts): SendGates => {
  const price = attempt.send.priceHalalas
  return {
    destination: facts.destinationSends < attempt.caps.destination,
    clientIp: attempt.send.clientIp === null || (facts.clientIpSends ?? 0) < attempt.caps.clientIp,
    spendAdmitted: attempt.spend === null || attempt.spend.capHalalas === null ||
      facts.daySpent + price <= attempt.spend.capHalalas,
    paused: facts.paused,
    affordable: attempt.charge === null || (facts.balance ?? 0) >= price,
  }
}

/** Whether a send passes every gate: then, and only then, it is written (and charged when priced). */
export const admitted = (gates: SendGates): boolean =>
  gates.destination && gates.clientIp && gates.spendAdmitted && !gates.paused && gates.affordable

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
 * The refusal of the first gate that refused, in the order above: rate_limited, ip_rate_limited, spend_cap_reached,
 * application_paused, then insufficient_credits (step 6, `Unaffordable`), on what the store judged
 * (`VerifySendsRepo.send`: a refused send wrote nothing). Answers the guard's count (when it is to judge) and the
 * balance after the charge (null: free).
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
