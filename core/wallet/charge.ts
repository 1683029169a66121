/** Charging and refunding the prepaid wallet: the balance never goes below zero. */
import { Effect, Option } from "effect"
import { OutboxRepo } from "../../ports/store/outbox.ts"
import { WalletRepo } from "../../ports/store/wallet.ts"
import { Secrets } from "../../ports/secrets.ts"
import type { Account } from "../accounts/model.ts"
import { InsufficientCredits } from "../errors.ts"
import { Wallet } from "../limits.ts"
import type { EventId, Millis } from "../shared/brands.ts"

export interface ChargeRequest {
  readonly account: Account
  readonly priceHalalas: number
  readonly product: string
  readonly reference: string
  readonly at: Millis
}

/**
 * Takes the price, or fails `402 insufficient_credits`; answers the balance after the charge.
 * `balance.low` is not fired here: the caller fires it with `alertLowBalance` once the send is
 * accepted, so that a refused send, refunded as if never attempted, fires nothing.
 */
export const charge = (req: ChargeRequest) =>
  Effect.gen(function* () {
    const wallet = yield* WalletRepo
    const after = yield* wallet.charge({
      accountId: req.account.id,
      kind: "charge",
      amountHalalas: -req.priceHalalas,
      product: req.product,
      reference: req.reference,
      at: req.at,
    })
    if (Option.isNone(after)) {
      const balance = yield* wallet.balance(req.account.id)
      return yield* new InsufficientCredits({
        message: `The balance of ${balance} halalas is below the price of ${req.priceHalalas} halalas.`,
        balance_halalas: balance,
        price_halalas: req.priceHalalas,
      })
    }
    return after.value
  })

/** Fires `balance.low` when the charge `req`, which left `after`, took a partner's balance below the threshold. */
/** A partner's charge took the balance from at or above the alert to below it. */
export const crossesLowBalance = (req: ChargeRequest, after: number) =>
  req.account.partner && after < Wallet.lowBalanceAlertHalalas &&
  after + req.priceHalalas >= Wallet.lowBalanceAlertHalalas

export const alertLowBalance = (req: ChargeRequest, after: number) =>
  Effect.gen(function* () {
    const threshold = Wallet.lowBalanceAlertHalalas
    if (!crossesLowBalance(req, after)) return
    const id = (yield* (yield* Secrets).uuid) as EventId
    yield* (yield* OutboxRepo).append([{
      id,
      event: "balance.low",
      data: { account_id: req.account.id, balance_halalas: after, threshold_halalas: threshold },
      applicationId: null,
      accountId: req.account.id,
      externalId: null,
      createdAt: req.at,
    }])
  })

export const refund = (req: ChargeRequest) =>
  Effect.flatMap(WalletRepo, (wallet) =>
    wallet.add({
      accountId: req.account.id,
      kind: "refund",
      amountHalalas: req.priceHalalas,
      product: req.product,
      reference: req.reference,
      at: req.at,
    }))
