import { Context, type Effect } from "effect"
import type { AuditEntry } from "../../core/audit/model.ts"
import type { AccountId, Millis } from "../../core/shared/brands.ts"

/** Where a list page ends: the last entry's time and id (newest first). */
export interface AuditPosition {
  readonly at: Millis
  readonly id: string
}

export class AuditRepo extends Context.Tag("ports/AuditRepo")<AuditRepo, {
  readonly append: (entry: AuditEntry) => Effect.Effect<void>
  /** Up to `limit` entries of the account, newest first, after `after` if given. */
  readonly page: (
    accountId: AccountId,
    after: AuditPosition | null,
    limit: number,
  ) => Effect.Effect<ReadonlyArray<AuditEntry>>
}>() {}
