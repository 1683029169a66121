import { Context, type Effect, type Option } from "effect"
import type { AccountId, ApplicationId, Millis, SaudiMobile, VerificationId } from "../../core/shared/brands.ts"
import type { Verification, VerifySend, VerifySettings } from "../../core/verify/model.ts"

export class VerificationsRepo extends Context.Tag("ports/VerificationsRepo")<VerificationsRepo, {
  readonly insert: (v: Verification) => Effect.Effect<void>
  readonly get: (id: VerificationId) => Effect.Effect<Option.Option<Verification>>
  /** Takes the row lock until the transaction ends. */
  readonly getForUpdate: (id: VerificationId) => Effect.Effect<Option.Option<Verification>>
  readonly update: (v: Verification) => Effect.Effect<void>
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

export class VerifySendsRepo extends Context.Tag("ports/VerifySendsRepo")<VerifySendsRepo, {
  readonly insert: (send: VerifySend) => Effect.Effect<void>
  /** Removes one send (a refused send counts toward no cap or spend). */
  readonly delete: (verificationId: VerificationId, sentAt: Millis) => Effect.Effect<void>
  readonly countToDestination: (applicationId: ApplicationId, to: SaudiMobile, since: Millis) => Effect.Effect<number>
  readonly countFromIp: (applicationId: ApplicationId, clientIp: string, since: Millis) => Effect.Effect<number>
  readonly spendSince: (applicationId: ApplicationId, since: Millis) => Effect.Effect<number>
  /** Sends since `since` and how many of their verifications are verified. */
  readonly guardStats: (applicationId: ApplicationId, since: Millis) => Effect.Effect<GuardStats>
}>() {}

export class VerifySettingsRepo extends Context.Tag("ports/VerifySettingsRepo")<VerifySettingsRepo, {
  readonly get: (applicationId: ApplicationId) => Effect.Effect<Option.Option<VerifySettings>>
  readonly put: (applicationId: ApplicationId, settings: VerifySettings) => Effect.Effect<void>
}>() {}

export class SandboxDestinationsRepo extends Context.Tag("ports/SandboxDestinationsRepo")<SandboxDestinationsRepo, {
  readonly add: (accountId: AccountId, to: SaudiMobile) => Effect.Effect<void>
  readonly has: (accountId: AccountId, to: SaudiMobile) => Effect.Effect<boolean>
}>() {}
