/**
 * `wallet.show` (DECISIONS 12) on Riyadh days and months: P = 9; d = today's Riyadh day of the month;
 * codes_left = floor(balance / P); state out below P, low below low_balance_alert_halalas (default 1000), else
 * ok; month_spend_halalas = charges less refunds this Riyadh month; month_projection_halalas = floor(spend ×
 * days in month / d); days_left = floor(balance × d / spend), null while spend is 0; month_by_product
 * integers. Riyadh is UTC+3: a Riyadh day runs 21:00 to 21:00 UTC, so 20:59 UTC on the last day of a month
 * is the last minute of that Riyadh month, and 21:00 UTC the same (UTC) day is the first of the next.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import * as fc from "fast-check"
import { Console } from "../../core/console/service.ts"
import type { AccountId } from "../../core/shared/brands.ts"
import { riyadhDay } from "../../core/shared/riyadh.ts"
import { WalletConsole } from "../../core/wallet/console.ts"
import { projection, readWallet, riyadhMonthDays, walletState } from "../../core/wallet/read.ts"
import { WalletRepo } from "../../ports/store/wallet.ts"
import { platformTest } from "../verify/harness.ts"

const at = (iso: string) => Date.parse(iso)

const account = (credit: number) =>
  Effect.gen(function* () {
    const created = yield* (yield* Console).createAccount({ name: "Shop" })
    if (credit > 0) yield* (yield* WalletConsole).creditWallet(created.id, { amount_halalas: credit })
    return created.id as AccountId
  }).pipe(Effect.orDie)

const spend = (accountId: AccountId, amount: number, product = "verify", kind: "charge" | "refund" = "charge") =>
  Effect.flatMap(WalletRepo, (w) =>
    Effect.flatMap(
      TestClock.currentTimeMillis,
      (now) =>
        kind === "charge"
          ? Effect.asVoid(w.charge({ accountId, kind, amountHalalas: -amount, product, reference: null, at: now }))
          : Effect.asVoid(w.add({ accountId, kind, amountHalalas: amount, product, reference: null, at: now })),
    ))

describe("wallet.show: d is today's Riyadh day of the month, and the month is the Riyadh month", () => {
  it.prop("d and the days in the month match the Riyadh calendar date of any instant", [
    fc.integer({ min: at("2000-01-01T00:00:00Z"), max: at("2100-01-01T00:00:00Z") }),
  ], ([now]) => {
    const { day, daysInMonth } = riyadhMonthDays(now)
    const [y, m, d] = riyadhDay(now).split("-").map(Number)
    expect(day).toBe(d)
    expect(daysInMonth).toBe(new Date(Date.UTC(y, m, 0)).getUTCDate())
  })

  it("20:59 UTC on 30 November is Riyadh's 30 November (d 30 of 30); 21:00 UTC is 1 December (d 1 of 31)", () => {
    expect(riyadhMonthDays(at("2026-11-30T20:59:00Z"))).toEqual({ day: 30, daysInMonth: 30 })
    expect(riyadhMonthDays(at("2026-11-30T21:00:00Z"))).toEqual({ day: 1, daysInMonth: 31 })
    expect(riyadhMonthDays(at("2027-02-28T20:59:59.999Z"))).toEqual({ day: 28, daysInMonth: 28 })
    expect(riyadhMonthDays(at("2028-02-28T21:00:00Z"))).toEqual({ day: 29, daysInMonth: 29 })
    expect(riyadhMonthDays(at("2026-12-31T21:00:00Z"))).toEqual({ day: 1, daysInMonth: 31 })
  })
})

describe("wallet.show: month_projection = floor(spend × days in month / d); days_left = floor(balance × d / spend), null while spend is 0", () => {
  it("the floors, exactly", () => {
    expect(projection({ balance: 8_866, spend: 1_134, day: 7, daysInMonth: 30 })).toEqual({
      month_projection_halalas: 4_860, // 1134 × 30 / 7 = 4860
      days_left: 54, // 8866 × 7 / 1134 = 54.73
    })
    expect(projection({ balance: 100, spend: 7, day: 3, daysInMonth: 31 })).toEqual({
      month_projection_halalas: 72, // 7 × 31 / 3 = 72.33
      days_left: 42, // 100 × 3 / 7 = 42.86
    })
    expect(projection({ balance: 5_000, spend: 0, day: 12, daysInMonth: 31 })).toEqual({
      month_projection_halalas: 0,
      days_left: null,
    })
  })

  it("state: out below P (9), low below the alert, else ok", () => {
    expect([0, 8, 9, 999, 1_000].map((b) => walletState(b, 1_000))).toEqual(["out", "out", "low", "low", "ok"])
    expect(walletState(1_000, 2_000)).toBe("low")
    expect(walletState(5, 0)).toBe("out")
  })
})

describe("wallet.show: the read on Riyadh month edges", () => {
  platformTest(
    "spend of this Riyadh month, by product, projected; the last minute of November is November",
    function* () {
      yield* TestClock.setTime(at("2026-11-06T21:00:00Z")) // Riyadh 7 November, 00:00
      const id = yield* account(10_000)
      yield* spend(id, 1_000, "verify")
      yield* spend(id, 234, "email")
      yield* spend(id, 100, "verify", "refund")
      const read = yield* readWallet(id)
      expect(read).toEqual({
        balance_halalas: 8_866,
        state: "ok",
        codes_left: 985,
        month_spend_halalas: 1_134,
        month_projection_halalas: 4_860,
        days_left: 54,
        low_balance_alert_halalas: 1_000,
        auto_topup: { enabled: false, threshold_halalas: 1_000, amount_halalas: 10_000 },
        card: null,
        month_by_product: { verify: 900, email: 234, notifications: 0 },
        last_topup: {
          id: expect.any(String),
          method: "console",
          amount_halalas: 10_000,
          at: "2026-11-06T21:00:00.000Z",
        },
      })
      // The last minute of November in Riyadh: d = 30 of 30.
      yield* TestClock.setTime(at("2026-11-30T20:59:00Z"))
      expect(yield* readWallet(id)).toMatchObject({
        month_spend_halalas: 1_134,
        month_projection_halalas: 1_134, // 1134 × 30 / 30
        days_left: 234, // 8866 × 30 / 1134 = 234.55
      })
      // A charge in that last minute is November's.
      yield* TestClock.setTime(at("2026-11-30T20:59:59.999Z"))
      yield* spend(id, 66, "verify")
      expect(yield* readWallet(id)).toMatchObject({ month_spend_halalas: 1_200, month_by_product: { verify: 966 } })
      // 21:00 UTC the same day is Riyadh's 1 December: a new month, nothing spent in it yet.
      yield* TestClock.setTime(at("2026-11-30T21:00:00Z"))
      expect(yield* readWallet(id)).toMatchObject({
        balance_halalas: 8_800,
        month_spend_halalas: 0,
        month_projection_halalas: 0,
        days_left: null,
        month_by_product: { verify: 0, email: 0, notifications: 0 },
      })
      // A charge at 21:00 UTC on 30 November is December's: d = 1 of 31.
      yield* spend(id, 100, "verify")
      expect(yield* readWallet(id)).toMatchObject({
        balance_halalas: 8_700,
        month_spend_halalas: 100,
        month_projection_halalas: 3_100, // 100 × 31 / 1
        days_left: 87, // 8700 × 1 / 100
        month_by_product: { verify: 100, email: 0, notifications: 0 },
      })
    },
  )

  platformTest(
    "a 28-day February: its last Riyadh minute projects over 28 days, the next minute is March (31)",
    function* () {
      yield* TestClock.setTime(at("2027-01-31T21:00:00Z")) // Riyadh 1 February 2027
      const id = yield* account(5_000)
      yield* spend(id, 280, "verify")
      yield* TestClock.setTime(at("2027-02-28T20:59:00Z"))
      expect(yield* readWallet(id)).toMatchObject({
        month_spend_halalas: 280,
        month_projection_halalas: 280, // 280 × 28 / 28
        days_left: 472, // 4720 × 28 / 280
      })
      yield* TestClock.setTime(at("2027-02-28T21:00:00Z"))
      yield* spend(id, 9, "verify")
      expect(yield* readWallet(id)).toMatchObject({
        month_spend_halalas: 9,
        month_projection_halalas: 279, // 9 × 31 / 1
        days_left: 523, // 4711 × 1 / 9 = 523.4
      })
    },
  )

  platformTest("state and codes_left follow the balance and the account's alert: ok, low, out", function* () {
    yield* TestClock.setTime(at("2026-11-10T09:00:00Z"))
    const id = yield* account(1_000)
    expect(yield* readWallet(id)).toMatchObject({ balance_halalas: 1_000, state: "ok", codes_left: 111 })
    yield* spend(id, 1)
    expect(yield* readWallet(id)).toMatchObject({ balance_halalas: 999, state: "low", codes_left: 111 })
    yield* spend(id, 990)
    expect(yield* readWallet(id)).toMatchObject({ balance_halalas: 9, state: "low", codes_left: 1 })
    yield* spend(id, 1)
    expect(yield* readWallet(id)).toMatchObject({ balance_halalas: 8, state: "out", codes_left: 0 })
    yield* (yield* WalletConsole).updateSettings(id, { low_balance_alert_halalas: 5 })
    yield* (yield* WalletConsole).creditWallet(id, { amount_halalas: 2 })
    expect(yield* readWallet(id)).toMatchObject({ balance_halalas: 10, state: "ok", low_balance_alert_halalas: 5 })
  })
})
