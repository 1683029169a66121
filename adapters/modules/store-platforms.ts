/**
 * The online-store platforms (ports/store-platforms.ts), chosen by `STORE_PROVIDER`: the simulator (DECISIONS 9.5)
 * or the live Salla and Zid APIs. Chat, whose store assistant reads them, comes after it in the list.
 */
import { Layer } from "effect"
import { StorePlatforms } from "../../ports/store-platforms.ts"
import type { SimulatedStoresRepo } from "../../ports/store/store-simulator.ts"
import { product } from "../product.ts"
import { StorePlatformsLive } from "../stores/live.ts"
import { StorePlatformsSimulator } from "../stores/simulator.ts"

/** The store platforms by the `STORE_PROVIDER` value that selects each. */
export const storePlatforms = {
  simulator: StorePlatformsSimulator,
  // A malformed setting stops the start, naming it.
  live: Layer.orDie(StorePlatformsLive),
} as const

export const storePlatformsProduct = product({
  name: "store-platforms",
  services: (settings) => {
    const chosen = (storePlatforms as Record<
      string,
      Layer.Layer<StorePlatforms, never, SimulatedStoresRepo> | undefined
    >)[settings.storeProvider ?? "simulator"]
    return chosen ?? Layer.die(
      new Error(
        `STORE_PROVIDER=${(settings.storeProvider ?? "simulator")} names no store platforms; known: ${
          Object.keys(storePlatforms).join(", ")
        }`,
      ),
    )
  },
})
