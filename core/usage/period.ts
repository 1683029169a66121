/**
 * The period of the client usage read (DECISIONS 12): a `month` (`YYYY-MM`, this Riyadh month or one of
 * the two before; this month by default), or `from` and `to` (`YYYY-MM-DD`, inclusive whole Riyadh days,
 * within those three months and up to today). Riyadh keeps UTC+03:00 all year, so a Riyadh day runs from
 * 21:00 UTC to 21:00 UTC; everything here is integer arithmetic on epoch milliseconds (core/shared/riyadh.ts),
 * never the machine's zone. Pure: `now` is given.
 */
import { Either } from "effect"
import { InvalidRequest } from "../pipeline/errors.ts"
import type { Millis } from "../shared/brands.ts"
import { DAY_MS, RIYADH_OFFSET_MS, riyadhDay, riyadhDayStart, riyadhMonth } from "../shared/riyadh.ts"

/** The months a usage read may ask for: this Riyadh month and this many before it. */
export const monthsBack = 2

export interface PeriodInput {
  readonly month?: string | undefined
  readonly from?: string | undefined
  readonly to?: string | undefined
}

export interface Period {
  /** First Riyadh day, `YYYY-MM-DD`. */
  readonly from: string
  /** Last Riyadh day (inclusive), `YYYY-MM-DD`. */
  readonly to: string
  /** `YYYY-MM` when the period is a month (asked or by default); null for a custom range. */
  readonly month: string | null
  /** 00:00 Riyadh of `from`, epoch ms (inclusive). */
  readonly since: Millis
  /** 00:00 Riyadh of the day after `to`, epoch ms (exclusive). */
  readonly until: Millis
}

interface YearMonth {
  readonly year: number
  readonly month: number
}

const pad = (n: number, width: number) => String(n).padStart(width, "0")
const monthText = ({ month, year }: YearMonth) => `${pad(year, 4)}-${pad(month, 2)}`
/** Months counted from year 0 (so that adding and comparing months is integer arithmetic). */
const monthIndex = ({ month, year }: YearMonth) => year * 12 + (month - 1)
const fromIndex = (i: number): YearMonth => ({ year: Math.floor(i / 12), month: (i % 12) + 1 })

/** 00:00 Riyadh of a civil date (`Date.UTC` is zone-free arithmetic). */
const riyadhMidnight = (year: number, month: number, day: number): Millis =>
  Date.UTC(year, month - 1, day) - RIYADH_OFFSET_MS
/** 00:00 Riyadh of the first day of a month. */
const monthStart = (m: YearMonth): Millis => riyadhMidnight(m.year, m.month, 1)

const parseMonth = (text: string): YearMonth | undefined => {
  const match = /^(\d{4})-(\d{2})$/.exec(text)
  if (match === null) return undefined
  const m = { year: Number(match[1]), month: Number(match[2]) }
  return m.month >= 1 && m.month <= 12 ? m : undefined
}

/** A real calendar date `YYYY-MM-DD` (no 2026-02-30), as its 00:00 Riyadh. */
const parseDay = (text: string): Millis | undefined => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (match === null) return undefined
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined
  const start = riyadhMidnight(year, month, day)
  return riyadhDay(start) === text ? start : undefined
}

/** The Riyadh month of an instant. */
export const riyadhYearMonth = (ms: Millis): YearMonth => parseMonth(riyadhMonth(ms))!

/** The months a read may ask for at `now`, oldest first (`YYYY-MM`). */
export const allowedMonths = (now: Millis): ReadonlyArray<string> => {
  const current = monthIndex(riyadhYearMonth(now))
  return Array.from({ length: monthsBack + 1 }, (_, i) => monthText(fromIndex(current - monthsBack + i)))
}

/** The first instant a usage read may ask for at `now`: 00:00 Riyadh on the first of the earliest allowed month. */
export const usageSince = (now: Millis): Millis => monthStart(fromIndex(monthIndex(riyadhYearMonth(now)) - monthsBack))

/**
 * The first instant at which no usage read covers `at` any longer (`usageSince` passes it): the start of the
 * third Riyadh month after `at`'s. Retention may drop what happened at `at` from then on.
 */
export const usageDropsFrom = (at: Millis): Millis =>
  monthStart(fromIndex(monthIndex(riyadhYearMonth(at)) + monthsBack + 1))

/** The whole Riyadh month `m`. */
const monthPeriod = (m: YearMonth): Period => {
  const since = monthStart(m)
  const until = monthStart(fromIndex(monthIndex(m) + 1))
  return { from: riyadhDay(since), to: riyadhDay(until - 1), month: monthText(m), since, until }
}

const refuse = (refused: Record<string, readonly [code: string, message: string]>): InvalidRequest => {
  const names = Object.keys(refused)
  return new InvalidRequest({
    message: names.length === 1
      ? `\`${names[0]}\` ${refused[names[0]][1]}`
      : `${names.length} fields are refused: ${names.map((n) => `\`${n}\` ${refused[n][1]}`).join("; ")}.`,
    fields: Object.fromEntries(names.map((n) => [n, refused[n][1]])),
    errors: Object.fromEntries(names.map((n) => [n, refused[n][0]])),
  })
}

/**
 * The period asked for at `now`, or `400 invalid_request` naming the refused fields (codes: `conflict`
 * for `month` given with `from`/`to`, `required` for one of `from`/`to` alone, `invalid` for a malformed or
 * impossible date, `out_of_range` outside the three months or after today, `after_to` for `from` after `to`).
 */
export const usagePeriod = (input: PeriodInput, now: Millis): Either.Either<Period, InvalidRequest> => {
  const current = riyadhYearMonth(now)
  const earliest = fromIndex(monthIndex(current) - monthsBack)
  const range = `${monthText(earliest)} to ${monthText(current)}`
  const { from, month, to } = input
  if (month !== undefined) {
    if (from !== undefined || to !== undefined) {
      return Either.left(refuse({ month: ["conflict", "is not given with `from` and `to`: give one or the other"] }))
    }
    const m = parseMonth(month)
    if (m === undefined) return Either.left(refuse({ month: ["invalid", "must be a month, `YYYY-MM`"] }))
    const i = monthIndex(m)
    if (i < monthIndex(earliest) || i > monthIndex(current)) {
      return Either.left(
        refuse({ month: ["out_of_range", `must be this Riyadh month or one of the two before (${range})`] }),
      )
    }
    return Either.right(monthPeriod(m))
  }
  if (from === undefined && to === undefined) return Either.right(monthPeriod(current))
  if (from === undefined) return Either.left(refuse({ from: ["required", "is required with `to`"] }))
  if (to === undefined) return Either.left(refuse({ to: ["required", "is required with `from`"] }))
  const refused: Record<string, readonly [string, string]> = {}
  const since = parseDay(from)
  const last = parseDay(to)
  const today = riyadhDayStart(now)
  const first = monthStart(earliest)
  const window = `from ${riyadhDay(first)} to today (${riyadhDay(today)})`
  if (since === undefined) refused.from = ["invalid", "must be a date, `YYYY-MM-DD`"]
  else if (since < first || since > today) refused.from = ["out_of_range", `must be a Riyadh day ${window}`]
  if (last === undefined) refused.to = ["invalid", "must be a date, `YYYY-MM-DD`"]
  else if (last < first || last > today) refused.to = ["out_of_range", `must be a Riyadh day ${window}`]
  if (Object.keys(refused).length > 0) return Either.left(refuse(refused))
  if (since! > last!) return Either.left(refuse({ from: ["after_to", "must be on or before `to`"] }))
  return Either.right({ from, to, month: null, since: since!, until: last! + DAY_MS })
}
