/** The one error catalogue, folded over the products list from each product's `core/<product>/errors.ts`. */
import { describe, expect, it } from "vitest"
import { errorsOf, errorStatuses, products } from "../../adapters/products.ts"
import { product } from "../../adapters/product.ts"
import { ApiErrorClass } from "../../core/shared/api-error.ts"
import { Schema } from "effect"

const ApiErrorDetail = Schema.String
import {
  errorBody,
  errorHeaders,
  InsufficientCredits,
  InsufficientScope,
  isApiError,
  MethodNotAllowed,
  TooManyRequests,
} from "../../core/errors.ts"

const catalogue = errorsOf()
const HttpStatus = errorStatuses()

describe("one catalogue: each code once, its HTTP status written beside its class", () => {
  it("every code appears once, with a 4xx or 5xx status, and the status map is the classes' own", () => {
    const tags = catalogue.map((c) => c._tag)
    expect(new Set(tags).size).toBe(tags.length)
    for (const c of catalogue) {
      expect(HttpStatus[c._tag as keyof typeof HttpStatus]).toBe(c.status)
      expect(c.status >= 400 && c.status <= 599, c._tag).toBe(true)
    }
    expect(Object.keys(HttpStatus).sort()).toEqual([...tags].sort())
  })

  it("the spec's codes and statuses (a sample from every table) are there", () => {
    expect(HttpStatus).toMatchObject({
      too_many_requests: 429,
      insufficient_scope: 403,
      service_required: 400,
      invalid_destination: 422,
      insufficient_credits: 402,
      send_failed: 502,
      templates_unavailable: 503,
      attendant_not_ready: 422,
      approval_required: 428,
      email_locked: 409,
      product_retired: 410,
      method_not_allowed: 405,
      headers_too_large: 431,
    })
  })

  it("fields sent as headers never appear in the body; the others do", () => {
    const limited = new TooManyRequests({ retry_after_seconds: 7 })
    expect(errorBody(limited)).toEqual({ error: "too_many_requests" })
    expect(errorHeaders(limited)).toEqual({ "retry-after": "7" })
    const scope = new InsufficientScope({ scope: "verify:send" })
    expect(errorBody(scope)).toEqual({ error: "insufficient_scope" })
    expect(errorHeaders(scope)).toEqual({ "www-authenticate": "Bearer error=insufficient_scope, scope=verify:send" })
    const method = new MethodNotAllowed({ message: "no", allow: "GET, HEAD, OPTIONS" })
    expect(errorBody(method)).toEqual({ error: "method_not_allowed", message: "no" })
    expect(errorHeaders(method)).toEqual({ allow: "GET, HEAD, OPTIONS" })
    const credits = new InsufficientCredits({ message: "m", balance_halalas: 3, price_halalas: 9 })
    expect(errorBody(credits)).toEqual({
      error: "insufficient_credits",
      message: "m",
      balance_halalas: 3,
      price_halalas: 9,
    })
    expect(errorHeaders(credits)).toBeUndefined()
  })

  it("two products declaring one code are refused when the list is folded, naming both", () => {
    const again = product({ name: "again", errors: [TooManyRequests] })
    expect(() => errorsOf([...products, again])).toThrow(
      "The error code too_many_requests is declared by both platform and again.",
    )
  })

  it("a product's own code renders from its class, with no index to edit", () => {
    class Mine extends ApiErrorClass<Mine>()("mine_refused", { detail: ApiErrorDetail }, { status: 409 }) {}
    const e = new Mine({ detail: "d" })
    expect(isApiError(e)).toBe(true)
    expect(errorBody(e)).toEqual({ error: "mine_refused", detail: "d" })
  })

  it("isApiError knows the catalogue's codes and nothing else", () => {
    expect(isApiError(new TooManyRequests({ retry_after_seconds: 1 }))).toBe(true)
    expect(isApiError({ _tag: "not_a_code" })).toBe(false)
    expect(isApiError(new Error("x"))).toBe(false)
  })
})
