/**
 * The simulated store platforms (DECISIONS 9.5): a store reads as the console last put it
 * (`PUT /simulator/stores/{platform}/{ref}`); one never put, or put with `reachable: false`, is unreachable.
 */
import { Effect, Layer, Option } from "effect"
import { StorePlatforms, StoreUnreachable, where } from "../../ports/store-platforms.ts"
import { SimulatedStoresRepo } from "../../ports/store/store-simulator.ts"

export const StorePlatformsSimulator = Layer.effect(
  StorePlatforms,
  Effect.map(SimulatedStoresRepo, (repo) => ({
    read: (store) =>
      Effect.flatMap(repo.get(store.platform, store.ref), (found) => {
        if (Option.isNone(found)) {
          return new StoreUnreachable({
            ...where(store),
            message: `No simulated ${store.platform} store ${store.ref}.`,
          })
        }
        if (!found.value.reachable) {
          return new StoreUnreachable({
            ...where(store),
            message: `The simulated ${store.platform} store is unreachable.`,
          })
        }
        const { name, url, products } = found.value
        return Effect.succeed({ name, url, products })
      }),
  })),
)
