/**
 * The Partner API's own storage (DECISIONS 13): a partner's list of client applications with what its record
 * shows (profile and Verify settings in one read), the claim on an `external_id`, and logos by content hash.
 */
import { Context, type Effect, type Option } from "effect"
import type { Application } from "../../core/accounts/model.ts"
import type { LifecycleStatus } from "../../core/partner/lifecycle.ts"
import type { AccountId, ApplicationId, Millis } from "../../core/shared/brands.ts"
import type { VerifySettings } from "../../core/verify/model.ts"
import type { ApplicationProfile } from "./accounts.ts"

/** One application as a partner's record reads it: the application, its profile, its Verify settings if set. */
export interface PartnerApplicationRow {
  readonly application: Application
  readonly profile: ApplicationProfile
  readonly settings: VerifySettings | null
}

/** What narrows a partner's list. */
export interface PartnerApplicationFilter {
  /** One status (`suspended` also matches the older `disabled`); null: every status but `archived`. */
  readonly status: LifecycleStatus | null
  /** Exactly this `external_id`. */
  readonly externalId: string | null
  /**
   * Part of the name or the `external_id` (ASCII letters in any case: already folded by `searchNeedle`), or the
   * whole application id (any case). Null: no narrowing.
   */
  readonly q: string | null
}

/** How `q` is compared: ASCII letters folded to lower case, everything else as given (SQL `lower(x COLLATE "C")`). */
export const searchNeedle = (q: string): string => q.replace(/[A-Z]/g, (c) => c.toLowerCase())

export class PartnerApplicationsRepo extends Context.Tag("ports/PartnerApplicationsRepo")<PartnerApplicationsRepo, {
  /** Up to `limit` applications of the account matching `filter`, newest first (then the greater id), after `after`. */
  readonly page: (
    accountId: AccountId,
    filter: PartnerApplicationFilter,
    after: { readonly createdAt: number; readonly id: string } | null,
    limit: number,
  ) => Effect.Effect<ReadonlyArray<PartnerApplicationRow>>
  /**
   * Holds the claim on `externalId` within the account until the transaction ends, so two requests cannot
   * both find it free (a transaction-scoped advisory lock on SQL; the memory store runs one transaction at once).
   */
  readonly claimExternalId: (accountId: AccountId, externalId: string) => Effect.Effect<void>
  /** The application of the account holding `externalId` (any status, archived included). */
  readonly holderOf: (accountId: AccountId, externalId: string) => Effect.Effect<Option.Option<ApplicationId>>
}>() {}

/** A logo as stored: its bytes under their content hash. */
export interface StoredLogo {
  /** Lower-case hex SHA-256 of `bytes`. */
  readonly sha256: string
  /** `png`, `jpg` or `webp`, from the bytes' magic numbers. */
  readonly ext: string
  readonly bytes: Uint8Array
  readonly createdAt: Millis
}

export class LogosRepo extends Context.Tag("ports/LogosRepo")<LogosRepo, {
  /** Stores a logo; one already stored under the same hash is kept as it is. */
  readonly put: (logo: StoredLogo) => Effect.Effect<void>
  readonly get: (sha256: string) => Effect.Effect<Option.Option<StoredLogo>>
}>() {}
