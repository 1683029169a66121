/**
 * The Zid Merchant API (https://docs.zid.sa): the partner app's token as `Authorization: Bearer`, the merchant's
 * as `X-Manager-Token`, `Role: Manager`, and the store id (`ref`) as `Store-Id`.
 * - store: `GET /v1/managers/account/profile` → `{ user: { store: { title, url } } }`.
 * - products: `GET /v1/products/?page=n&page_size=50` → `{ count, next, results: [{ id, name (a string or
 *   { ar, en }), price, sale_price, is_published, is_infinite, quantity }] }`, every page while `next` is set.
 * The price a customer pays is `sale_price` when set, else `price` (SAR amounts, read as halalas); a product is
 * available when published and in stock (or with infinite stock). A 401, a 5xx or no answer: `StoreUnreachable`.
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import { type Duration, Effect, Option, Redacted, Schema } from "effect"
import {
  type PlatformProduct,
  type PlatformStore,
  type StoreAddress,
  StoreUnreachable,
  where,
} from "../../ports/store-platforms.ts"
import { getJson, halalasOfAmount, STORE_API_MAX_PAGES } from "./http.ts"

export const ZID_DEFAULT_API_URL = "https://api.zid.sa"
const pageSize = 50

const Profile = Schema.Struct({
  user: Schema.Struct({
    store: Schema.Struct({ title: Schema.String, url: Schema.optional(Schema.NullOr(Schema.String)) }),
  }),
})

const Amount = Schema.Union(Schema.Number, Schema.String)
const Localized = Schema.Union(
  Schema.String,
  Schema.Record({ key: Schema.String, value: Schema.NullOr(Schema.String) }),
)
const Product = Schema.Struct({
  id: Schema.Union(Schema.String, Schema.Number),
  name: Localized,
  price: Amount,
  sale_price: Schema.optional(Schema.NullOr(Amount)),
  is_published: Schema.optional(Schema.Boolean),
  is_infinite: Schema.optional(Schema.Boolean),
  quantity: Schema.optional(Schema.NullOr(Schema.Number)),
})
const Products = Schema.Struct({
  next: Schema.optional(Schema.NullOr(Schema.String)),
  results: Schema.Array(Product),
})

/** A name in Arabic when it has one, else in English, else any. */
const nameOf = (name: typeof Localized.Type): string =>
  typeof name === "string" ? name : name.ar || name.en || Object.values(name).find((v) => v) || ""

export const readZid = (
  client: HttpClient.HttpClient,
  baseUrl: string,
  authorization: Option.Option<Redacted.Redacted<string>>,
  timeout: Duration.DurationInput,
) =>
(store: StoreAddress): Effect.Effect<PlatformStore, StoreUnreachable> =>
  Effect.gen(function* () {
    if (Option.isNone(authorization)) {
      return yield* new StoreUnreachable({ ...where(store), message: "ZID_AUTHORIZATION is not set." })
    }
    if (store.token === null) {
      return yield* new StoreUnreachable({ ...where(store), message: "No Zid manager token is held for the store." })
    }
    const base = baseUrl.replace(/\/+$/, "")
    const headers = {
      authorization: `Bearer ${Redacted.value(authorization.value)}`,
      "x-manager-token": Redacted.value(store.token),
      role: "Manager",
      "store-id": store.ref,
      "accept-language": "ar",
    }
    const profile = yield* getJson(client, store, `${base}/v1/managers/account/profile`, headers, Profile, timeout)
    const products: Array<PlatformProduct> = []
    for (let page = 1; page <= STORE_API_MAX_PAGES; page++) {
      const url = `${base}/v1/products/?page=${page}&page_size=${pageSize}`
      const body = yield* getJson(client, store, url, headers, Products, timeout)
      for (const p of body.results) {
        const price = halalasOfAmount(p.sale_price ?? p.price)
        if (Option.isNone(price)) {
          return yield* new StoreUnreachable({
            ...where(store),
            message: `Zid answered product ${p.id} with a price that is not an amount`,
          })
        }
        const inStock = p.is_infinite === true || p.quantity === null || p.quantity === undefined || p.quantity > 0
        products.push({
          id: String(p.id),
          name: nameOf(p.name),
          priceHalalas: price.value,
          available: p.is_published !== false && inStock,
        })
      }
      if (body.results.length === 0 || !body.next) break
    }
    return { name: profile.user.store.title, url: profile.user.store.url ?? null, products }
  })
