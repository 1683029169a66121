import { describe, expect, it } from "@effect/vitest"
import { readdirSync } from "node:fs"
import { products } from "../../adapters/products.ts"
import { MemoryStore } from "../../adapters/memory/store.ts"
import { PgliteStoreLive, PgStoreLive } from "../../adapters/sql/store.ts"
import { contracts, storeContract } from "./contract.ts"
import { freshPgStore } from "./fixtures.ts"

const databaseUrl = process.env.DATABASE_URL

storeContract("memory store", MemoryStore, { concurrentTransactions: false })

storeContract("pglite (memory://)", PgliteStoreLive("memory://"), { concurrentTransactions: false })

describe.runIf(databaseUrl !== undefined)("postgres (DATABASE_URL)", () => {
  storeContract("postgres store, fresh database", freshPgStore(databaseUrl!, PgStoreLive), {
    concurrentTransactions: true,
  })
})

describe("the contract folds over the products list", () => {
  it("every contract file is a product's of the list (a renamed product leaves none behind)", () => {
    const names = new Set<string>(products.map((p) => p.name))
    const files = readdirSync(new URL("./contracts/", import.meta.url)).filter((f) => f.endsWith(".ts"))
    expect(files.filter((f) => !names.has(f.slice(0, -3)))).toEqual([])
    expect(contracts.map((c) => c.product)).toEqual(
      expect.arrayContaining(["platform", "accounts", "wallet", "verify", "usage", "webhooks", "sms-simulator"]),
    )
  })
})
