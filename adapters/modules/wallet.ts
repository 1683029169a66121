/**
 * The wallet (DECISIONS 12, 14): balances and the ledger (the accounts product's tables), top-ups, settings,
 * top-up links and proformas; the account API's wallet operations and the console's; the payment provider
 * chosen by `PAYMENT_PROVIDER`.
 */
import { walletEvents } from "../../core/wallet/events.ts"
import { Layer } from "effect"
import { walletAccountOperations } from "../../core/wallet/account-operations.ts"
import { WalletConsole } from "../../core/wallet/console.ts"
import { walletConsoleOperations } from "../../core/wallet/operations.ts"
import { WalletTopups } from "../../core/wallet/topups.ts"
import type { Settings } from "../config.ts"
import { ProformasRepoMemory, TopupLinksRepoMemory, WalletRepoMemory } from "../memory/wallet.ts"
import { PaymentProviderSimulator } from "../payments/simulator.ts"
import { DocumentsPdfLib } from "../documents/pdf-lib.ts"
import { walletPages } from "../console/pages/wallet.tsx"
import { product } from "../product.ts"
import { migration as wallet } from "../sql/migrations/wallet/0001_wallet.ts"
import { migration as proformasByAccount } from "../sql/migrations/wallet/0002_proformas_by_account.ts"
import { ProformasRepoSql, TopupLinksRepoSql, WalletChargeSqlLive, WalletRepoSql } from "../sql/wallet.ts"
import { walletErrors } from "../../core/wallet/errors.ts"

/** The payment provider of `PAYMENT_PROVIDER`. */
export const paymentProviderLayer = (settings: Settings) => {
  switch (settings.paymentProvider) {
    case "simulator":
      return PaymentProviderSimulator
    default:
      return Layer.die(new Error(`unknown PAYMENT_PROVIDER: ${settings.paymentProvider}`))
  }
}

export const walletProduct = product({
  name: "wallet",
  events: walletEvents,
  errors: walletErrors,
  memory: Layer.mergeAll(WalletRepoMemory, TopupLinksRepoMemory, ProformasRepoMemory),
  // The charge as a part of another statement is the SQL store's alone (Verify's send takes it: the port's comment).
  sql: Layer.mergeAll(WalletRepoSql, TopupLinksRepoSql, ProformasRepoSql, WalletChargeSqlLive),
  migrations: [wallet, proformasByAccount],
  services: (settings) =>
    Layer.mergeAll(WalletConsole.Default, WalletTopups.Default).pipe(
      Layer.provideMerge(Layer.merge(paymentProviderLayer(settings), DocumentsPdfLib)),
    ),
  operations: [...walletAccountOperations, ...walletConsoleOperations],
  pages: walletPages,
})
