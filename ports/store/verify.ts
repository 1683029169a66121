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

/** What the rolling caps of a send are claimed with (start and resend), before anything else is written. */
export interface CapsClaim {
  readonly applicationId: ApplicationId
  readonly to: SaudiMobile
  readonly clientIp: string | null
  readonly now: Millis
  /** The rolling hour begins here. */
  readonly since: Millis
  /** The settings of an application that saved none. */
  readonly defaults: VerifySettings
}

export interface CapsClaimed {
  /** The application's saved settings (none: the defaults apply). */
  readonly settings: Option.Option<VerifySettings>
  /** The send fits under the destination's hourly cap and is counted there; the destination stays locked. */
  readonly destination: boolean
  /** The same for the client IP (true when none was given). */
  readonly clientIp: boolean
  /** The application's pause and its last unpause, as they are now (the guard may have paused it since the request began). */
  readonly paused: boolean
  readonly unpausedAt: Millis | null
}

/** A send that passed the rolling caps: its row, its verification, the day's spend and the guard's count. */
export interface SendRecord {
  readonly send: VerifySend
  /** A start inserts its verification; a resend (holding the row) updates it. */
  readonly verification: { readonly _tag: "Insert" | "Update"; readonly value: Verification }
  /** A priced send adds its price to the Riyadh day starting at `dayStart`, admitted only up to `capHalalas`. */
  readonly spend: { readonly dayStart: Millis; readonly capHalalas: number | null } | null
  readonly guard: GuardSlot
  /** When set, the guard's rolling count from this minute on is read back (this send included). */
  readonly guardSince: Millis | null
  /**
   * A priced send's charge, taken in the same statement, first: the wallet's row, then the application's day and
   * minute rows, always in this order (a refund takes them in the same order: no two transactions wait on each other).
   */
  readonly charge: LedgerEntry | null
}

export interface SendRecorded {
  /**
   * The charge taken (the balance after it), none when the balance was short: then nothing else was judged and the
   * caller rolls back (null: a free send).
   */
  readonly charged: Option.Option<Charged> | null
  /** False: the day's spend plus this price would pass the cap (nothing may be kept: the caller rolls back). */
  readonly spendAdmitted: boolean
  readonly guard: GuardStats | null
}

export class VerifySendsRepo extends Context.Tag("ports/VerifySendsRepo")<VerifySendsRepo, {
  /**
   * Step 5's caps in one round trip: reads the settings, counts the send against the destination's and
   * the client IP's rolling hour. Each destination (and IP) is one row, locked until the transaction ends:
   * sends to one destination are serialized, sends to others are not. A refused claim must be rolled back.
   */
  readonly claimCaps: (claim: CapsClaim) => Effect.Effect<CapsClaimed>
  /** Records a send whose caps were claimed: one round trip, in the caller's transaction. */
  readonly record: (record: SendRecord) => Effect.Effect<SendRecorded>
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
  /** Whether the day's spend leaves room for `price` under `capHalalas` (read only: when a charge was refused). */
  readonly spendAdmits: (
    applicationId: ApplicationId,
    dayStart: Millis,
    priceHalalas: number,
    capHalalas: number,
  ) => Effect.Effect<boolean>
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
