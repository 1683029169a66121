/**
 * The rolling hourly caps and the daily spend cap (spec Sections 2 and 7, DECISIONS 3), on the TestClock.
 */
import { describe, expect } from "@effect/vitest"
import { Effect, Option, TestClock } from "effect"
import {
  check,
  latestCode,
  minutes,
  mobile,
  platformTest,
  resend,
  setup,
  start,
  storedVerification,
  to,
} from "./harness.ts"

describe("429 rate_limited: the per-destination hourly cap (hourly_cap_per_destination, default 5)", () => {
  platformTest("five starts to one number pass, the sixth is refused; other numbers are not affected", function* () {
    const { p } = yield* setup()
    for (let i = 0; i < 5; i++) yield* start(p, to)
    expect(yield* Effect.flip(start(p, to))).toMatchObject({ _tag: "rate_limited" })
    expect((yield* start(p, mobile(1))).status).toBe("pending")
  })

  platformTest("the cap is per application: another application may still send to the number", function* () {
    const a = yield* setup({ settings: { hourly_cap_per_destination: 1 } })
    const b = yield* setup({ settings: { hourly_cap_per_destination: 1 } })
    yield* start(a.p, to)
    expect(yield* Effect.flip(start(a.p, to))).toMatchObject({ _tag: "rate_limited" })
    expect((yield* start(b.p, to)).status).toBe("pending")
  })

  platformTest(
    "the window rolls on the clock: the sends of the last 60 minutes count, older ones do not",
    function* () {
      const { p } = yield* setup()
      for (let i = 0; i < 5; i++) {
        yield* start(p, to)
        yield* TestClock.adjust(minutes(10))
      }
      // Sends at 0, 10, 20, 30, 40 minutes; now 50.
      yield* TestClock.adjust(minutes(9) + 59_999) // 59:59.999
      expect(yield* Effect.flip(start(p, to))).toMatchObject({ _tag: "rate_limited" })
      yield* TestClock.adjust(2) // 60:00.001: the send at 0 has left the window
      expect((yield* start(p, to)).status).toBe("pending")
      expect(yield* Effect.flip(start(p, to))).toMatchObject({ _tag: "rate_limited" })
      yield* TestClock.adjust(minutes(10)) // the send at 10 leaves too
      expect((yield* start(p, to)).status).toBe("pending")
    },
  )

  platformTest("a refused start fires nothing and changes no wallet or verification", function* () {
    const { p } = yield* setup({ settings: { hourly_cap_per_destination: 1 } })
    yield* start(p, to)
    const code = yield* latestCode(to)
    yield* Effect.flip(start(p, to))
    expect(yield* latestCode(to)).toBe(code)
  })
})

describe("429 ip_rate_limited: starts per supplied client_ip per hour (max_per_ip_per_hour, default 20)", () => {
  platformTest(
    "twenty starts from one client_ip pass, the 21st is refused; another IP and no IP are not affected",
    function* () {
      const { p } = yield* setup()
      for (let i = 0; i < 20; i++) yield* start(p, mobile(i), { client_ip: "203.0.113.5" })
      expect(yield* Effect.flip(start(p, mobile(20), { client_ip: "203.0.113.5" }))).toMatchObject({
        _tag: "ip_rate_limited",
      })
      expect((yield* start(p, mobile(21), { client_ip: "203.0.113.6" })).status).toBe("pending")
      expect((yield* start(p, mobile(22))).status).toBe("pending")
    },
  )

  platformTest("one IPv6 address written two ways is one client_ip", function* () {
    const { p } = yield* setup({ settings: { max_per_ip_per_hour: 1 } })
    yield* start(p, mobile(1), { client_ip: "2001:db8::1" })
    expect(yield* Effect.flip(start(p, mobile(2), { client_ip: "2001:0DB8:0:0:0:0:0:1" }))).toMatchObject({
      _tag: "ip_rate_limited",
    })
  })

  platformTest("the window rolls on the clock", function* () {
    const { p } = yield* setup({ settings: { max_per_ip_per_hour: 2 } })
    yield* start(p, mobile(1), { client_ip: "203.0.113.5" })
    yield* TestClock.adjust(minutes(30))
    yield* start(p, mobile(2), { client_ip: "203.0.113.5" })
    yield* TestClock.adjust(minutes(30))
    expect(yield* Effect.flip(start(p, mobile(3), { client_ip: "203.0.113.5" }))).toMatchObject({
      _tag: "ip_rate_limited",
    })
    yield* TestClock.adjust(1)
    expect((yield* start(p, mobile(3), { client_ip: "203.0.113.5" })).status).toBe("pending")
  })
})

describe("resend is capped like start: it counts against the caps of the destination and of the start's client_ip", () => {
  platformTest(
    "destination cap 2: start and one resend fill it; the next resend and the next start are rate_limited",
    function* () {
      const { p } = yield* setup({ settings: { hourly_cap_per_destination: 2 } })
      const v = yield* start(p, to)
      yield* resend(p, v.id)
      const code = yield* latestCode(to)
      expect(yield* Effect.flip(resend(p, v.id))).toMatchObject({ _tag: "rate_limited" })
      expect(yield* Effect.flip(start(p, to))).toMatchObject({ _tag: "rate_limited" })
      // The refused resend changed nothing: the code of the accepted resend still verifies.
      expect(Option.getOrThrow(yield* storedVerification(v.id)).resends).toBe(1)
      expect((yield* check(p, v.id, code)).status).toBe("verified")
    },
  )

  platformTest(
    "IP cap 2: a start from the IP and its resend fill it; a start to another number from that IP is ip_rate_limited",
    function* () {
      const { p } = yield* setup({ settings: { max_per_ip_per_hour: 2 } })
      const v = yield* start(p, mobile(1), { client_ip: "203.0.113.5" })
      yield* resend(p, v.id)
      expect(yield* Effect.flip(start(p, mobile(2), { client_ip: "203.0.113.5" }))).toMatchObject({
        _tag: "ip_rate_limited",
      })
    },
  )

  platformTest(
    "IP cap 2: once other starts from the IP fill it, a resend of a verification started from it is ip_rate_limited",
    function* () {
      const { p } = yield* setup({ settings: { max_per_ip_per_hour: 2 } })
      const v = yield* start(p, mobile(1), { client_ip: "203.0.113.5" })
      yield* start(p, mobile(2), { client_ip: "203.0.113.5" })
      expect(yield* Effect.flip(resend(p, v.id))).toMatchObject({ _tag: "ip_rate_limited" })
      expect(Option.getOrThrow(yield* storedVerification(v.id))).toMatchObject({ status: "pending", resends: 0 })
    },
  )
})

describe("429 spend_cap_reached: the day's charges plus this send would pass daily_spend_cap_halalas", () => {
  platformTest("cap 27: three starts reach it exactly, the fourth is refused (resends count too)", function* () {
    const { p } = yield* setup({ settings: { daily_spend_cap_halalas: 27 } })
    const v = yield* start(p, mobile(1))
    yield* resend(p, v.id)
    yield* start(p, mobile(2))
    expect(yield* Effect.flip(start(p, mobile(3)))).toMatchObject({ _tag: "spend_cap_reached" })
    expect(yield* Effect.flip(resend(p, v.id))).toMatchObject({ _tag: "spend_cap_reached" })
  })

  platformTest("cap 0 refuses every live send; null (the default) means no cap", function* () {
    const { p } = yield* setup({ settings: { daily_spend_cap_halalas: 0 } })
    expect(yield* Effect.flip(start(p, to))).toMatchObject({ _tag: "spend_cap_reached" })
    const open = yield* setup({ balance: 1_000, settings: { hourly_cap_per_destination: 100 } })
    for (let i = 0; i < 50; i++) yield* start(open.p, to)
  })

  platformTest("test-key sends are free and never reach the spend cap", function* () {
    const { p } = yield* setup({ mode: "test", proven: [to], settings: { daily_spend_cap_halalas: 0 } })
    expect((yield* start(p, to)).status).toBe("pending")
  })

  platformTest("the day is the Riyadh day: the cap resets at 21:00 UTC, not at midnight UTC", function* () {
    const { p } = yield* setup({ settings: { daily_spend_cap_halalas: 18 } })
    yield* TestClock.setTime(Date.parse("2026-03-01T21:00:00.000Z")) // 00:00 in Riyadh, 2 March
    yield* start(p, mobile(1))
    yield* TestClock.setTime(Date.parse("2026-03-02T00:30:00.000Z")) // a new UTC day, the same Riyadh day
    yield* start(p, mobile(2))
    expect(yield* Effect.flip(start(p, mobile(3)))).toMatchObject({ _tag: "spend_cap_reached" })
    yield* TestClock.setTime(Date.parse("2026-03-02T20:59:59.999Z"))
    expect(yield* Effect.flip(start(p, mobile(3)))).toMatchObject({ _tag: "spend_cap_reached" })
    yield* TestClock.setTime(Date.parse("2026-03-02T21:00:00.000Z"))
    expect((yield* start(p, mobile(3))).status).toBe("pending")
  })
})
