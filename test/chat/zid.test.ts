/**
 * The Zid Merchant API adapter (adapters/stores/zid.ts) against a local stand-in speaking Zid's shapes: the
 * partner's `Authorization` bearer with the merchant's `X-Manager-Token`, `Role: Manager` and `Store-Id`;
 * `GET /v1/managers/account/profile`; `GET /v1/products/` while `next` is set; prices as SAR amounts read as
 * halalas (the sale price when set); a 401 or a 5xx is unreachable.
 */
import { Option } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { type Answer, readThrough, type Seen, type StandIn, standIn } from "./store-standin.ts"

const managerToken = "zid-manager-token"
const storeId = "84213"

const product = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  name: { ar: `منتج ${id}`, en: `Product ${id}` },
  price: 100.0,
  sale_price: null,
  is_published: true,
  is_infinite: false,
  quantity: 4,
  currency: "SAR",
  ...over,
})

const pages = [
  [product("a"), product("b", { sale_price: 79.5, quantity: 0 }), product("c", { is_published: false })],
  [product("d", { name: "Plain name", price: "12.25", is_infinite: true, quantity: null })],
]

const zid = (over: (seen: Seen) => Answer | undefined = () => undefined) => (seen: Seen): Answer => {
  const given = over(seen)
  if (given !== undefined) return given
  if (seen.headers.authorization !== "Bearer partner-token" || seen.headers["x-manager-token"] !== managerToken) {
    return { status: 401, body: { status: "error", message: { type: "error", code: 401 } } }
  }
  if (seen.url.pathname === "/v1/managers/account/profile") {
    return {
      status: 200,
      body: { user: { id: 7, name: "Owner", store: { id: 84213, title: "متجر زد", url: "https://dates.zid.store" } } },
    }
  }
  if (seen.url.pathname === "/v1/products/") {
    const page = Number(seen.url.searchParams.get("page") ?? "1")
    const next = page < pages.length ? `http://api.zid.sa/v1/products/?page=${page + 1}&page_size=50` : null
    return { status: 200, body: { count: 4, next, previous: null, results: pages[page - 1] ?? [] } }
  }
  return { status: 404, body: {} }
}

let server: StandIn | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe("Zid: the store's title and url, every page of products", () => {
  it("sends the partner token, the manager token, Role and Store-Id; reads each page while next is set", async () => {
    server = await standIn(zid())
    const read = await readThrough(server.url, { platform: "zid", ref: storeId, token: managerToken })
    expect(read).toEqual({
      ok: {
        name: "متجر زد",
        url: "https://dates.zid.store",
        products: [
          { id: "a", name: "منتج a", priceHalalas: 10_000, available: true },
          { id: "b", name: "منتج b", priceHalalas: 7_950, available: false },
          { id: "c", name: "منتج c", priceHalalas: 10_000, available: false },
          { id: "d", name: "Plain name", priceHalalas: 1_225, available: true },
        ],
      },
    })
    expect(server.seen.map((s) => s.url.pathname + s.url.search)).toEqual([
      "/v1/managers/account/profile",
      "/v1/products/?page=1&page_size=50",
      "/v1/products/?page=2&page_size=50",
    ])
    for (const s of server.seen) {
      expect([s.headers.role, s.headers["store-id"], s.headers["x-manager-token"]]).toEqual([
        "Manager",
        storeId,
        managerToken,
      ])
    }
  })
})

describe("Zid: a 401, a 5xx, no answer or a missing partner token is unreachable, naming no token", () => {
  const cases: ReadonlyArray<[string, (seen: Seen) => Answer | undefined, RegExp]> = [
    ["a revoked manager token (401)", () => ({ status: 401, body: {} }), /HTTP 401/],
    [
      "a 5xx on the second page",
      (s) => (s.url.searchParams.get("page") === "2" ? { status: 502 } : undefined),
      /HTTP 502/,
    ],
    [
      "no answer",
      (s) => (s.url.pathname === "/v1/managers/account/profile" ? { status: 200, hang: true } : undefined),
      /no answer/,
    ],
  ]
  for (const [name, over, message] of cases) {
    it(name, async () => {
      server = await standIn(zid(over))
      const read = await readThrough(server.url, { platform: "zid", ref: storeId, token: managerToken })
      expect("error" in read && read.error.message).toMatch(message)
      expect(JSON.stringify("error" in read ? read.error : {})).not.toContain(managerToken)
    })
  }

  it("ZID_AUTHORIZATION unset: unreachable without a call", async () => {
    server = await standIn(zid())
    const read = await readThrough(server.url, { platform: "zid", ref: storeId, token: managerToken }, {
      zidAuthorization: Option.none(),
    })
    expect("error" in read && read.error.message).toMatch(/ZID_AUTHORIZATION/)
    expect(server.seen).toEqual([])
  })
})
