/** The store-platform simulator's store contract: a store put, replaced, read by platform and reference. */
import { assert } from "@effect/vitest"
import { Effect, Option } from "effect"
import { halalas } from "../../../core/shared/brands.ts"
import { SimulatedStoresRepo } from "../../../ports/store/store-simulator.ts"
import { type It, uuid } from "../fixtures.ts"

export const contract = (it: It) => {
  it.effect("simulated stores: put, replaced, by platform and reference", () =>
    Effect.gen(function* () {
      const repo = yield* SimulatedStoresRepo
      const ref = uuid()
      const store = {
        platform: "salla" as const,
        ref,
        name: "متجر",
        url: null,
        products: [{ id: "1", name: "تمر", priceHalalas: halalas(1_500), available: true }],
        reachable: true,
      }
      assert.isTrue(Option.isNone(yield* repo.get("salla", ref)))
      yield* repo.put(store)
      assert.deepStrictEqual(yield* repo.get("salla", ref), Option.some(store))
      assert.isTrue(Option.isNone(yield* repo.get("zid", ref)))
      const down = { ...store, url: "https://shop.sa", products: [], reachable: false }
      yield* repo.put(down)
      assert.deepStrictEqual(yield* repo.get("salla", ref), Option.some(down))
    }))
}
