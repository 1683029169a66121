/**
 * The store contract: one suite that every store adapter must pass, so that the memory store, PGlite
 * and PostgreSQL behave the same to the core.
 */
import { layer } from "@effect/vitest"
import type { Layer } from "effect"
import type { Store } from "../../adapters/products.ts"
import { accountsContract } from "./contract-accounts.ts"
import { httpContract } from "./contract-http.ts"
import { miscContract } from "./contract-misc.ts"
import { transactionsContract } from "./contract-transactions.ts"
import { usageContract } from "./contract-usage.ts"
import { verifyContract } from "./contract-verify.ts"
import { walletContract } from "./contract-wallet.ts"
import type { ContractOptions } from "./fixtures.ts"

export type { ContractOptions }

export const storeContract = <E>(name: string, store: Layer.Layer<Store, E>, options: ContractOptions) =>
  layer(store, { excludeTestServices: true, timeout: "60 seconds" })(name, (it) => {
    accountsContract(it)
    httpContract(it)
    walletContract(it, options)
    verifyContract(it, options)
    usageContract(it)
    miscContract(it)
    transactionsContract(it)
  })
