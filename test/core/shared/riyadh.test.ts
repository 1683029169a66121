import { describe, expect, it } from "@effect/vitest"
import * as fc from "effect/FastCheck"
import { readFileSync } from "node:fs"
import { isoMillis, riyadhDay, riyadhDayStart, riyadhMonth, riyadhMonthStart } from "../../../core/shared/riyadh.ts"

const DAY = 86_400_000
const HOUR = 3_600_000
/** Integer epoch ms from 0001-01-01 to 9999-12-30 UTC, where `Date#toISOString` has four-digit years. */
const ms = fc.integer({ min: new Date("0001-01-01T00:00:00Z").getTime(), max: Date.UTC(9999, 11, 30) })
const near2026 = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2035, 0, 1) })
const anyMs = fc.oneof(ms, near2026)

const utcDate = (t: number) => new Date(t).toISOString().slice(0, 10)

describe("a Riyadh day is the UTC date of ms + 3h (UTC+03:00 all year)", () => {
  it.prop("riyadhDay(ms) is the UTC date of ms + 3h", [anyMs], ([t]) => {
    expect(riyadhDay(t)).toBe(utcDate(t + 3 * HOUR))
  })

  it.prop("riyadhMonth(ms) is the UTC year-month of ms + 3h", [anyMs], ([t]) => {
    expect(riyadhMonth(t)).toBe(utcDate(t + 3 * HOUR).slice(0, 7))
  })
})

describe("a Riyadh day runs from 21:00 UTC to 21:00 UTC", () => {
  it.prop("riyadhDayStart(ms) <= ms < riyadhDayStart(ms) + 86400000", [anyMs], ([t]) => {
    const start = riyadhDayStart(t)
    expect(start).toBeLessThanOrEqual(t)
    expect(t).toBeLessThan(start + DAY)
  })

  it.prop("the day starts at 21:00:00.000 UTC and every instant of it has the same riyadhDay", [anyMs], ([t]) => {
    const start = riyadhDayStart(t)
    expect(isoMillis(start).slice(11)).toBe("21:00:00.000Z")
    expect(riyadhDay(start)).toBe(riyadhDay(t))
    expect(riyadhDay(start + DAY - 1)).toBe(riyadhDay(t))
    expect(riyadhDay(start - 1)).not.toBe(riyadhDay(t))
  })

  it("the 21:00 UTC boundary", () => {
    expect(riyadhDay(Date.UTC(2026, 10, 21, 20, 59, 59, 999))).toBe("2026-11-21")
    expect(riyadhDay(Date.UTC(2026, 10, 21, 21, 0, 0, 0))).toBe("2026-11-22")
    expect(riyadhDayStart(Date.UTC(2026, 10, 22, 10))).toBe(Date.UTC(2026, 10, 21, 21))
    expect(riyadhDayStart(Date.UTC(2026, 10, 21, 21))).toBe(Date.UTC(2026, 10, 21, 21))
    expect(riyadhDayStart(Date.UTC(2026, 10, 21, 20, 59, 59, 999))).toBe(Date.UTC(2026, 10, 20, 21))
  })
})

describe("a Riyadh month starts at 00:00 Riyadh (21:00 UTC) of its first day", () => {
  it.prop("riyadhMonthStart(ms) <= ms, it is a day start on day 01 of the same month", [anyMs], ([t]) => {
    const start = riyadhMonthStart(t)
    expect(start).toBeLessThanOrEqual(t)
    expect(riyadhDayStart(start)).toBe(start)
    expect(riyadhDay(start)).toBe(`${riyadhMonth(t)}-01`)
    expect(riyadhMonth(start - 1)).not.toBe(riyadhMonth(t))
  })

  it("month boundary examples", () => {
    expect(riyadhMonth(Date.UTC(2026, 0, 31, 20, 59, 59, 999))).toBe("2026-01")
    expect(riyadhMonth(Date.UTC(2026, 0, 31, 21))).toBe("2026-02")
    expect(riyadhMonthStart(Date.UTC(2026, 1, 15))).toBe(Date.UTC(2026, 0, 31, 21))
    expect(riyadhMonthStart(Date.UTC(2025, 0, 1))).toBe(Date.UTC(2024, 11, 31, 21)) // Riyadh new year
    expect(riyadhDay(Date.UTC(2024, 1, 28, 21))).toBe("2024-02-29") // leap day
  })
})

describe("isoMillis is ISO 8601 UTC with milliseconds", () => {
  it("example", () => {
    expect(isoMillis(Date.UTC(2026, 10, 22, 10))).toBe("2026-11-22T10:00:00.000Z")
    expect(isoMillis(0)).toBe("1970-01-01T00:00:00.000Z")
    expect(isoMillis(-1)).toBe("1969-12-31T23:59:59.999Z")
  })

  it.prop("agrees with Date#toISOString", [anyMs], ([t]) => {
    expect(isoMillis(t)).toBe(new Date(t).toISOString())
  })
})

describe("never the machine's time zone: pure arithmetic on numbers", () => {
  it("the module uses no Date, Intl or time-zone API", () => {
    const source = readFileSync(new URL("../../../core/shared/riyadh.ts", import.meta.url), "utf8")
      .replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "") // code only, not comments
    expect(source).not.toMatch(/\bDate\b|\bIntl\b|getTimezoneOffset|toLocale/)
  })
})
