/**
 * The Salla Admin API v2 (https://docs.salla.dev): the merchant's OAuth 2 access token as a bearer.
 * - store: `GET /admin/v2/store/info` → `{ data: { name, domain } }`.
 * - products: `GET /admin/v2/products?page=n&per_page=50` → `{ data: [{ id, name, price: { amount, currency },
 *   status, is_available }], pagination: { currentPage, totalPages } }`, every page.
 * A product is available when Salla says `is_available`, or, without it, when its `status` is `sale`; prices are
 * SAR amounts, read as halalas. A 401 (a token expired or revoked), a 5xx or no answer: `StoreUnreachable`.
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

export const SALLA_DEFAULT_API_URL = "https://api.salla.dev"
const perPage = 50

const StoreInfo = Schema.Struct({
  data: Schema.Struct({ name: Schema.String, domain: Schema.optional(Schema.NullOr(Schema.String)) }),
})

const Amount = Schema.Union(Schema.Number, Schema.String)
const Product = Schema.Struct({
  id: Schema.Union(Schema.Number, Schema.String),
  name: Schema.String,
  price: Schema.Union(Amount, Schema.Struct({ amount: Amount, currency: Schema.optional(Schema.String) })),
  status: Schema.optional(Schema.String),
  is_available: Schema.optional(Schema.Boolean),
})
const Products = Schema.Struct({
  data: Schema.Array(Product),
  pagination: Schema.optional(Schema.Struct({
    currentPage: Schema.optional(Schema.Number),
    totalPages: Schema.optional(Schema.Number),
  })),
})

/** Reads one Salla store (`ref`: the merchant's store id, for the log; the token names the store). */
export const readSalla = (
  client: HttpClient.HttpClient,
  baseUrl: string,
  timeout: Duration.DurationInput,
) =>
(store: StoreAddress): Effect.Effect<PlatformStore, StoreUnreachable> =>
  Effect.gen(function* () {
    if (store.token === null) {
      return yield* new StoreUnreachable({ ...where(store), message: "No Salla access token is held for the store." })
    }
    const base = baseUrl.replace(/\/+$/, "")
    const headers = { authorization: `Bearer ${Redacted.value(store.token)}` }
    const info = yield* getJson(client, store, `${base}/admin/v2/store/info`, headers, StoreInfo, timeout)
    const products: Array<PlatformProduct> = []
    for (let page = 1; page <= STORE_API_MAX_PAGES; page++) {
      const url = `${base}/admin/v2/products?page=${page}&per_page=${perPage}`
      const body = yield* getJson(client, store, url, headers, Products, timeout)
      for (const p of body.data) {
        const amount = typeof p.price === "object" ? p.price.amount : p.price
        const price = halalasOfAmount(amount)
        if (Option.isNone(price)) {
          return yield* new StoreUnreachable({
            ...where(store),
            message: `Salla answered product ${p.id} with a price that is not an amount`,
          })
        }
        products.push({
          id: String(p.id),
          name: p.name,
          priceHalalas: price.value,
          available: p.is_available ?? p.status === "sale",
        })
      }
      const totalPages = body.pagination?.totalPages ?? 1
      if (body.data.length === 0 || page >= totalPages) break
    }
    return { name: info.data.name, url: info.data.domain ?? null, products }
  })
