/**
 * The store reads' pure parts, as properties: prices given as SAR amounts read as halalas (the platforms' money),
 * and the due time a read stands for ("as if it had run at each due time crossed", DECISIONS 16).
 */
import fc from "fast-check"
import { Option } from "effect"
import { describe, expect, it } from "vitest"
import { halalasOfAmount } from "../../adapters/stores/http.ts"
import { lastDueTime } from "../../core/chat/stores.ts"
import { Stores } from "../../core/limits.ts"

const halalas = fc.integer({ min: 0, max: 10 ** 12 })

describe("a price in SAR is read as halalas", () => {
  it("an amount with two decimals, as text or as a number, is its halalas exactly", () => {
    fc.assert(fc.property(halalas, (h) => {
      const text = `${Math.floor(h / 100)}.${String(h % 100).padStart(2, "0")}`
      expect(Option.getOrNull(halalasOfAmount(text))).toBe(h)
      expect(Option.getOrNull(halalasOfAmount(Number(text)))).toBe(h)
    }))
  })

  it("a third decimal rounds half up; anything but a non-negative decimal amount is none", () => {
    fc.assert(fc.property(halalas, fc.integer({ min: 0, max: 9 }), (h, third) => {
      const text = `${Math.floor(h / 100)}.${String(h % 100).padStart(2, "0")}${third}`
      expect(Option.getOrNull(halalasOfAmount(text))).toBe(h + (third >= 5 ? 1 : 0))
    }))
    fc.assert(fc.property(fc.string(), (s) => {
      fc.pre(!/^\s*\d+(\.\d+)?\s*$/.test(s))
      expect(Option.isNone(halalasOfAmount(s))).toBe(true)
    }))
  })
})

describe("a read stands for the last due time crossed", () => {
  it("at or before now, a whole number of 6-hour periods after the first due time, less than one period ago", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 45 }), fc.integer({ min: 0, max: 2 ** 40 }), (due, late) => {
      const at = lastDueTime(due, due + late)
      expect(at).toBeLessThanOrEqual(due + late)
      expect((at - due) % Stores.readEveryMs).toBe(0)
      expect(due + late - at).toBeLessThan(Stores.readEveryMs)
    }))
  })
})
