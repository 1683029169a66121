import { Context, type Effect, type Option } from "effect"
import type { AccountId, Millis } from "../../core/shared/brands.ts"

export type LedgerKind = "credit" | "charge" | "refund"

export interface LedgerEntry {
  readonly accountId: AccountId
  readonly kind: LedgerKind
  /** Positive for credit and refund, negative for charge. */
  readonly amountHalalas: number
  readonly product: string | null
  readonly reference: string | null
  readonly at: Millis
}

export interface LedgerSummary {
  readonly credits: number
  readonly charges: number
  readonly refunds: number
}

export class WalletRepo extends Context.Tag("ports/WalletRepo")<WalletRepo, {
  readonly balance: (accountId: AccountId) => Effect.Effect<number>
  /** Adds money (credit or refund) and answers the new balance. */
  readonly add: (entry: LedgerEntry) => Effect.Effect<number>
  /** Takes `-entry.amountHalalas` only if the balance covers it; answers the new balance, or None. */
  readonly charge: (entry: LedgerEntry) => Effect.Effect<Option.Option<number>>
  /** Sums of the ledger since `since` (all time when 0), by kind, as positive numbers. */
  readonly summary: (accountId: AccountId, since: Millis) => Effect.Effect<LedgerSummary>
  readonly lastCredit: (accountId: AccountId) => Effect.Effect<Option.Option<LedgerEntry>>
  readonly monthByProduct: (accountId: AccountId, since: Millis) => Effect.Effect<Record<string, number>>
}>() {}
