/** The store-platform simulator's stores in memory, wired only while the simulator is selected. */
import { Effect, Layer, Option } from "effect"
import { type SimulatedStore, SimulatedStoresRepo } from "../../ports/store/store-simulator.ts"
import { memoryTables, setIn } from "./db.ts"

export const storeSimulatorTables = () => ({
  /** By `platform\0ref`. */
  simStores: new Map<string, SimulatedStore>(),
})

const keyOf = (platform: string, ref: string) => `${platform}\u0000${ref}`

export const SimulatedStoresRepoMemory = Layer.effect(
  SimulatedStoresRepo,
  Effect.map(memoryTables(storeSimulatorTables), (db) => ({
    get: (platform, ref) => db.read((t) => Option.fromNullable(t.simStores.get(keyOf(platform, ref)))),
    put: (store) => db.write((t, record) => setIn(t.simStores, keyOf(store.platform, store.ref), store, record)),
  })),
)
