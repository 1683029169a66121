import { Context, type Effect, type Option } from "effect"
import type { AccountId, ApplicationId, Millis, SaudiMobile, VerificationId } from "../../core/shared/brands.ts"
import type { Verification, VerifySend, VerifySettings } from "../../core/verify/model.ts"
import type { OutboxEvent } from "./outbox.ts"
import type { Charged, LedgerEntry } from "./wallet.ts"

export class VerificationsRepo extends Context.Tag("ports/VerificationsRepo")<VerificationsRepo, {
  readonly insert: (v: Verification) => Effect.Effect<void>
  readonly get: (id: VerificationId) => Effect.Effect<Option.Option<Verification>>
  /** Takes the row lock until the transaction ends. */
  readonly getForUpdate: (id: VerificationId) => Effect.Effect<Option.Option<Verification>>
  readonly update: (v: Verification) => Effect.Effect<void>
  /**
   * Moves `before` to `next` and appends its events, in one statement and only if the row still holds
   * `before`'s state (compare-and-set on status, attempts, resends, code hash and expiry): false when
   * another request moved it first (the caller reads it again). `verified` credits the guard's count.
   */
  readonly transition: (
    before: Verification,
    next: Verification,
    events: ReadonlyArray<OutboxEvent>,
    verified: GuardCredit | null,
  ) => Effect.Effect<boolean>
  readonly delete: (id: VerificationId) => Effect.Effect<void>
  /**
   * Locks up to `limit` pending verifications whose `expires_at` is at or before `before`,
   * skipping rows another transaction holds (several processes sweep at once).
   */
  readonly lockExpirable: (before: Millis, limit: number) => Effect.Effect<ReadonlyArray<Verification>>
  /** The earliest `expires_at` of a pending verification (when the sweep next has work). */
  readonly earliestPendingExpiry: Effect.Effect<Option.Option<Millis>>
  /** Lifetime count of sandbox (test and partner-test) starts of an application. */
  readonly countSandboxStarts: (applicationId: ApplicationId) => Effect.Effect<number>
}>() {}

export interface GuardStats {
  readonly sends: number
  readonly verified: number
}

/** Where the guard counts a send or a verified code: the application's epoch (its `unpausedAt`, 0 before any) and minute. */
export interface GuardSlot {
  readonly applicationId: ApplicationId
  readonly epoch: Millis
  readonly minute: Millis
}

/** Verified sends credited to the guard's count (a verification's start and resends). */
export interface GuardCredit extends GuardSlot {
  readonly count: number
}

/**
 * A send (start or resend), judged and recorded in one step: its verification, its place in the destination's
 * and the client IP's rolling hour, the day's spend, the charge and the guard's minute.
 */
export interface SendAttempt {
  readonly send: VerifySend
  /** A start inserts its verification; a resend (holding the row) updates it. */
  readonly verification: { readonly _tag: "Insert" | "Update"; readonly value: Verification }
  /**
   * The application's saved settings the send was prepared with (none: it saved none). When they are not the
   * saved ones any more, nothing is judged or written and the outcome is `Stale`.
   */
  readonly settings: Option.Option<VerifySettings>
  /** The rolling hour begins here. */
  readonly since: Millis
  /** The hourly caps of the destination and of the client IP (counted only when the send has one). */
  readonly caps: { readonly destination: number; readonly clientIp: number }
  /** A priced send adds its price to the Riyadh day starting at `dayStart`, admitted only up to `capHalalas`. */
  readonly spend: { readonly dayStart: Millis; readonly capHalalas: number | null } | null
  /**
   * A priced send's charge. The rows other sends also want are taken in one order: the destination's, the
   * client IP's, the wallet's, the day's spend, the guard's minute (a refund takes them in the same order: no two
   * transactions wait on each other).
   */
  readonly charge: LedgerEntry | null
  /** The guard counts the send in this minute of the application's epoch (its `unpaused_at` as it is now). */
  readonly guardMinute: Millis
  /** When set, the guard's rolling count from this minute on is read back (this send included). */
  readonly guardSince: Millis | null
}

/**
 * What a send was judged on. Each gate is answered as far as the send got: a gate after one that refused may
 * be left true. The send was written if and only if every gate passed (`destination`, `clientIp`,
 * `spendAdmitted`, not `paused`, and a charge taken when priced); otherwise nothing of it was.
 */
export interface SendJudged {
  readonly _tag: "Judged"
  /** The send fits under the destination's hourly cap (and was counted there when written). */
  readonly destination: boolean
  /** The same for the client IP (true when none was given). */
  readonly clientIp: boolean
  /** The day's spend plus this price stays within the cap (true when free or uncapped). */
  readonly spendAdmitted: boolean
  /** The application's pause and its last unpause, as they are now (the guard may have paused it since the request began). */
  readonly paused: boolean
  readonly unpausedAt: Millis | null
  /** The charge taken (the balance after it); none when not taken: the balance was short, or an earlier gate refused (null: a free send). */
  readonly charged: Option.Option<Charged> | null
  readonly guard: GuardStats | null
}

/** The application's saved settings changed since the send was prepared: prepare it again with these. */
export interface SendStale {
  readonly _tag: "Stale"
  readonly settings: Option.Option<VerifySettings>
}

export type SendOutcome = SendJudged | SendStale

export class VerifySendsRepo extends Context.Tag("ports/VerifySendsRepo")<VerifySendsRepo, {
  /**
   * A send in one round trip and one statement (no transaction needed; in one, it joins it): judged on the
   * settings it was prepared with, then on Verify's send rules (core/verify/send-rules.ts, `sendGates`: the
   * destination's and the client IP's rolling hour, the day's spend, the application's pause and the wallet),
   * and written only when all of them pass (`admitted`). Sends to one destination
   * serialize on its row; sends to others do not.
   */
  readonly send: (attempt: SendAttempt) => Effect.Effect<SendOutcome>
  /**
   * Takes back a recorded send the network refused, in two steps around the refund so that its transaction takes
   * the rows in a start's order (destination and client IP, wallet, day, minute): `release` drops the send and its
   * place in the rolling caps, `uncount` its price from the day's spend and the send from the guard's minute.
   */
  readonly release: (send: VerifySend) => Effect.Effect<void>
  readonly uncount: (
    send: VerifySend,
    slots: { readonly dayStart: Millis; readonly guard: GuardSlot },
  ) => Effect.Effect<void>
  /** The guard's rolling count of an application's epoch, from the minute `since` on. */
  readonly guardStats: (applicationId: ApplicationId, epoch: Millis, since: Millis) => Effect.Effect<GuardStats>
  /** The send's row alone (no counters): for seeding a store with past traffic. */
  readonly insert: (send: VerifySend) => Effect.Effect<void>
}>() {}

export class VerifySettingsRepo extends Context.Tag("ports/VerifySettingsRepo")<VerifySettingsRepo, {
  readonly get: (applicationId: ApplicationId) => Effect.Effect<Option.Option<VerifySettings>>
  readonly put: (applicationId: ApplicationId, settings: VerifySettings) => Effect.Effect<void>
}>() {}

export class SandboxDestinationsRepo extends Context.Tag("ports/SandboxDestinationsRepo")<SandboxDestinationsRepo, {
  readonly add: (accountId: AccountId, to: SaudiMobile) => Effect.Effect<void>
  readonly has: (accountId: AccountId, to: SaudiMobile) => Effect.Effect<boolean>
}>() {}
