/**
 * Email's store contracts (contracts/email.ts, contracts/email-simulator.ts) over the memory store, PGlite and
 * PostgreSQL (with DATABASE_URL), on a products list to which Email's repositories and migrations are added here.
 * Once adapters/modules/email.ts wires them (and an `email-simulator` product the simulators'), the store contract
 * (contract.test.ts) runs both files over every store by their names, and this file steps aside: delete it then.
 */
import { describe, layer } from "@effect/vitest"
import { Layer } from "effect"
import {
  EmailAccessRepoMemory,
  EmailMessagesRepoMemory,
  EmailSwitchRepoMemory,
  SenderDomainsRepoMemory,
} from "../../adapters/memory/email.ts"
import { SimulatedDnsRepoMemory, SimulatedEmailRepoMemory } from "../../adapters/memory/email-simulator.ts"
import type { AnyProduct } from "../../adapters/product.ts"
import { memoryStoreOf, products, type Store } from "../../adapters/products.ts"
import { PgliteStoreLive, PgStoreLive } from "../../adapters/sql/store.ts"
import {
  EmailAccessRepoSql,
  EmailMessagesRepoSql,
  EmailSwitchRepoSql,
  SenderDomainsRepoSql,
} from "../../adapters/sql/email.ts"
import { SimulatedDnsRepoSql, SimulatedEmailRepoSql } from "../../adapters/sql/email-simulator.ts"
import { migration as emailMigration } from "../../adapters/sql/migrations/email/0001_email.ts"
import { migration as simulatorMigration } from "../../adapters/sql/migrations/email-simulator/0001_email_simulator.ts"
import { freshSchema } from "./fixtures.ts"
import { emailContract } from "./contracts/email.ts"
import { emailSimulatorContract } from "./contracts/email-simulator.ts"

const databaseUrl = process.env.DATABASE_URL

const emailWired = products.some((p) => p.name === "email" && p.memory !== undefined)
const simulatorWired = products.some((p: AnyProduct) => p.name === "email-simulator")

const emailMemory = Layer.mergeAll(
  EmailAccessRepoMemory,
  EmailSwitchRepoMemory,
  SenderDomainsRepoMemory,
  EmailMessagesRepoMemory,
)
const simulatorMemory = Layer.merge(SimulatedDnsRepoMemory, SimulatedEmailRepoMemory)

const emailSql = Layer.mergeAll(EmailAccessRepoSql, EmailSwitchRepoSql, SenderDomainsRepoSql, EmailMessagesRepoSql)
const simulatorSql = Layer.merge(SimulatedDnsRepoSql, SimulatedEmailRepoSql)

const list: ReadonlyArray<AnyProduct> = [
  ...products.map((p) =>
    p.name === "email" ? { ...p, memory: emailMemory, sql: emailSql, migrations: [emailMigration] } as AnyProduct : p
  ),
  {
    name: "email-simulator",
    memory: simulatorMemory,
    sql: simulatorSql,
    migrations: [simulatorMigration],
  } as AnyProduct,
]

type Stores = Layer.Layer<
  Store | Layer.Layer.Success<typeof emailMemory> | Layer.Layer.Success<typeof simulatorMemory>
>

const suites = (name: string, store: Stores) =>
  layer(store, { excludeTestServices: true, timeout: "60 seconds" })(name, (it) => {
    if (!emailWired) describe("email", () => emailContract(it))
    if (!simulatorWired) describe("email-simulator", () => emailSimulatorContract(it))
  })

describe.skipIf(emailWired && simulatorWired)("Email's store contracts (until the module wires them)", () => {
  suites("memory store", memoryStoreOf(list) as unknown as Stores)
  suites("pglite (memory://)", PgliteStoreLive("memory://", list) as unknown as Stores)
  describe.runIf(databaseUrl !== undefined)("postgres (DATABASE_URL)", () => {
    suites(
      "postgres store, fresh schema",
      freshSchema(databaseUrl!, (url) => PgStoreLive(url, list)) as unknown as Stores,
    )
  })
})
