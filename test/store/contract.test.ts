import { describe } from "@effect/vitest"
import { MemoryStore } from "../../adapters/memory/store.ts"
import { PgliteStoreLive, PgStoreLive } from "../../adapters/sql/store.ts"
import { storeContract } from "./contract.ts"
import { freshSchema } from "./fixtures.ts"

const databaseUrl = process.env.DATABASE_URL

storeContract("memory store", MemoryStore, { concurrentTransactions: false })

storeContract("pglite (memory://)", PgliteStoreLive("memory://"), { concurrentTransactions: false })

describe.runIf(databaseUrl !== undefined)("postgres (DATABASE_URL)", () => {
  storeContract("postgres store, fresh schema", freshSchema(databaseUrl!, PgStoreLive), {
    concurrentTransactions: true,
  })
})
