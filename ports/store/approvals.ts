import { Context, type Effect, type Option } from "effect"
import type { Approval } from "../../core/approvals/model.ts"
import type { AccountId, Millis } from "../../core/shared/brands.ts"

export class ApprovalsRepo extends Context.Tag("ports/ApprovalsRepo")<ApprovalsRepo, {
  readonly insert: (approval: Approval) => Effect.Effect<void>
  readonly get: (id: string) => Effect.Effect<Option.Option<Approval>>
  /** The approvals of this account, operation and input, newest first. */
  readonly matching: (
    accountId: AccountId,
    operation: string,
    inputKey: string,
  ) => Effect.Effect<ReadonlyArray<Approval>>
  /** `pending` → `approved` or `denied` while unexpired at `at`; answers the approval after, or None if it was not pending. */
  readonly decide: (
    id: string,
    status: "approved" | "denied",
    at: Millis,
    note: string | null,
  ) => Effect.Effect<Option.Option<Approval>>
  /** `approved` → `used` while unexpired at `at`, for one caller only: true for the one that took it. */
  readonly use: (id: string, at: Millis) => Effect.Effect<boolean>
  /** `used` → `approved` again (the operation it ran for failed). */
  readonly release: (id: string) => Effect.Effect<void>
  /** The operations that need an approval on this account, if it set its own list. */
  readonly policy: (accountId: AccountId) => Effect.Effect<Option.Option<ReadonlyArray<string>>>
  readonly setPolicy: (accountId: AccountId, operations: ReadonlyArray<string>) => Effect.Effect<void>
  /** Up to `limit` approvals of every account still pending and unexpired at `at`, newest first: the console's list. */
  readonly pending: (at: Millis, limit: number) => Effect.Effect<ReadonlyArray<Approval>>
}>() {}
