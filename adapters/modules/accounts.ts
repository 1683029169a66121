/**
 * Accounts, applications, keys and tokens: repositories, migrations (with the wallet's balance and ledger
 * tables, whose repositories are the wallet product's), the account API's operations and the console's (the
 * operator's accounts and keys).
 */
import { accountsEvents } from "../../core/accounts/events.ts"
import { Layer } from "effect"
import { accountOperations } from "../../core/accounts/operations.ts"
import { consoleOperations } from "../../core/console/operations.ts"
import { Console } from "../../core/console/service.ts"
import { ApplicationLifecycle } from "../../core/accounts/lifecycle.ts"
import { AccountsRepoMemory, ApplicationProfilesRepoMemory, ApplicationsRepoMemory } from "../memory/accounts.ts"
import { CredentialsRepoMemory } from "../memory/credentials.ts"
import { accountPages } from "../console/pages/accounts.tsx"
import { product } from "../product.ts"
import { AccountsRepoSql, ApplicationProfilesRepoSql, ApplicationsRepoSql } from "../sql/accounts.ts"
import { CredentialsRepoSql } from "../sql/credentials.ts"
import { migration as accounts } from "../sql/migrations/accounts/0001_accounts.ts"
import { migration as unpausedAt } from "../sql/migrations/accounts/0002_application_unpaused_at.ts"
import { migration as tokenHolders } from "../sql/migrations/accounts/0003_token_holders.ts"
import { migration as lifecycle } from "../sql/migrations/accounts/0004_application_lifecycle.ts"
import { migration as rejectionWithdraws } from "../sql/migrations/accounts/0005_rejection_withdraws_approval.ts"
import { accountsErrors } from "../../core/accounts/errors.ts"

export const accountsProduct = product({
  name: "accounts",
  events: accountsEvents,
  errors: accountsErrors,
  memory: Layer.mergeAll(
    AccountsRepoMemory,
    ApplicationProfilesRepoMemory,
    ApplicationsRepoMemory,
    CredentialsRepoMemory,
  ),
  sql: Layer.mergeAll(AccountsRepoSql, ApplicationProfilesRepoSql, ApplicationsRepoSql, CredentialsRepoSql),
  migrations: [accounts, unpausedAt, tokenHolders, lifecycle, rejectionWithdraws],
  // The operator's console for accounts and keys.
  services: () => Layer.provideMerge(Console.Default, ApplicationLifecycle.Default),
  operations: [...accountOperations, ...consoleOperations],
  pages: accountPages,
})
