/** The wallet's console operation (DECISIONS 2) and its output, the account API's wallet read. */
import { Schema } from "effect"
import { accountParameter, body, consoleCaller as console, consoleDone as done, raw } from "../console/operations.ts"
import { NotFound } from "../errors.ts"
import { Fields as FieldLimits } from "../limits.ts"
import { type AnyOperation, operation } from "../pipeline/operation.ts"
import { WalletConsole } from "./console.ts"

export const WalletOutput = Schema.Struct({
  balance_halalas: Schema.Int,
  state: Schema.Literal("ok", "low", "out"),
  codes_left: Schema.Int,
  month_spend_halalas: Schema.Int,
  month_projection_halalas: Schema.Int,
  days_left: Schema.NullOr(Schema.Int),
  low_balance_alert_halalas: Schema.Int,
  auto_topup: Schema.Struct({ enabled: Schema.Boolean }),
  card: Schema.NullOr(Schema.Struct({ brand: Schema.String, last4: Schema.String })),
  month_by_product: Schema.Record({ key: Schema.String, value: Schema.Int }),
  last_topup: Schema.NullOr(Schema.Struct({ amount_halalas: Schema.Int, at: Schema.String })),
}).annotations({ identifier: "Wallet" })

export const walletConsoleOperations = [
  operation({
    name: "console.wallet.credit",
    summary: "Credits an account's wallet; answers the wallet read of the account API.",
    method: "POST",
    path: "/console/v1/accounts/{account}/wallet/credit",
    caller: console,
    answer: done,
    parameters: [accountParameter],
    body: Schema.Struct({ amount_halalas: Schema.Int.pipe(Schema.between(1, FieldLimits.maxCreditHalalas)) }),
    decode: raw,
    output: WalletOutput,
    errors: [NotFound],
    idempotent: false,
    service: WalletConsole,
    run: (c, _, r) => c.creditWallet(r.params.account, body(r)),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
