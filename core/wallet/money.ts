/** VAT on top of a top-up (DECISIONS 12): 15 %, rounded half up, in integer arithmetic. */
import { Wallet } from "../limits.ts"

/** round half up(amount × 15 / 100), without floating point: floor((amount × 15 + 50) / 100). */
export const vatOf = (amountHalalas: number): number => Math.floor((amountHalalas * Wallet.vatPercent + 50) / 100)

export const withVat = (amountHalalas: number) => {
  const vat = vatOf(amountHalalas)
  return { amount_halalas: amountHalalas, vat_halalas: vat, total_halalas: amountHalalas + vat }
}
