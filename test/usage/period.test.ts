/**
 * The usage period (DECISIONS 12): `month` (this Riyadh month or one of the two before; default this month)
 * or `from`+`to` (inclusive whole Riyadh days within those months, up to today). Riyadh = UTC+3 all year.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import * as fc from "effect/FastCheck"
import { allowedMonths, type Period, usagePeriod } from "../../core/usage/period.ts"
import { DAY_MS, riyadhDay, riyadhMonth } from "../../core/shared/riyadh.ts"

/** Instants from 1971 to 2200, and some exactly on a Riyadh midnight or a millisecond either side. */
const anyInstant = fc.integer({ min: 31_536_000_000, max: 7_258_118_400_000 })
const midnight = (ms: number) => Math.floor((ms + 3 * 3_600_000) / DAY_MS) * DAY_MS - 3 * 3_600_000
const nearMidnight = fc.tuple(anyInstant, fc.integer({ min: -1, max: 1 })).map(([ms, d]) => midnight(ms) + d)
const instant = fc.oneof(anyInstant, nearMidnight)

const ok = (input: Parameters<typeof usagePeriod>[0], now: number): Period => {
  const result = usagePeriod(input, now)
  if (Either.isLeft(result)) throw new Error(`refused: ${JSON.stringify(result.left)}`)
  return result.right
}
const refusal = (input: Parameters<typeof usagePeriod>[0], now: number) => {
  const result = usagePeriod(input, now)
  if (Either.isRight(result)) throw new Error(`accepted: ${JSON.stringify(result.right)}`)
  return { error: result.left._tag, errors: result.left.errors }
}

const at = (iso: string) => Date.parse(iso)

describe("period: `month` (`YYYY-MM`: this Riyadh month or one of the two before; default this month)", () => {
  it.prop(
    "the default is this Riyadh month, whole: from its first day to its last, `now` inside",
    [instant],
    ([now]) => {
      const p = ok({}, now)
      expect(p.month).toBe(riyadhMonth(now))
      expect(p.since).toBeLessThanOrEqual(now)
      expect(now).toBeLessThan(p.until)
      expect(p.from).toBe(`${p.month}-01`)
      expect(riyadhDay(p.since)).toBe(p.from)
      expect(riyadhDay(p.until - 1)).toBe(p.to)
      // Riyadh month edges: the millisecond before is the month before, `until` the month after.
      expect(riyadhMonth(p.since)).toBe(p.month)
      expect(riyadhMonth(p.until - 1)).toBe(p.month)
      expect(riyadhMonth(p.since - 1)).not.toBe(p.month)
      expect(riyadhMonth(p.until)).not.toBe(p.month)
      // A Riyadh day starts at 21:00 UTC: both ends are Riyadh midnights.
      expect((p.since + 3 * 3_600_000) % DAY_MS).toBe(0)
      expect((p.until + 3 * 3_600_000) % DAY_MS).toBe(0)
    },
  )

  it.prop("the three allowed months are consecutive and end with this one; each reads whole", [instant], ([now]) => {
    const months = allowedMonths(now)
    expect(months).toHaveLength(3)
    expect(months[2]).toBe(riyadhMonth(now))
    const periods = months.map((month) => ok({ month }, now))
    expect(periods.map((p) => p.month)).toEqual(months)
    expect(periods[0].until).toBe(periods[1].since)
    expect(periods[1].until).toBe(periods[2].since)
    expect(riyadhMonth(periods[0].since - 1)).not.toBe(months[0])
  })

  it.prop("the month before the three, and the month after this one, are 400 out_of_range", [instant], ([now]) => {
    const p = ok({ month: allowedMonths(now)[0] }, now)
    const before = riyadhMonth(p.since - 1)
    const after = riyadhMonth(ok({}, now).until)
    for (const month of [before, after]) {
      expect(refusal({ month }, now)).toEqual({
        error: "invalid_request",
        errors: { month: "out_of_range" },
      })
    }
  })

  it("2026-11-30T21:00:00Z is already 2026-12-01 in Riyadh: this month is December, October to December allowed", () => {
    const now = at("2026-11-30T21:00:00Z")
    expect(ok({}, now)).toEqual({
      from: "2026-12-01",
      to: "2026-12-31",
      month: "2026-12",
      since: at("2026-11-30T21:00:00Z"),
      until: at("2026-12-31T21:00:00Z"),
    })
    expect(allowedMonths(now)).toEqual(["2026-10", "2026-11", "2026-12"])
    expect(refusal({ month: "2026-09" }, now).errors).toEqual({ month: "out_of_range" })
    // A millisecond before, it is still 30 November in Riyadh: September is allowed, December not yet.
    expect(allowedMonths(now - 1)).toEqual(["2026-09", "2026-10", "2026-11"])
    expect(ok({ month: "2026-09" }, now - 1).since).toBe(at("2026-08-31T21:00:00Z"))
    expect(refusal({ month: "2026-12" }, now - 1).errors).toEqual({ month: "out_of_range" })
  })

  it("across a year: in January, November and December of the year before are allowed; February has 28 or 29 days", () => {
    expect(allowedMonths(at("2027-01-15T12:00:00Z"))).toEqual(["2026-11", "2026-12", "2027-01"])
    expect(ok({ month: "2028-02" }, at("2028-03-01T00:00:00Z")).to).toBe("2028-02-29")
    expect(ok({ month: "2027-02" }, at("2027-03-01T00:00:00Z")).to).toBe("2027-02-28")
  })

  it("a malformed or impossible month is 400 invalid", () => {
    const now = at("2026-11-25T12:00:00Z")
    for (const month of ["2026-13", "2026-00", "2026-1", "26-11", "2026-11-01", ""]) {
      expect(refusal({ month }, now).errors).toEqual({ month: "invalid" })
    }
  })
})

describe("period: `from`+`to` (`YYYY-MM-DD`, inclusive whole Riyadh days, within those months, up to today)", () => {
  it.prop("any range of days within the window reads from 00:00 Riyadh of `from` to 24:00 of `to`", [
    instant,
    fc.nat(),
    fc.nat(),
  ], ([now, a, b]) => {
    const first = ok({ month: allowedMonths(now)[0] }, now).since
    const days = Math.floor((midnight(now) - first) / DAY_MS) + 1
    const [i, j] = [a % days, b % days].sort((x, y) => x - y)
    const from = riyadhDay(first + i * DAY_MS)
    const to = riyadhDay(first + j * DAY_MS)
    const p = ok({ from, to }, now)
    expect(p).toEqual({ from, to, month: null, since: first + i * DAY_MS, until: first + (j + 1) * DAY_MS })
    expect(riyadhDay(p.since)).toBe(from)
    expect(riyadhDay(p.until - 1)).toBe(to)
    expect(riyadhDay(p.until)).not.toBe(to)
    expect((p.until - p.since) / DAY_MS).toBe(j - i + 1)
  })

  it.prop("tomorrow (Riyadh) and the day before the window are 400 out_of_range", [instant], ([now]) => {
    const today = riyadhDay(now)
    const tomorrow = riyadhDay(midnight(now) + DAY_MS)
    const beforeWindow = riyadhDay(ok({ month: allowedMonths(now)[0] }, now).since - 1)
    expect(ok({ from: today, to: today }, now).from).toBe(today)
    expect(refusal({ from: today, to: tomorrow }, now).errors).toEqual({ to: "out_of_range" })
    expect(refusal({ from: beforeWindow, to: today }, now).errors).toEqual({ from: "out_of_range" })
  })

  it.prop("`from` after `to` is 400 after_to", [instant], ([now]) => {
    const first = ok({ month: allowedMonths(now)[0] }, now)
    expect(refusal({ from: first.to, to: first.from }, now).errors).toEqual({ from: "after_to" })
  })

  it("at 2026-11-30T21:00:00Z today is 2026-12-01 in Riyadh; a millisecond before, 2026-12-01 is tomorrow", () => {
    const now = at("2026-11-30T21:00:00Z")
    expect(ok({ from: "2026-10-01", to: "2026-12-01" }, now)).toEqual({
      from: "2026-10-01",
      to: "2026-12-01",
      month: null,
      since: at("2026-09-30T21:00:00Z"),
      until: at("2026-12-01T21:00:00Z"),
    })
    expect(refusal({ from: "2026-11-01", to: "2026-12-01" }, now - 1).errors).toEqual({ to: "out_of_range" })
    expect(refusal({ from: "2026-09-30", to: "2026-10-01" }, now).errors).toEqual({ from: "out_of_range" })
  })

  it("anything else is 400 invalid_request naming the field", () => {
    const now = at("2026-11-25T12:00:00Z")
    expect(refusal({ month: "2026-11", from: "2026-11-01", to: "2026-11-02" }, now).errors).toEqual({
      month: "conflict",
    })
    expect(refusal({ month: "2026-11", to: "2026-11-02" }, now).errors).toEqual({ month: "conflict" })
    expect(refusal({ from: "2026-11-01" }, now).errors).toEqual({ to: "required" })
    expect(refusal({ to: "2026-11-01" }, now).errors).toEqual({ from: "required" })
    expect(refusal({ from: "2026-11-31", to: "2026-02-30" }, now).errors).toEqual({ from: "invalid", to: "invalid" })
    expect(refusal({ from: "2026-11-1", to: "20261102" }, now).errors).toEqual({ from: "invalid", to: "invalid" })
    expect(refusal({ from: "2026-08-31", to: "2026-11-26" }, now).errors).toEqual({
      from: "out_of_range",
      to: "out_of_range",
    })
  })
})
