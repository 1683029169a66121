/**
 * Accounts, applications, keys and tokens, the wallet: repositories, migrations, the account API's operations
 * and the console's (the operator's accounts and keys, wallet credits).
 */
import { Layer } from "effect"
import { accountOperations } from "../../core/accounts/operations.ts"
import { consoleOperations } from "../../core/console/operations.ts"
import { Console } from "../../core/console/service.ts"
import { WalletConsole } from "../../core/wallet/console.ts"
import { walletConsoleOperations } from "../../core/wallet/operations.ts"
import { AccountsRepoMemory, ApplicationsRepoMemory } from "../memory/accounts.ts"
import { CredentialsRepoMemory } from "../memory/credentials.ts"
import { WalletRepoMemory } from "../memory/wallet.ts"
import { product } from "../product.ts"
import { AccountsRepoSql, ApplicationsRepoSql } from "../sql/accounts.ts"
import { CredentialsRepoSql } from "../sql/credentials.ts"
import { migration as accounts } from "../sql/migrations/accounts/0001_accounts.ts"
import { migration as unpausedAt } from "../sql/migrations/accounts/0002_application_unpaused_at.ts"
import { migration as tokenHolders } from "../sql/migrations/accounts/0003_token_holders.ts"
import { WalletRepoSql } from "../sql/wallet.ts"

export const accountsProduct = product({
  name: "accounts",
  memory: Layer.mergeAll(AccountsRepoMemory, ApplicationsRepoMemory, CredentialsRepoMemory, WalletRepoMemory),
  sql: Layer.mergeAll(AccountsRepoSql, ApplicationsRepoSql, CredentialsRepoSql, WalletRepoSql),
  migrations: [accounts, unpausedAt, tokenHolders],
  // The operator's console for accounts and keys, and the wallet's credit.
  services: () => Layer.provideMerge(WalletConsole.Default, Console.Default),
  operations: [...accountOperations, ...consoleOperations, ...walletConsoleOperations],
})
