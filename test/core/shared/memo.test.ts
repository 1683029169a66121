/** core/shared/memo.ts: the bounded map Verify's settings hint lives in, and the memo the credential's hash is remembered in. */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "effect/FastCheck"
import { twoGenerationMemo, twoGenerations } from "../../../core/shared/memo.ts"

const counting = (capacity: number) => {
  const computed: Array<string> = []
  const memo = twoGenerationMemo(capacity, (key) => {
    computed.push(key)
    return `hash:${key}`
  })
  return { memo, computed }
}

describe("a memo answers what the function answers, and holds at most two generations", () => {
  it("for any sequence of keys: every answer is the function's, and it never holds more than 2 × capacity", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 300 }), (
        capacity,
        keys,
      ) => {
        const { memo } = counting(capacity)
        for (const k of keys) {
          expect(memo.get(`k${k}`)).toBe(`hash:k${k}`)
          expect(memo.size()).toBeLessThanOrEqual(2 * capacity)
        }
      }),
    )
  })

  it("keys within the capacity are computed once each, however often asked", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 500 }), (keys) => {
        const { memo, computed } = counting(10)
        for (const k of keys) memo.get(`k${k}`)
        expect(computed.length).toBe(new Set(keys).size)
      }),
    )
  })
})

describe("a working set larger than the capacity still mostly hits", () => {
  it("12 keys asked in turn over a capacity of 10: after the first round, most calls are remembered", () => {
    const { memo, computed } = counting(10)
    const rounds = 50
    for (let r = 0; r < rounds; r++) for (let k = 0; k < 12; k++) memo.get(`k${k}`)
    // One map cleared when full would compute on every call of every round after the first (600 in all).
    expect(computed.length).toBeLessThan(12 + (rounds - 1) * 12 * 0.5)
  })

  it("a key asked again after the whole of two generations went by is computed again (the memo forgets)", () => {
    const { memo, computed } = counting(3)
    memo.get("first")
    for (let k = 0; k < 6; k++) memo.get(`k${k}`)
    computed.length = 0
    memo.get("first")
    expect(computed).toEqual(["first"])
  })
})

describe("a two-generation map answers the value last set for a key, or nothing once it forgot it", () => {
  it("for any sequence of sets and gets: a get answers the last value set for its key or undefined, and it never holds more than 2 × capacity", () => {
    const op = fc.record({ set: fc.boolean(), key: fc.integer({ min: 0, max: 20 }), value: fc.integer() })
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(op, { maxLength: 300 }), (capacity, ops) => {
        const held = twoGenerations<number>(capacity)
        const last = new Map<string, number>()
        for (const { key, set, value } of ops) {
          if (set) {
            held.set(`k${key}`, value)
            last.set(`k${key}`, value)
          } else {
            const got = held.get(`k${key}`)
            if (got !== undefined) expect(got).toBe(last.get(`k${key}`))
          }
          expect(held.size()).toBeLessThanOrEqual(2 * capacity)
        }
      }),
    )
  })

  it("a key set within the capacity is still held after any number of gets and sets of it", () => {
    const held = twoGenerations<string>(4)
    held.set("a", "1")
    for (let i = 0; i < 100; i++) held.set("a", `${i}`)
    expect(held.get("a")).toBe("99")
    expect(held.size()).toBe(1)
  })
})
