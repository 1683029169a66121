/**
 * The wallet read of the account API (DECISIONS 6 names, DECISIONS 12 arithmetic), on Riyadh days and months:
 * P = 9 halalas (one code), d = today's Riyadh day of the month.
 */
import { Clock, Effect, Option } from "effect"
import { type Topup, WalletRepo, type WalletSettings } from "../../ports/store/wallet.ts"
import { Prices } from "../limits.ts"
import type { AccountId } from "../shared/brands.ts"
import { DAY_MS, isoMillis, riyadhMonthStart } from "../shared/riyadh.ts"

export type WalletState = "out" | "low" | "ok"

/** `out` below one code's price, `low` below the alert, else `ok`. */
export const walletState = (balance: number, alertHalalas: number): WalletState =>
  balance < Prices.verifySmsHalalas ? "out" : balance < alertHalalas ? "low" : "ok"

export const codesLeft = (balance: number): number => Math.floor(balance / Prices.verifySmsHalalas)

/** Today's Riyadh day of the month (1-31) and the number of days in this Riyadh month. */
export const riyadhMonthDays = (now: number): { readonly day: number; readonly daysInMonth: number } => {
  const start = riyadhMonthStart(now)
  const next = riyadhMonthStart(start + 32 * DAY_MS)
  return { day: Math.floor((now - start) / DAY_MS) + 1, daysInMonth: Math.round((next - start) / DAY_MS) }
}

/** What the month projection and the days left are computed from. */
export interface MonthFigures {
  readonly balance: number
  /** Charges less refunds this Riyadh month. */
  readonly spend: number
  /** Today's Riyadh day of the month. */
  readonly day: number
  readonly daysInMonth: number
}

/** `month_projection_halalas` = floor(spend × days in month / d); `days_left` = floor(balance × d / spend), null while spend is 0. */
export const projection = (f: MonthFigures) => ({
  month_projection_halalas: Math.floor((f.spend * f.daysInMonth) / f.day),
  days_left: f.spend > 0 ? Math.floor((f.balance * f.day) / f.spend) : null,
})

export const topupJson = (t: Topup) => ({
  id: t.id,
  method: t.method,
  amount_halalas: t.amountHalalas,
  at: isoMillis(t.at),
})

export const settingsJson = (s: WalletSettings) => ({
  low_balance_alert_halalas: s.lowBalanceAlertHalalas,
  auto_topup: {
    enabled: s.autoTopup.enabled,
    threshold_halalas: s.autoTopup.thresholdHalalas,
    amount_halalas: s.autoTopup.amountHalalas,
  },
  card: s.card === null ? null : { brand: s.card.brand, last4: s.card.last4 },
})

export const readWallet = (accountId: AccountId) =>
  Effect.gen(function* () {
    const wallet = yield* WalletRepo
    const now = yield* Clock.currentTimeMillis
    const balance = yield* wallet.balance(accountId)
    const settings = yield* wallet.settings(accountId)
    const monthStart = riyadhMonthStart(now)
    const month = yield* wallet.summary(accountId, monthStart)
    const spend = month.charges - month.refunds
    const { day, daysInMonth } = riyadhMonthDays(now)
    const byProduct = yield* wallet.monthByProduct(accountId, monthStart)
    const last = yield* wallet.lastTopup(accountId)
    const { auto_topup, card, low_balance_alert_halalas } = settingsJson(settings)
    return {
      balance_halalas: balance,
      state: walletState(balance, settings.lowBalanceAlertHalalas),
      codes_left: codesLeft(balance),
      month_spend_halalas: spend,
      ...projection({ balance, spend, day, daysInMonth }),
      low_balance_alert_halalas,
      auto_topup,
      card,
      month_by_product: {
        verify: byProduct.verify ?? 0,
        notifications: byProduct.notifications ?? 0,
        email: byProduct.email ?? 0,
      },
      last_topup: Option.match(last, { onNone: () => null, onSome: topupJson }),
    }
  })
