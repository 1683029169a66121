/**
 * The wallet's console operations (DECISIONS 2, 14): a credit, the wallet's settings, a proforma settled, an
 * account's proformas listed;
 * and the outputs the account API's wallet operations share with them.
 */
import { Schema } from "effect"
import { accountParameter, consoleCaller as console, consoleDone as done } from "../console/operations.ts"
import { InvalidRequest, NotFound } from "../errors.ts"
import { InvalidState } from "../accounts/errors.ts"
import { limitParameter } from "../accounts/lists.ts"
import { Fields as FieldLimits, Wallet } from "../limits.ts"
import { type AnyOperation, operation } from "../pipeline/operation.ts"
import { consoleBody } from "../shared/fields.ts"
import { WalletConsole } from "./console.ts"
import { WalletTopups } from "./topups.ts"

const Halalas = Schema.Int.pipe(Schema.nonNegative())

export const WalletOutput = Schema.Struct({
  balance_halalas: Halalas,
  state: Schema.Literal("ok", "low", "out"),
  codes_left: Halalas,
  month_spend_halalas: Schema.Int,
  month_projection_halalas: Schema.Int,
  days_left: Schema.NullOr(Schema.Int),
  low_balance_alert_halalas: Halalas,
  auto_topup: Schema.Struct({ enabled: Schema.Boolean, threshold_halalas: Halalas, amount_halalas: Halalas }),
  card: Schema.NullOr(Schema.Struct({ brand: Schema.String, last4: Schema.String })),
  month_by_product: Schema.Struct({ verify: Schema.Int, notifications: Schema.Int, email: Schema.Int }),
  last_topup: Schema.NullOr(Schema.Struct({
    id: Schema.String,
    method: Schema.Literal("link", "bank_transfer", "auto", "console"),
    amount_halalas: Halalas,
    at: Schema.String,
  })),
}).annotations({ identifier: "Wallet" })

const Status = Schema.Literal("open", "paid", "expired")

export const TopupLinkOutput = Schema.Struct({
  id: Schema.UUID,
  url: Schema.String,
  status: Status,
  amount_halalas: Halalas,
  vat_halalas: Halalas,
  total_halalas: Halalas,
  expires_at: Schema.String,
  created_at: Schema.String,
}).annotations({ identifier: "TopupLink" })

export const ProformaOutput = Schema.Struct({
  id: Schema.UUID,
  number: Schema.String.annotations({ description: "PF-YYYY-NNNNNN, YYYY the Riyadh year of issue" }),
  status: Status,
  amount_halalas: Halalas,
  vat_percent: Schema.Literal(Wallet.vatPercent),
  vat_halalas: Halalas,
  total_halalas: Halalas,
  buyer: Schema.Struct({
    name: Schema.String,
    vat_number: Schema.NullOr(Schema.String),
    address: Schema.NullOr(Schema.String),
  }),
  bank: Schema.Struct({ iban: Schema.String, reference: Schema.String }),
  issued_at: Schema.String,
  expires_at: Schema.String,
}).annotations({ identifier: "Proforma" })

const Threshold = Schema.Int.pipe(Schema.between(0, Wallet.maxThresholdHalalas))
export const TopupAmount = Schema.Int.pipe(Schema.between(Wallet.topupHalalas.min, Wallet.topupHalalas.max))

export const SettingsBody = Schema.Struct({
  low_balance_alert_halalas: Schema.optional(Threshold),
  // Exact (no `undefined` member): a refused field inside is named alone, not with its parent as well.
  auto_topup: Schema.optionalWith(
    Schema.Struct({
      enabled: Schema.optional(Schema.Boolean),
      threshold_halalas: Schema.optional(Threshold),
      amount_halalas: Schema.optional(TopupAmount),
    }),
    { exact: true },
  ),
})

const idParameter = {
  name: "id",
  in: "path",
  description: "The proforma's id",
  schema: Schema.UUID,
  required: true,
} as const

export const walletConsoleOperations = [
  operation({
    name: "console.wallet.credit",
    summary: "Credits an account's wallet (a top-up, method `console`); answers the wallet read of the account API.",
    method: "POST",
    path: "/console/v1/accounts/{account}/wallet/credit",
    caller: console,
    answer: done,
    parameters: [accountParameter],
    body: consoleBody({ amount_halalas: Schema.Int.pipe(Schema.between(1, FieldLimits.maxCreditHalalas)) }),
    output: WalletOutput,
    errors: [NotFound],
    idempotent: false,
    service: WalletConsole,
    run: (c, _, input) => c.creditWallet(input.params.account, input.body),
  }),
  operation({
    name: "console.wallet.settings",
    summary:
      "Sets an account's low-balance alert and auto top-up (what is given; the rest stays); answers the wallet read.",
    method: "PUT",
    path: "/console/v1/accounts/{account}/wallet/settings",
    caller: console,
    answer: done,
    parameters: [accountParameter],
    body: SettingsBody,
    output: WalletOutput,
    errors: [InvalidRequest, NotFound],
    idempotent: false,
    service: WalletConsole,
    run: (c, _, input) => c.updateSettings(input.params.account, input.body),
  }),
  operation({
    name: "console.proformas.list",
    summary: "An account's proformas, newest first (the console's wallet page lists them with their PDF).",
    method: "GET",
    path: "/console/v1/accounts/{account}/proformas",
    caller: console,
    answer: done,
    parameters: [
      accountParameter,
      limitParameter,
    ],
    body: undefined,
    output: Schema.Array(ProformaOutput),
    errors: [InvalidRequest, NotFound],
    idempotent: false,
    service: WalletConsole,
    run: (c, _, input) => c.listProformas(input.params.account, input.query.limit),
  }),
  operation({
    name: "console.proformas.settle",
    summary: "The proforma's bank transfer arrived: the proforma `paid`, the wallet credited (method `bank_transfer`).",
    method: "POST",
    path: "/console/v1/proformas/{id}/settle",
    caller: console,
    answer: done,
    parameters: [idParameter],
    body: Schema.Struct({}),
    output: ProformaOutput,
    errors: [InvalidRequest, NotFound, InvalidState],
    idempotent: false,
    service: WalletTopups,
    run: (t, _, input) => t.settleProforma(input.params.id),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
