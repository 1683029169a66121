/**
 * The gate order of step 5 (DECISIONS 3): sandbox_unsupported_channel, sandbox_unverified_destination,
 * sandbox_quota_exceeded, rate_limited, ip_rate_limited, spend_cap_reached, application_paused; then
 * insufficient_credits (step 6); then the send (step 7). Each test builds a situation where two gates
 * fail at once, asserts the earlier one answers, then lifts it and asserts the later one answers.
 */
import { VerifyConsole } from "../../core/verify/console.ts"
import { describe, expect } from "@effect/vitest"
import { Effect } from "effect"
import { unpauseApplication } from "../../core/accounts/unpause.ts"
import { Console } from "../../core/console/service.ts"
import { applicationOf, mobile, platformTest, principalOf, resend, setup, start, textsTo, to } from "./harness.ts"

const other = "+966551234568"

/** A second key on the same application. */
const keyOn = (applicationId: string, mode: "live" | "test") =>
  Effect.flatMap(Effect.flatMap(Console, (c) => c.createKey(applicationId, { mode })), (k) => principalOf(k.key))

const putSettings = (applicationId: string, body: Record<string, unknown>) =>
  Effect.flatMap(VerifyConsole, (c) => c.putVerifySettings(applicationId, body))

describe("sandbox_unverified_destination before sandbox_quota_exceeded", () => {
  platformTest("quota used up and the number unproven: sandbox_unverified_destination", function* () {
    const { p } = yield* setup({ mode: "test", proven: [to, other], settings: { hourly_cap_per_destination: 100 } })
    for (let i = 0; i < 10; i++) yield* start(p, to)
    expect(yield* Effect.flip(start(p, mobile(1)))).toMatchObject({ _tag: "sandbox_unverified_destination" })
    expect(yield* Effect.flip(start(p, other))).toMatchObject({ _tag: "sandbox_quota_exceeded" })
  })
})

describe("sandbox_unverified_destination before rate_limited", () => {
  platformTest(
    "the number's hourly cap reached (by a live key) and unproven for the test key: sandbox_unverified_destination",
    function* () {
      const live = yield* setup({ mode: "live", settings: { hourly_cap_per_destination: 1 } })
      yield* start(live.p, to)
      const test = yield* keyOn(live.applicationId, "test")
      expect(yield* Effect.flip(start(test, to))).toMatchObject({ _tag: "sandbox_unverified_destination" })
      yield* Effect.flatMap(VerifyConsole, (c) => c.addSandboxDestination(live.accountId, { to }))
      expect(yield* Effect.flip(start(test, to))).toMatchObject({ _tag: "rate_limited" })
    },
  )
})

describe("sandbox_quota_exceeded before rate_limited", () => {
  platformTest("quota used up and the number's hourly cap reached: sandbox_quota_exceeded", function* () {
    const { applicationId, p } = yield* setup({
      mode: "test",
      proven: [to, ...Array.from({ length: 9 }, (_, i) => mobile(i))],
      settings: { hourly_cap_per_destination: 1 },
    })
    yield* start(p, to)
    for (let i = 0; i < 9; i++) yield* start(p, mobile(i))
    expect(yield* Effect.flip(start(p, to))).toMatchObject({ _tag: "sandbox_quota_exceeded" })
    const live = yield* keyOn(applicationId, "live")
    expect(yield* Effect.flip(start(live, to))).toMatchObject({ _tag: "rate_limited" })
  })
})

describe("rate_limited before ip_rate_limited", () => {
  platformTest(
    "the number's cap and the IP's cap both reached: rate_limited; another number from that IP: ip_rate_limited",
    function* () {
      const { p } = yield* setup({ settings: { hourly_cap_per_destination: 1, max_per_ip_per_hour: 1 } })
      yield* start(p, to, { client_ip: "203.0.113.5" })
      expect(yield* Effect.flip(start(p, to, { client_ip: "203.0.113.5" }))).toMatchObject({ _tag: "rate_limited" })
      expect(yield* Effect.flip(start(p, other, { client_ip: "203.0.113.5" }))).toMatchObject({
        _tag: "ip_rate_limited",
      })
    },
  )

  platformTest("on resend too: rate_limited before ip_rate_limited", function* () {
    const { p } = yield* setup({ settings: { hourly_cap_per_destination: 1, max_per_ip_per_hour: 1 } })
    const v = yield* start(p, to, { client_ip: "203.0.113.5" })
    expect(yield* Effect.flip(resend(p, v.id))).toMatchObject({ _tag: "rate_limited" })
    yield* putSettings((yield* applicationOf(v.application_id)).id, { hourly_cap_per_destination: 2 })
    expect(yield* Effect.flip(resend(p, v.id))).toMatchObject({ _tag: "ip_rate_limited" })
  })
})

describe("ip_rate_limited before spend_cap_reached", () => {
  platformTest(
    "the IP's cap and the day's spend cap both reached: ip_rate_limited; from another IP: spend_cap_reached",
    function* () {
      const { p } = yield* setup({ settings: { max_per_ip_per_hour: 1, daily_spend_cap_halalas: 9 } })
      yield* start(p, to, { client_ip: "203.0.113.5" })
      expect(yield* Effect.flip(start(p, other, { client_ip: "203.0.113.5" }))).toMatchObject({
        _tag: "ip_rate_limited",
      })
      expect(yield* Effect.flip(start(p, other, { client_ip: "203.0.113.6" }))).toMatchObject({
        _tag: "spend_cap_reached",
      })
    },
  )
})

describe("spend_cap_reached before application_paused", () => {
  platformTest(
    "paused by the guard and the spend cap reached: spend_cap_reached; with the cap raised: application_paused",
    function* () {
      const { applicationId, p } = yield* setup({
        settings: { daily_spend_cap_halalas: 9, guard: { min_sends: 1, min_verified_percent: 50 } },
      })
      yield* start(p, to)
      expect((yield* applicationOf(applicationId)).paused).toBe(true)
      expect(yield* Effect.flip(start(p, other))).toMatchObject({ _tag: "spend_cap_reached" })
      yield* putSettings(applicationId, { daily_spend_cap_halalas: null })
      expect(yield* Effect.flip(start(p, other))).toMatchObject({ _tag: "application_paused" })
    },
  )
})

describe("application_paused before insufficient_credits", () => {
  platformTest(
    "paused and the wallet empty: application_paused; unpaused: insufficient_credits; nothing sent",
    function* () {
      const { applicationId, p } = yield* setup({
        balance: 9,
        settings: { guard: { min_sends: 1, min_verified_percent: 50 } },
      })
      const v = yield* start(p, to)
      expect(yield* Effect.flip(start(p, other))).toMatchObject({ _tag: "application_paused" })
      expect(yield* Effect.flip(resend(p, v.id))).toMatchObject({ _tag: "application_paused" })
      yield* unpauseApplication(applicationId)
      expect(yield* Effect.flip(start(p, other))).toMatchObject({ _tag: "insufficient_credits" })
      expect(yield* Effect.flip(resend(p, v.id))).toMatchObject({ _tag: "insufficient_credits" })
      expect(yield* textsTo(other)).toEqual([])
      expect(yield* textsTo(to)).toHaveLength(1)
    },
  )
})

describe("every step-5 gate before insufficient_credits", () => {
  platformTest("with an empty wallet, each gate still answers its own code", function* () {
    const { applicationId, p } = yield* setup({
      balance: 18,
      settings: { hourly_cap_per_destination: 1, max_per_ip_per_hour: 1 },
    })
    yield* start(p, to, { client_ip: "203.0.113.5" })
    yield* start(p, other, { client_ip: "203.0.113.6" })
    expect(yield* Effect.flip(start(p, to))).toMatchObject({ _tag: "rate_limited" })
    expect(yield* Effect.flip(start(p, mobile(1), { client_ip: "203.0.113.5" }))).toMatchObject({
      _tag: "ip_rate_limited",
    })
    yield* putSettings(applicationId, { daily_spend_cap_halalas: 18 })
    expect(yield* Effect.flip(start(p, mobile(1)))).toMatchObject({ _tag: "spend_cap_reached" })
    yield* putSettings(applicationId, { daily_spend_cap_halalas: null })
    expect(yield* Effect.flip(start(p, mobile(1)))).toMatchObject({
      _tag: "insufficient_credits",
      balance_halalas: 0,
    })
  })
})
