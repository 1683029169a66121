/**
 * Charging and refunding the prepaid wallet (the balance never goes below zero), and what follows a charge
 * (DECISIONS 12): `balance.low` when it took the balance from at least the alert to below it, and the auto
 * top-up when it took the balance below the auto top-up threshold. Both are once per crossing: a charge
 * that starts below the line crosses nothing; a credit back to the line re-arms it.
 */
import { Effect, Metric, Option } from "effect"
import { PaymentProvider } from "../../ports/payments.ts"
import { OutboxRepo } from "../../ports/store/outbox.ts"
import { type Charged, type LedgerEntry, WalletRepo } from "../../ports/store/wallet.ts"
import { Secrets } from "../../ports/secrets.ts"
import type { Account } from "../accounts/model.ts"
import { InsufficientCredits } from "../errors.ts"
import type { EventId, Millis } from "../shared/brands.ts"
import { Metrics } from "../shared/metrics.ts"
import { isoMillis } from "../shared/riyadh.ts"
import { accountWebhookId } from "../webhooks/envelope.ts"
import { vatOf } from "./money.ts"
import { codesLeft, walletState } from "./read.ts"

export interface ChargeRequest {
  readonly account: Account
  readonly priceHalalas: number
  readonly product: string
  readonly reference: string
  readonly at: Millis
}

/**
 * Takes the price, or fails `402 insufficient_credits`; answers the balance after the charge with the
 * account's wallet settings. Neither `balance.low` nor the auto top-up runs here: the caller runs
 * `afterCharge` once the send is accepted, so that a refused send, refunded as if never attempted, does neither.
 */
export const charge = (req: ChargeRequest) =>
  Effect.gen(function* () {
    const after = yield* (yield* WalletRepo).charge(chargeEntry(req))
    if (Option.isNone(after)) return yield* insufficientCredits(req)
    return after.value
  })

/** Counts a charge the send it paid for kept (metrics: charges and halalas charged). */
export const countCharge = (req: ChargeRequest) =>
  Effect.zipRight(
    Metric.increment(Metrics.walletCharges),
    Metric.incrementBy(Metrics.walletChargedHalalas, req.priceHalalas),
  )

/** The ledger row of a charge. */
export const chargeEntry = (req: ChargeRequest): LedgerEntry => ({
  accountId: req.account.id,
  kind: "charge",
  amountHalalas: -req.priceHalalas,
  product: req.product,
  reference: req.reference,
  at: req.at,
})

/** `402 insufficient_credits` for a charge the balance could not cover, with the balance now. */
export const insufficientCredits = (req: ChargeRequest) =>
  Effect.flatMap(WalletRepo, (wallet) => wallet.balance(req.account.id)).pipe(
    Effect.flatMap((balance) =>
      new InsufficientCredits({
        message: `The balance of ${balance} halalas is below the price of ${req.priceHalalas} halalas.`,
        balance_halalas: balance,
        price_halalas: req.priceHalalas,
      })
    ),
  )

/** The charge of `price` that left `after` took the balance from at least `line` to below it. */
export const crosses = (line: number, price: number, after: number): boolean => after < line && after + price >= line

/** The charge `req`, which left `charged`, took the balance from at least the alert to below it. */
export const crossesLowBalance = (req: ChargeRequest, charged: Charged): boolean =>
  crosses(charged.settings.lowBalanceAlertHalalas, req.priceHalalas, charged.balance)

/** The charge took the balance below the auto top-up threshold, with the auto top-up on and a card on file. */
export const crossesAutoTopup = (req: ChargeRequest, charged: Charged): boolean =>
  charged.settings.autoTopup.enabled && charged.settings.card !== null &&
  crosses(charged.settings.autoTopup.thresholdHalalas, req.priceHalalas, charged.balance)

/** Whether `afterCharge` has anything to do (most charges do not: the caller skips it then). */
export const afterChargeDue = (req: ChargeRequest, charged: Charged): boolean =>
  crossesLowBalance(req, charged) || crossesAutoTopup(req, charged)

/** `balance.low` for the account (any account: DECISIONS 15), to its account webhook and feed. */
export const alertLowBalance = (req: ChargeRequest, charged: Charged) =>
  Effect.gen(function* () {
    if (!crossesLowBalance(req, charged)) return
    const id = (yield* (yield* Secrets).uuid) as EventId
    const alert = charged.settings.lowBalanceAlertHalalas
    yield* (yield* OutboxRepo).append([{
      id,
      event: "balance.low",
      data: {
        // The webhook-id of its delivery to the account, as every account event's (core/webhooks/envelope.ts).
        id: accountWebhookId(id),
        account_id: req.account.id,
        balance_halalas: charged.balance,
        low_balance_alert_halalas: alert,
        state: walletState(charged.balance, alert),
        codes_left: codesLeft(charged.balance),
        occurred_at: isoMillis(req.at),
      },
      applicationId: null,
      accountId: req.account.id,
      externalId: null,
      createdAt: req.at,
    }])
    yield* Metric.increment(Metrics.balanceLow)
  })

/**
 * The auto top-up: charges the saved card the amount and its VAT and credits the wallet the amount at once
 * (method `auto`). A declined card credits nothing (the next crossing tries again).
 */
export const autoTopUp = (req: ChargeRequest, charged: Charged) =>
  Effect.gen(function* () {
    if (!crossesAutoTopup(req, charged)) return Option.none<number>()
    const { amountHalalas } = charged.settings.autoTopup
    const id = yield* (yield* Secrets).uuid
    const paid = yield* Effect.either((yield* PaymentProvider).chargeCard({
      cardToken: charged.settings.card!.token,
      totalHalalas: amountHalalas + vatOf(amountHalalas),
      reference: id,
    }))
    if (paid._tag === "Left") return Option.none<number>()
    return Option.some(
      yield* (yield* WalletRepo).topUp({
        id,
        accountId: req.account.id,
        method: "auto",
        amountHalalas,
        at: req.at,
      }),
    )
  })

/** What follows an accepted charge: `balance.low`, then the auto top-up. */
export const afterCharge = (req: ChargeRequest, charged: Charged) =>
  Effect.zipRight(alertLowBalance(req, charged), autoTopUp(req, charged))

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
