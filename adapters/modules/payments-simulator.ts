/**
 * The payment simulator (DECISIONS 14), while `PAYMENT_PROVIDER` is `simulator`: its console route paying a
 * top-up link. The provider itself is chosen with the wallet (adapters/modules/wallet.ts).
 */
import { Layer } from "effect"
import { paymentsSimulatorOperations } from "../../core/simulators/payments.ts"
import { paymentsSimulatorPages } from "../console/pages/wallet.tsx"
import { product } from "../product.ts"

export const paymentsSimulatorProduct = product({
  name: "payments-simulator",
  selected: (settings) => settings.paymentProvider === "simulator",
  memory: Layer.empty,
  sql: Layer.empty,
  migrations: [],
  operations: paymentsSimulatorOperations,
  pages: paymentsSimulatorPages,
})
