/**
 * The payment provider (DECISIONS 12, `PAYMENT_PROVIDER`, default `simulator`): hosted payment pages for top-up
 * links, and charges to a card saved on an account (auto top-up).
 */
import { Context, Data, type Effect } from "effect"
import type { Millis } from "../core/shared/brands.ts"

export interface LinkRequest {
  /** Our id of the top-up link (the provider echoes it when the page is paid). */
  readonly reference: string
  readonly totalHalalas: number
  readonly expiresAt: Millis
}

export interface CardCharge {
  readonly cardToken: string
  readonly totalHalalas: number
  readonly reference: string
}

/** The provider declined a card charge. */
export class PaymentDeclined extends Data.TaggedError("PaymentDeclined")<{ readonly message: string }> {}

export class PaymentProvider extends Context.Tag("ports/PaymentProvider")<PaymentProvider, {
  /** Makes a payment page for `totalHalalas`; answers the URL the payer opens. */
  readonly createLink: (request: LinkRequest) => Effect.Effect<{ readonly url: string }>
  /** Charges a saved card; answers the provider's id of the payment. */
  readonly chargeCard: (charge: CardCharge) => Effect.Effect<{ readonly paymentId: string }, PaymentDeclined>
}>() {}
