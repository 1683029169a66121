/**
 * The sandbox (spec Sections 5, 7 and 8, DECISIONS 2 and 3): test keys send only to the account's proven
 * list, at most 10 starts per application for its lifetime, free, stamped `[TEST]`, mode `test`.
 */
import { VerifyConsole } from "../../core/verify/console.ts"
import { describe, expect } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { Console } from "../../core/console/service.ts"
import {
  check,
  eventsOf,
  latestCode,
  minutes,
  platformTest,
  principalOf,
  resend,
  setup,
  start,
  textsTo,
} from "./harness.ts"

const proven = ["+966551000001", "+966551000002", "+966551000003"]

describe("422 sandbox_unverified_destination: a test key sends only to the account's proven list", () => {
  platformTest(
    "an unproven number is refused and nothing is sent; once proven (any accepted format) it passes",
    function* () {
      const { accountId, p } = yield* setup({ mode: "test" })
      expect(yield* Effect.flip(start(p, "+966551234567"))).toMatchObject({ _tag: "sandbox_unverified_destination" })
      expect(yield* textsTo("+966551234567")).toEqual([])
      yield* Effect.flatMap(VerifyConsole, (c) => c.addSandboxDestination(accountId, { to: "055-123 4567" }))
      expect((yield* start(p, "0551234567")).status).toBe("pending")
    },
  )

  platformTest("the proven list belongs to the account: another account's proven number is refused", function* () {
    yield* setup({ mode: "test", proven: ["+966551234567"] })
    const other = yield* setup({ mode: "test" })
    expect(yield* Effect.flip(start(other.p, "+966551234567"))).toMatchObject({
      _tag: "sandbox_unverified_destination",
    })
  })

  platformTest("live keys are not bound by the proven list", function* () {
    const { p } = yield* setup({ mode: "live" })
    expect((yield* start(p, "+966551234567")).status).toBe("pending")
  })
})

describe("429 sandbox_quota_exceeded: 10 sandbox starts per application, lifetime; resends neither count nor are refused", () => {
  const tenStarts = (p: Parameters<typeof start>[0]) =>
    Effect.gen(function* () {
      const ids: Array<string> = []
      for (let i = 0; i < 10; i++) ids.push((yield* start(p, proven[i % 3])).id)
      return ids
    })

  platformTest("ten starts pass, the eleventh is refused, and still is a week later", function* () {
    const { p } = yield* setup({ mode: "test", proven })
    yield* tenStarts(p)
    expect(yield* Effect.flip(start(p, proven[0]))).toMatchObject({ _tag: "sandbox_quota_exceeded" })
    yield* TestClock.adjust(minutes(7 * 24 * 60))
    expect(yield* Effect.flip(start(p, proven[1]))).toMatchObject({ _tag: "sandbox_quota_exceeded" })
  })

  platformTest("resends do not count: three resends, then still ten starts", function* () {
    const { p } = yield* setup({ mode: "test", proven, settings: { hourly_cap_per_destination: 100 } })
    const first = yield* start(p, proven[0])
    for (let i = 0; i < 3; i++) yield* resend(p, first.id)
    for (let i = 0; i < 9; i++) yield* start(p, proven[1])
    expect(yield* Effect.flip(start(p, proven[2]))).toMatchObject({ _tag: "sandbox_quota_exceeded" })
  })

  platformTest("resends are not refused by the quota once it is used up", function* () {
    const { p } = yield* setup({ mode: "test", proven })
    const ids = yield* tenStarts(p)
    expect((yield* resend(p, ids[9])).status).toBe("pending")
    expect((yield* check(p, ids[9], yield* latestCode(proven[0]))).status).toBe("verified")
  })

  platformTest("the quota is per application: a second application of the account has its own ten", function* () {
    const { accountId, p } = yield* setup({ mode: "test", proven })
    yield* tenStarts(p)
    const c = yield* Console
    const app2 = yield* c.createApplication(accountId, { name: "Second" })
    const key2 = yield* c.createKey(app2.id, { mode: "test" })
    const p2 = yield* principalOf(key2.key)
    expect((yield* start(p2, proven[0])).status).toBe("pending")
  })

  platformTest("live starts of the application do not use up the sandbox quota", function* () {
    const { applicationId, p } = yield* setup({ mode: "live", proven, settings: { hourly_cap_per_destination: 100 } })
    for (let i = 0; i < 12; i++) yield* start(p, proven[0])
    const test = yield* Effect.flatMap(Console, (c) => c.createKey(applicationId, { mode: "test" }))
    expect((yield* start(yield* principalOf(test.key), proven[0])).status).toBe("pending")
  })
})

describe("sandbox sends: the SMS text begins with [TEST]; mode is test; the flow is otherwise the live one", () => {
  platformTest(
    "start and resend texts begin with [TEST] and carry one run of digits, the code that verifies",
    function* () {
      const { p } = yield* setup({ mode: "test", proven })
      const v = yield* start(p, proven[0])
      expect(v.mode).toBe("test")
      yield* resend(p, v.id)
      const texts = yield* textsTo(proven[0])
      expect(texts).toHaveLength(2)
      for (const t of texts) {
        expect(t.text.startsWith("[TEST]")).toBe(true)
        expect(t.text.match(/\d+/g)).toHaveLength(1)
      }
      expect(yield* check(p, v.id, yield* latestCode(proven[0]))).toMatchObject({ status: "verified", mode: "test" })
      const events = yield* eventsOf(v.id)
      expect(events.map((e) => [e.event, e.data.mode])).toEqual([["verification.verified", "test"]])
    },
  )

  platformTest("live texts carry no [TEST] stamp", function* () {
    const { p } = yield* setup({ mode: "live" })
    yield* start(p, proven[0])
    expect((yield* textsTo(proven[0]))[0].text).not.toContain("[TEST]")
  })

  platformTest("a test key works before the application is approved", function* () {
    const c = yield* Console
    const account = yield* c.createAccount({ name: "New" })
    const app = yield* c.createApplication(account.id, { name: "Unapproved" })
    yield* (yield* VerifyConsole).addSandboxDestination(account.id, { to: proven[0] })
    const key = yield* c.createKey(app.id, { mode: "test" })
    expect((yield* start(yield* principalOf(key.key), proven[0])).status).toBe("pending")
  })
})
