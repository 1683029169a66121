/**
 * The Salla Admin API v2 adapter (adapters/stores/salla.ts) against a local stand-in speaking Salla's shapes:
 * the merchant's OAuth 2 access token as a bearer, `GET /admin/v2/store/info`, `GET /admin/v2/products` page by
 * page (`pagination.totalPages`), prices as SAR amounts read as halalas; a 401 or a 5xx is unreachable.
 */
import { afterEach, describe, expect, it } from "vitest"
import { halalasOfAmount } from "../../adapters/stores/http.ts"
import { Effect, Option } from "effect"
import { ChatStoresRepo } from "../../ports/store/chat-stores.ts"
import { setupApplication, startServer } from "../support/server.ts"
import { type Answer, readThrough, type Seen, type StandIn, standIn } from "./store-standin.ts"

const token = "salla-access-token"

const product = (id: number, amount: number | string, status = "sale", extra: Record<string, unknown> = {}) => ({
  id,
  name: `منتج ${id}`,
  price: { amount, currency: "SAR" },
  status,
  ...extra,
})

const pages = [
  [product(1, 115), product(2, "9.50", "out"), product(3, 0.99)],
  [product(4, 200, "sale", { is_available: false })],
]

/** Salla as documented: 401 without the bearer; the store; the products in pages of `pages`. */
const salla = (over: (seen: Seen) => Answer | undefined = () => undefined) => (seen: Seen): Answer => {
  const given = over(seen)
  if (given !== undefined) return given
  if (seen.headers.authorization !== `Bearer ${token}`) {
    return { status: 401, body: { status: 401, success: false, error: { code: "Unauthorized", message: "token" } } }
  }
  if (seen.url.pathname === "/admin/v2/store/info") {
    return {
      status: 200,
      body: {
        status: 200,
        success: true,
        data: { id: 1305146709, name: "متجر التمور", domain: "https://salla.sa/dates" },
      },
    }
  }
  if (seen.url.pathname === "/admin/v2/products") {
    const page = Number(seen.url.searchParams.get("page") ?? "1")
    return {
      status: 200,
      body: {
        status: 200,
        success: true,
        data: pages[page - 1] ?? [],
        pagination: {
          count: (pages[page - 1] ?? []).length,
          total: 4,
          perPage: 3,
          currentPage: page,
          totalPages: pages.length,
        },
      },
    }
  }
  return { status: 404, body: { status: 404, success: false } }
}

let server: StandIn | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe("Salla: the store's name and url, every page of products", () => {
  it("reads store/info and each products page with the bearer token; money as halalas; available by Salla", async () => {
    server = await standIn(salla())
    const read = await readThrough(server.url, { platform: "salla", ref: "1305146709", token })
    expect(read).toEqual({
      ok: {
        name: "متجر التمور",
        url: "https://salla.sa/dates",
        products: [
          { id: "1", name: "منتج 1", priceHalalas: 11_500, available: true },
          { id: "2", name: "منتج 2", priceHalalas: 950, available: false },
          { id: "3", name: "منتج 3", priceHalalas: 99, available: true },
          { id: "4", name: "منتج 4", priceHalalas: 20_000, available: false },
        ],
      },
    })
    expect(server.seen.map((s) => s.url.pathname + s.url.search)).toEqual([
      "/admin/v2/store/info",
      "/admin/v2/products?page=1&per_page=50",
      "/admin/v2/products?page=2&per_page=50",
    ])
    expect(server.seen.every((s) => s.headers.authorization === `Bearer ${token}`)).toBe(true)
  })
})

describe("Salla: a 401, a 5xx, no answer or an unreadable body is unreachable, naming no token", () => {
  const cases: ReadonlyArray<[string, (seen: Seen) => Answer | undefined, RegExp]> = [
    ["a revoked token (401)", () => ({ status: 401, body: { success: false } }), /HTTP 401/],
    [
      "a 5xx on the second page",
      (s) => (s.url.searchParams.get("page") === "2" ? { status: 503 } : undefined),
      /HTTP 503/,
    ],
    [
      "no answer",
      (s) => (s.url.pathname === "/admin/v2/products" ? { status: 200, hang: true } : undefined),
      /no answer/,
    ],
    [
      "a price that is no amount",
      (s) =>
        s.url.pathname === "/admin/v2/products"
          ? { status: 200, body: { data: [product(9, "free")], pagination: { currentPage: 1, totalPages: 1 } } }
          : undefined,
      /not an amount/,
    ],
    [
      "a body of another shape",
      (s) => (s.url.pathname === "/admin/v2/store/info" ? { status: 200, body: { data: [] } } : undefined),
      /unexpected shape/,
    ],
  ]
  for (const [name, over, message] of cases) {
    it(name, async () => {
      server = await standIn(salla(over))
      const read = await readThrough(server.url, { platform: "salla", ref: "1305146709", token })
      expect("error" in read && read.error._tag).toBe("StoreUnreachable")
      if (!("error" in read)) return
      expect(read.error.message).toMatch(message)
      expect(JSON.stringify(read.error)).not.toContain(token)
    })
  }

  it("no token held: unreachable without a call", async () => {
    server = await standIn(salla())
    const read = await readThrough(server.url, { platform: "salla", ref: "1", token: null })
    expect("error" in read && read.error.message).toMatch(/No Salla access token/)
    expect(server.seen).toEqual([])
  })
})

describe("amounts as halalas", () => {
  it("whole, one and two decimals, strings and numbers; a third decimal rounds half up; others are none", () => {
    expect([115, "115", 9.5, "9.50", 0.99, "0.01", "9.995", 0].map((a) => Option.getOrNull(halalasOfAmount(a))))
      .toEqual([11_500, 11_500, 950, 950, 99, 1, 1_000, 0])
    expect([-1, "1e3", "", null, "free", Number.NaN].map((a) => Option.isNone(halalasOfAmount(a)))).toEqual(
      [true, true, true, true, true, true],
    )
  })
})

describe("STORE_PROVIDER=live: a Salla store connected in the console with the merchant's token", () => {
  it("is read with the token at connection and 6 hours later; the token is kept sealed and never answered", async () => {
    server = await standIn(salla())
    const previous = process.env.SALLA_API_URL
    process.env.SALLA_API_URL = server.url
    const s = await startServer({ storeProvider: "live" })
    try {
      const { app, account } = await setupApplication(s)
      const res = await s.call("POST", `/console/v1/applications/${app.id}/stores`, {
        key: s.consoleToken,
        body: { platform: "salla", ref: "1305146709", token },
      })
      expect(res.status).toBe(201)
      expect(res.body.data).toEqual({
        id: expect.any(String),
        platform: "salla",
        ref: "1305146709",
        name: "متجر التمور",
      })
      const held = await s.platform.runtime.runPromise(
        Effect.flatMap(ChatStoresRepo, (r) => r.get(res.body.data.id)),
      )
      const sealed = Option.getOrThrow(held).tokenSealed
      expect(sealed).not.toBeNull()
      expect(sealed).not.toContain(token)
      const owner = (await s.console("POST", `/accounts/${account.id}/account-tokens`, {})).token
      const shown = await s.call("GET", `/v1/applications/${app.id}/assistant/store`, { key: owner })
      expect(shown.body.data.products_total).toBe(4)
      const listed = await s.call("GET", "/v1/stores", { key: owner })
      expect(JSON.stringify([res.body, shown.body, listed.body])).not.toContain(token)
      const calls = server.seen.length
      await s.console("POST", "/simulator/clock", { advance_ms: 6 * 3_600_000 })
      expect(server.seen.length).toBe(calls * 2)
      expect(server.seen.every((x) => x.headers.authorization === `Bearer ${token}`)).toBe(true)
    } finally {
      await s.close()
      if (previous === undefined) delete process.env.SALLA_API_URL
      else process.env.SALLA_API_URL = previous
    }
  })
})
