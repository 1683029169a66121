/**
 * The prepaid wallet (DECISIONS 12): one ledger, one balance kept in step with it in the same statement or
 * transaction; the account's wallet settings and card; top-up links and proformas.
 */
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

/** How money came into the wallet (`last_topup.method`). */
export type TopupMethod = "link" | "bank_transfer" | "auto" | "console"

/** A top-up: a `credit` row of the ledger (its `reference` is the top-up's id) with its method. */
export interface Topup {
  readonly id: string
  readonly accountId: AccountId
  readonly method: TopupMethod
  readonly amountHalalas: number
  readonly at: Millis
}

export interface AutoTopup {
  readonly enabled: boolean
  readonly thresholdHalalas: number
  readonly amountHalalas: number
}

export interface Card {
  readonly brand: string
  readonly last4: string
  /** The payment provider's handle for charging it again (never shown). */
  readonly token: string
}

/** An account's wallet settings; an account with none set has the defaults (core/limits.ts `Wallet`). */
export interface WalletSettings {
  readonly lowBalanceAlertHalalas: number
  readonly autoTopup: AutoTopup
  readonly card: Card | null
}

/** What a charge that went through answers: the balance after it, and the settings that judge it. */
export interface Charged {
  readonly balance: number
  readonly settings: WalletSettings
}

export class WalletRepo extends Context.Tag("ports/WalletRepo")<WalletRepo, {
  readonly balance: (accountId: AccountId) => Effect.Effect<number>
  /** Adds money (credit or refund) and answers the new balance. */
  readonly add: (entry: LedgerEntry) => Effect.Effect<number>
  /** A top-up: its ledger credit, its record and the balance, together; answers the new balance. */
  readonly topUp: (topup: Topup) => Effect.Effect<number>
  /**
   * Takes `-entry.amountHalalas` only if the balance covers it; answers the new balance with the account's
   * settings (one statement on SQL: it is on every send's path), or None.
   */
  readonly charge: (entry: LedgerEntry) => Effect.Effect<Option.Option<Charged>>
  /** Sums of the ledger since `since` (all time when 0), by kind, as positive numbers. */
  readonly summary: (accountId: AccountId, since: Millis) => Effect.Effect<LedgerSummary>
  /** The latest top-up, the last recorded among equal times. */
  readonly lastTopup: (accountId: AccountId) => Effect.Effect<Option.Option<Topup>>
  readonly monthByProduct: (accountId: AccountId, since: Millis) => Effect.Effect<Record<string, number>>
  readonly settings: (accountId: AccountId) => Effect.Effect<WalletSettings>
  /** The settings, their row locked for the caller's transaction (a read-modify-write of them). */
  readonly settingsForUpdate: (accountId: AccountId) => Effect.Effect<WalletSettings>
  readonly saveSettings: (accountId: AccountId, settings: WalletSettings) => Effect.Effect<void>
}>() {}

/** The parameters of a charge taken inside another statement (`WalletChargeSql`). */
export type ChargeParameter = "amount" | "account" | "kind" | "entryAmount" | "product" | "reference" | "at"

/**
 * The wallet's charge as a part of another product's statement, on the SQL stores only: Verify's send is judged,
 * charged and recorded in one statement (adapters/sql/verify.ts), and takes the charge through this port rather
 * than from the wallet's tables. Its parts are texts, resolved once when the repository's layer is built: no
 * work per request. `p(name)` binds one of the charge's parameters in the host statement (`values` gives them
 * for a ledger entry); the parts name the CTEs `charged` and `entry` and the aliases `c` and `s`.
 */
export class WalletChargeSql extends Context.Tag("ports/WalletChargeSql")<WalletChargeSql, {
  /** A boolean expression: the account's balance covers `amount` (on the statement's snapshot, without a lock). */
  readonly covers: (p: (name: ChargeParameter) => string) => string
  /**
   * CTEs `charged` (one row, the balance after the charge, when the balance held `amount` under the row's lock
   * and `onlyIf` holds; none otherwise) and `entry` (its ledger row, only then).
   */
  readonly ctes: (p: (name: ChargeParameter) => string, onlyIf: string) => string
  /** Joins to append to the statement's FROM: what `columns` reads (nulls when the charge was not taken). */
  readonly joins: string
  /** The select-list of a taken charge, read back with `charged`. */
  readonly columns: string
  /** The values of the parameters for a charge entry (its `amountHalalas` negative). */
  readonly values: (entry: LedgerEntry) => Readonly<Record<ChargeParameter, unknown>>
  readonly charged: (row: Readonly<Record<string, any>>) => Charged
}>() {}

export type LinkStatus = "open" | "paid"

/** A top-up link (payment page): `expired` is read from `expiresAt`, never stored. */
export interface TopupLink {
  readonly id: string
  readonly accountId: AccountId
  readonly url: string
  readonly status: LinkStatus
  readonly amountHalalas: number
  readonly vatHalalas: number
  readonly totalHalalas: number
  readonly expiresAt: Millis
  readonly createdAt: Millis
  readonly paidAt: Millis | null
}

export class TopupLinksRepo extends Context.Tag("ports/TopupLinksRepo")<TopupLinksRepo, {
  readonly insert: (link: TopupLink) => Effect.Effect<void>
  /** The link, locked for the caller's transaction. */
  readonly getForUpdate: (id: string) => Effect.Effect<Option.Option<TopupLink>>
  readonly markPaid: (id: string, at: Millis) => Effect.Effect<void>
}>() {}

export interface Buyer {
  readonly name: string
  readonly vatNumber: string | null
  readonly address: string | null
}

export interface Proforma {
  readonly id: string
  readonly accountId: AccountId
  /** `PF-YYYY-NNNNNN`, YYYY the Riyadh year of issue. */
  readonly number: string
  readonly status: LinkStatus
  readonly amountHalalas: number
  readonly vatHalalas: number
  readonly totalHalalas: number
  readonly buyer: Buyer
  readonly iban: string
  readonly issuedAt: Millis
  readonly expiresAt: Millis
  readonly paidAt: Millis | null
}

export class ProformasRepo extends Context.Tag("ports/ProformasRepo")<ProformasRepo, {
  /**
   * The next number of `year` (1, 2, ...): the year's counter row incremented in the caller's transaction, so
   * numbers have no gaps or repeats across processes (a rolled-back proforma gives its number back).
   */
  readonly nextNumber: (year: number) => Effect.Effect<number>
  readonly insert: (proforma: Proforma) => Effect.Effect<void>
  readonly getForUpdate: (id: string) => Effect.Effect<Option.Option<Proforma>>
  readonly get: (id: string) => Effect.Effect<Option.Option<Proforma>>
  /** The account's proformas, newest first (by issue, then number), at most `limit`. */
  readonly listByAccount: (accountId: AccountId, limit: number) => Effect.Effect<ReadonlyArray<Proforma>>
  readonly markPaid: (id: string, at: Millis) => Effect.Effect<void>
}>() {}
