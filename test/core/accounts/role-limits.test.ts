/**
 * The one rule by which a read leaves role-limited facts out for an agent (DECISIONS 11, 18): every key ending
 * in `_halalas`, at any depth, and a buyer's name, address and VAT number; everything else kept, in its order.
 */
import { describe, expect, it } from "vitest"
import { withoutRoleLimited } from "../../../core/accounts/callers.ts"

describe("DECISIONS 18: an agent sees neither amounts (`*_halalas`) nor a buyer's name, address or VAT number", () => {
  it("removes every key ending in `_halalas` at any depth, in objects within arrays too", () => {
    expect(
      withoutRoleLimited({
        amount_halalas: 1,
        a: { total_halalas: 2, b: [{ vat_halalas: 3, keep: "x" }, 4, null] },
        halalas: 5,
        halalas_note: "kept: it does not end in _halalas",
      }),
    ).toEqual({ a: { b: [{ keep: "x" }, 4, null] }, halalas: 5, halalas_note: "kept: it does not end in _halalas" })
  })

  it("removes a buyer's name, address and vat_number at any depth; the buyer object and its other keys stay", () => {
    expect(
      withoutRoleLimited({
        input: {
          path: {},
          query: {},
          body: { buyer: { name: "Acme", vat_number: "300000000000003", address: "Riyadh", country: "SA" } },
        },
        name: "an application's name is not a buyer's",
      }),
    ).toEqual({
      input: { path: {}, query: {}, body: { buyer: { country: "SA" } } },
      name: "an application's name is not a buyer's",
    })
  })

  it("a `buyer` that is not an object is left out whole (null is kept: it names no one)", () => {
    expect(withoutRoleLimited({ buyer: "Acme", x: 1 })).toEqual({ x: 1 })
    expect(withoutRoleLimited({ buyer: ["Acme"] })).toEqual({})
    expect(withoutRoleLimited({ buyer: null })).toEqual({ buyer: null })
  })

  it("keeps the order of the other keys and leaves its argument unchanged", () => {
    const value = { z: 1, cost_halalas: 2, a: { y: 1, buyer: { name: "B" }, b: 2 } }
    const copy = structuredClone(value)
    const out = withoutRoleLimited(value) as Record<string, unknown>
    expect(Object.keys(out)).toEqual(["z", "a"])
    expect(Object.keys(out.a as object)).toEqual(["y", "buyer", "b"])
    expect(value).toEqual(copy)
  })

  it("scalars and null answer as they are", () => {
    for (const v of [null, 0, "text", true]) expect(withoutRoleLimited(v)).toBe(v)
  })
})
