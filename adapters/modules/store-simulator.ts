/**
 * The store-platform simulator's state and console route (DECISIONS 9.5): its own table or memory, wired only
 * while `STORE_PROVIDER` is `simulator`, so a production store holds none of it. The platforms it stands for are
 * chosen in adapters/modules/store-platforms.ts.
 */
import { StoreSimulator, storeSimulatorOperations } from "../../core/chat/store-simulator.ts"
import { SimulatedStoresRepoMemory } from "../memory/store-simulator.ts"
import { product } from "../product.ts"
import { migration as simStores } from "../sql/migrations/store-simulator/0001_sim_stores.ts"
import { SimulatedStoresRepoSql } from "../sql/store-simulator.ts"

export const storeSimulatorProduct = product({
  name: "store-simulator",
  selected: (settings) => (settings.storeProvider ?? "simulator") === "simulator",
  memory: SimulatedStoresRepoMemory,
  sql: SimulatedStoresRepoSql,
  migrations: [simStores],
  services: () => StoreSimulator.Default,
  operations: storeSimulatorOperations,
  tags: [{ name: "store-simulator", description: "The online-store platform simulator (DECISIONS 9.5)." }],
})
