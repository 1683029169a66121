/**
 * The store-platform simulator's console route (DECISIONS 9.5): `PUT /simulator/stores/{platform}/{ref}` puts a
 * simulated store, read as the platform's from then on; `reachable: false` makes every read of it fail.
 */
import { Effect, Schema } from "effect"
import { SimulatedStoresRepo } from "../../ports/store/store-simulator.ts"
import { consoleCaller, consoleDone } from "../console/operations.ts"
import { InvalidRequest, NotFound } from "../errors.ts"
import { type AnyOperation, operation, type Parameter } from "../pipeline/operation.ts"
import { halalas } from "../shared/brands.ts"
import { check, consoleBody, NonBlank, Text } from "../shared/fields.ts"
import { untracedStacks } from "../shared/tracing.ts"
import type { StorePlatformCode } from "../../ports/store-platforms.ts"
import { Platform, platformParameter, ProductOutput, StoreRef } from "./store-fields.ts"

const refParameter: Parameter = {
  name: "ref",
  in: "path",
  description: "The store's id on its platform",
  schema: StoreRef,
  required: true,
}

const SimulatedProduct = Schema.Struct({
  id: NonBlank(Text(200)),
  name: NonBlank(Text(500)),
  price_halalas: Schema.Int.pipe(check((n: number) => n >= 0, "a non-negative integer of halalas")),
  available: Schema.optional(Schema.Boolean),
})

const PutBody = consoleBody({
  name: NonBlank(Text(200)),
  url: Schema.optional(Text(2048)),
  products: Schema.Array(SimulatedProduct),
  reachable: Schema.optional(Schema.Boolean),
})

const SimulatedStoreOutput = Schema.Struct({
  platform: Platform,
  ref: Schema.String,
  name: Schema.String,
  url: Schema.NullOr(Schema.String),
  products: Schema.Array(ProductOutput),
  reachable: Schema.Boolean,
}).annotations({ identifier: "SimulatedStore" })

export class StoreSimulator extends Effect.Service<StoreSimulator>()("core/StoreSimulator", {
  effect: Effect.gen(function* () {
    const repo = yield* SimulatedStoresRepo
    const put = Effect.fn("StoreSimulator.put", untracedStacks)(
      function* (platform: StorePlatformCode, ref: string, body: typeof PutBody.Type) {
        const store = {
          platform,
          ref,
          name: body.name,
          url: body.url ?? null,
          products: body.products.map((p) => ({
            id: p.id,
            name: p.name,
            priceHalalas: halalas(p.price_halalas),
            available: p.available ?? true,
          })),
          reachable: body.reachable ?? true,
        }
        yield* repo.put(store)
        return {
          ...store,
          products: store.products.map((p) => ({
            id: p.id,
            name: p.name,
            price_halalas: p.priceHalalas,
            available: p.available,
          })),
        }
      },
    )
    return { put } as const
  }),
}) {}

export const storeSimulatorOperations = [
  operation({
    name: "console.simulator.stores.put",
    summary: "Puts a simulated online store: its name, address and products as its platform answers them " +
      "(`reachable: false`: every read of it fails).",
    method: "PUT",
    path: "/console/v1/simulator/stores/{platform}/{ref}",
    caller: consoleCaller,
    answer: consoleDone,
    parameters: [platformParameter, refParameter],
    body: PutBody,
    output: SimulatedStoreOutput,
    errors: [NotFound, InvalidRequest],
    idempotent: false,
    service: StoreSimulator,
    run: (s, _, input) => s.put(input.params.platform as StorePlatformCode, input.params.ref, input.body),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
