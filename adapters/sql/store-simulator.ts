/** The store-platform simulator's stores over SQL (migrations/store-simulator), only while it is selected. */
import { Effect, Layer } from "effect"
import type { PlatformProduct, StorePlatformCode } from "../../ports/store-platforms.ts"
import { SimulatedStoresRepo } from "../../ports/store/store-simulator.ts"
import { client, first, type Row } from "./rows.ts"

const toStore = (row: Row) => ({
  platform: row.platform as StorePlatformCode,
  ref: row.ref as string,
  name: row.name as string,
  url: (row.url ?? null) as string | null,
  products: JSON.parse(row.products as string) as ReadonlyArray<PlatformProduct>,
  reachable: row.reachable === true,
})

export const SimulatedStoresRepoSql = Layer.effect(
  SimulatedStoresRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      get: (platform, ref) =>
        sql`SELECT platform, ref, name, url, products, reachable FROM sim_stores
          WHERE platform = ${platform} AND ref = ${ref}`.pipe(
          Effect.map((rows) => first(rows, toStore)),
          Effect.orDie,
        ),
      put: (s) =>
        sql`INSERT INTO sim_stores (platform, ref, name, url, products, reachable)
          VALUES (${s.platform}, ${s.ref}, ${s.name}, ${s.url}, ${JSON.stringify(s.products)}, ${s.reachable})
          ON CONFLICT (platform, ref) DO UPDATE SET name = EXCLUDED.name, url = EXCLUDED.url,
            products = EXCLUDED.products, reachable = EXCLUDED.reachable`.pipe(Effect.asVoid, Effect.orDie),
    }
  }),
)
