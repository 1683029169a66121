import { Context, type Effect } from "effect"
import type { AccountId, ApplicationId, Millis } from "../../core/shared/brands.ts"

/**
 * One page of client usage (DECISIONS 12, 16): the applications of an account with a count in
 * `[since, until)`, busiest first, and the totals of every matching row.
 */
export interface UsageQuery {
  readonly accountId: AccountId
  /** Inclusive, epoch ms. */
  readonly since: Millis
  /** Exclusive, epoch ms. */
  readonly until: Millis
  /**
   * Narrows the rows: part of the name or the `external_id` (ASCII letters in any case), or the whole
   * application id. Already ASCII-lower-cased by the caller (`usageNeedle`); null: every application.
   */
  readonly q: string | null
  /** At most this many rows. */
  readonly limit: number
  /** The rows after this application's row in the list's order (the previous page's last); null: from the first. */
  readonly after: ApplicationId | null
}

export interface UsageRow {
  readonly applicationId: ApplicationId
  readonly externalId: string | null
  readonly name: string
  /** Charged SMS (start and resend) not refunded. */
  readonly codesSent: number
  /** Live and partner verifications verified in the period. */
  readonly codesVerified: number
  /** Charges less refunds, halalas. */
  readonly costHalalas: number
}

export interface UsageTotals {
  readonly applications: number
  readonly codesSent: number
  readonly codesVerified: number
  readonly costHalalas: number
}

export interface UsagePage {
  /** Ordered by `codesSent` desc, then `costHalalas` desc, then `applicationId` asc. */
  readonly rows: ReadonlyArray<UsageRow>
  /** Of every matching row, not just this page's. */
  readonly totals: UsageTotals
}

export class UsageRepo extends Context.Tag("ports/UsageRepo")<UsageRepo, {
  readonly page: (query: UsageQuery) => Effect.Effect<UsagePage>
}>() {}

/** How `q` is compared: ASCII letters folded to lower case, everything else as given (as SQL's `lower(x COLLATE "C")`). */
export const usageNeedle = (q: string): string => q.replace(/[A-Z]/g, (c) => c.toLowerCase())
