/**
 * The store contract: one suite that every store adapter must pass, so that the memory store, PGlite and
 * PostgreSQL behave the same to the core. It folds over the products list: a product's contract is
 * `test/store/contracts/<product>.ts` exporting `contract(it, options)`, run under the product's name on
 * every store; nothing here names a product.
 */
import { describe, layer } from "@effect/vitest"
import { existsSync } from "node:fs"
import type { Layer } from "effect"
import { products, type Store } from "../../adapters/products.ts"
import type { ContractOptions, It } from "./fixtures.ts"

export type { ContractOptions }

/** One product's store contract. */
export type Contract = (it: It, options: ContractOptions) => void

/** The contract file of a product. */
export const contractFile = (product: string) => new URL(`./contracts/${product}.ts`, import.meta.url)

/** The products of the list that have a contract, with it, in the list's order. */
export const contracts: ReadonlyArray<{ readonly product: string; readonly contract: Contract }> = await Promise.all(
  products.filter((p) => existsSync(contractFile(p.name))).map(async (p) => ({
    product: p.name,
    contract: ((await import(contractFile(p.name).href)) as { contract: Contract }).contract,
  })),
)

export const storeContract = <E>(name: string, store: Layer.Layer<Store, E>, options: ContractOptions) =>
  layer(store, { excludeTestServices: true, timeout: "60 seconds" })(name, (it) => {
    for (const { product, contract } of contracts) describe(product, () => contract(it, options))
  })
