/**
 * The wallet's console use cases (DECISIONS 2, 14): a credit to an account's wallet, the wallet's settings, the
 * account's proformas.
 */
import { Clock, Effect } from "effect"
import { Secrets } from "../../ports/secrets.ts"
import { Transactor } from "../../ports/store/transactor.ts"
import { ProformasRepo, WalletRepo } from "../../ports/store/wallet.ts"
import { Console } from "../console/service.ts"
import { Lists } from "../limits.ts"
import { untracedStacks } from "../shared/tracing.ts"
import { readWallet } from "./read.ts"
import { proformaJson } from "./topups.ts"

/** `PUT /accounts/{account}/wallet/settings`: what is given changes, the rest stays. */
export interface SettingsPatch {
  readonly low_balance_alert_halalas?: number
  readonly auto_topup?: {
    readonly enabled?: boolean
    readonly threshold_halalas?: number
    readonly amount_halalas?: number
  }
}

export class WalletConsole extends Effect.Service<WalletConsole>()("core/WalletConsole", {
  effect: Effect.gen(function* () {
    const operator = yield* Console
    const wallet = yield* WalletRepo
    const secrets = yield* Secrets
    const tx = yield* Transactor
    const proformas = yield* ProformasRepo

    /** A top-up by the operator (method `console`). */
    const creditWallet = Effect.fn("WalletConsole.creditWallet", untracedStacks)(
      function* (accountId: string, input: { readonly amount_halalas: number }) {
        const owner = yield* operator.account(accountId)
        yield* wallet.topUp({
          id: yield* secrets.uuid,
          accountId: owner.id,
          method: "console",
          amountHalalas: input.amount_halalas,
          at: yield* Clock.currentTimeMillis,
        })
        return yield* readWallet(owner.id)
      },
    )

    const updateSettings = Effect.fn("WalletConsole.updateSettings", untracedStacks)(
      function* (accountId: string, patch: SettingsPatch) {
        const owner = yield* operator.account(accountId)
        yield* tx.withTransaction(Effect.gen(function* () {
          const current = yield* wallet.settingsForUpdate(owner.id)
          yield* wallet.saveSettings(owner.id, {
            lowBalanceAlertHalalas: patch.low_balance_alert_halalas ?? current.lowBalanceAlertHalalas,
            autoTopup: {
              enabled: patch.auto_topup?.enabled ?? current.autoTopup.enabled,
              thresholdHalalas: patch.auto_topup?.threshold_halalas ?? current.autoTopup.thresholdHalalas,
              amountHalalas: patch.auto_topup?.amount_halalas ?? current.autoTopup.amountHalalas,
            },
            card: current.card,
          })
        }))
        return yield* readWallet(owner.id)
      },
    )

    /** `GET /accounts/{account}/proformas`: the account's proformas, newest first, at most `limit`. */
    const listProformas = Effect.fn("WalletConsole.listProformas", untracedStacks)(
      function* (accountId: string, limit: number = Lists.defaultLimit) {
        const owner = yield* operator.account(accountId)
        const now = yield* Clock.currentTimeMillis
        return (yield* proformas.listByAccount(owner.id, limit)).map((p) => proformaJson(p, now))
      },
    )

    return { creditWallet, updateSettings, listProformas } as const
  }),
}) {}
