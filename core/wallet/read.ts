/** The wallet read of the account API (DECISIONS 6 field names). */
import { Clock, Effect, Option } from "effect"
import { WalletRepo } from "../../ports/store/wallet.ts"
import { Prices, Wallet } from "../limits.ts"
import type { AccountId } from "../shared/brands.ts"
import { DAY_MS, isoMillis, riyadhMonthStart } from "../shared/riyadh.ts"

export const walletState = (balance: number): "out" | "low" | "ok" =>
  balance < Prices.verifySmsHalalas ? "out" : balance < Wallet.lowBalanceAlertHalalas ? "low" : "ok"

export const readWallet = (accountId: AccountId) =>
  Effect.gen(function* () {
    const wallet = yield* WalletRepo
    const now = yield* Clock.currentTimeMillis
    const balance = yield* wallet.balance(accountId)
    const monthStart = riyadhMonthStart(now)
    const month = yield* wallet.summary(accountId, monthStart)
    const spend = month.charges - month.refunds
    const elapsedDays = Math.max(1, (now - monthStart) / DAY_MS)
    const nextMonthStart = riyadhMonthStart(monthStart + 32 * DAY_MS)
    const daysInMonth = Math.round((nextMonthStart - monthStart) / DAY_MS)
    const perDay = spend / elapsedDays
    const last = yield* wallet.lastCredit(accountId)
    return {
      balance_halalas: balance,
      state: walletState(balance),
      codes_left: Math.floor(balance / Prices.verifySmsHalalas),
      month_spend_halalas: spend,
      month_projection_halalas: Math.round(perDay * daysInMonth),
      days_left: perDay > 0 ? Math.floor(balance / perDay) : null,
      low_balance_alert_halalas: Wallet.lowBalanceAlertHalalas,
      auto_topup: { enabled: false },
      card: null,
      month_by_product: yield* wallet.monthByProduct(accountId, monthStart),
      last_topup: Option.match(last, {
        onNone: () => null,
        onSome: (e) => ({ amount_halalas: e.amountHalalas, at: isoMillis(e.at) }),
      }),
    }
  })
