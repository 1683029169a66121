/**
 * Riyadh calendar days and months.
 *
 * Riyadh keeps UTC+03:00 all year (no daylight saving), so a Riyadh day runs from 21:00 UTC
 * to 21:00 UTC. Everything here is integer arithmetic on epoch milliseconds; the machine's
 * time zone is never consulted. Inputs are epoch milliseconds (fractions are floored).
 */

export const DAY_MS = 86_400_000
export const RIYADH_OFFSET_MS = 3 * 3_600_000

const floorDiv = (a: number, b: number): number => Math.floor(a / b)

/** Civil date of a day count since 1970-01-01 (proleptic Gregorian; H. Hinnant's algorithm). */
const civilFromDays = (days: number): { year: number; month: number; day: number } => {
  const z = days + 719_468
  const era = floorDiv(z, 146_097)
  const doe = z - era * 146_097
  const yoe = floorDiv(doe - floorDiv(doe, 1460) + floorDiv(doe, 36_524) - floorDiv(doe, 146_096), 365)
  const doy = doe - (365 * yoe + floorDiv(yoe, 4) - floorDiv(yoe, 100))
  const mp = floorDiv(5 * doy + 2, 153)
  const month = mp < 10 ? mp + 3 : mp - 9
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day: doy - floorDiv(153 * mp + 2, 5) + 1 }
}

/** Day count since 1970-01-01 of a civil date (inverse of `civilFromDays`). */
const daysFromCivil = (year: number, month: number, day: number): number => {
  const y = month <= 2 ? year - 1 : year
  const era = floorDiv(y, 400)
  const yoe = y - era * 400
  const doy = floorDiv(153 * (month > 2 ? month - 3 : month + 9) + 2, 5) + day - 1
  const doe = yoe * 365 + floorDiv(yoe, 4) - floorDiv(yoe, 100) + doy
  return era * 146_097 + doe - 719_468
}

const pad = (n: number, width: number): string => String(n).padStart(width, "0")
/** Four-digit year; outside 0000..9999 the ISO 8601 expanded form `±YYYYYY`. */
const formatYear = (
  y: number,
): string => (y >= 0 && y <= 9999 ? pad(y, 4) : `${y < 0 ? "-" : "+"}${pad(Math.abs(y), 6)}`)

const riyadhDays = (ms: number): number => floorDiv(ms + RIYADH_OFFSET_MS, DAY_MS)

/** The Riyadh date of an instant, `YYYY-MM-DD`. */
export const riyadhDay = (ms: number): string => {
  const { year, month, day } = civilFromDays(riyadhDays(ms))
  return `${formatYear(year)}-${pad(month, 2)}-${pad(day, 2)}`
}

/** Epoch ms of 00:00 Riyadh (21:00 UTC the day before) of the Riyadh day containing `ms`. */
export const riyadhDayStart = (ms: number): number => riyadhDays(ms) * DAY_MS - RIYADH_OFFSET_MS

/** The Riyadh month of an instant, `YYYY-MM`. */
export const riyadhMonth = (ms: number): string => {
  const { year, month } = civilFromDays(riyadhDays(ms))
  return `${formatYear(year)}-${pad(month, 2)}`
}

/** Epoch ms of 00:00 Riyadh on the first day of the Riyadh month containing `ms`. */
export const riyadhMonthStart = (ms: number): number => {
  const { year, month } = civilFromDays(riyadhDays(ms))
  return daysFromCivil(year, month, 1) * DAY_MS - RIYADH_OFFSET_MS
}

/** ISO 8601 in UTC with milliseconds, e.g. `2026-11-22T10:00:00.000Z` (what `Date#toISOString` gives). */
export const isoMillis = (ms: number): string => {
  const t = Math.floor(ms)
  const days = floorDiv(t, DAY_MS)
  const { year, month, day } = civilFromDays(days)
  const inDay = t - days * DAY_MS
  const time = `${pad(floorDiv(inDay, 3_600_000), 2)}:${pad(floorDiv(inDay, 60_000) % 60, 2)}:${
    pad(floorDiv(inDay, 1000) % 60, 2)
  }`
  return `${formatYear(year)}-${pad(month, 2)}-${pad(day, 2)}T${time}.${pad(inDay % 1000, 3)}Z`
}
