/** The error codes of the catalogue: The wallet, shared by every product that charges. */
import { Schema } from "effect"
import { ApiErrorClass } from "../shared/api-error.ts"

export class InsufficientCredits extends ApiErrorClass<InsufficientCredits>()("insufficient_credits", {
  message: Schema.String,
  balance_halalas: Schema.Number,
  price_halalas: Schema.Number,
}, { status: 402 }) {}

/** Every code of this part of the catalogue (core/errors.ts merges them). */
export const walletErrors = [
  InsufficientCredits,
] as const
