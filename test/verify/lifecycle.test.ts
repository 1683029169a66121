/**
 * The verification lifecycle through the Verify use cases on the memory store (spec Section 3,
 * DECISIONS 3), time moved with the TestClock.
 */
import { describe, expect } from "@effect/vitest"
import { Effect, Option, TestClock } from "effect"
import {
  cancel,
  check,
  eventNamesOf,
  latestCode,
  minutes,
  platformTest,
  read,
  resend,
  setup,
  start,
  storedVerification,
  textsTo,
  to,
  wrongCode,
} from "./harness.ts"

describe("start: a code goes out by SMS; the verification starts pending", () => {
  platformTest("answers the verification object of the Resources table, status pending", function* () {
    const { applicationId, p } = yield* setup()
    yield* TestClock.setTime(Date.parse("2026-03-01T10:00:00.000Z"))
    const v = yield* start(p, "0551234567", { reference: "order-7" })
    expect(v).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: "pending",
      application_id: applicationId,
      reference: "order-7",
      channel: "sms",
      to,
      mode: "live",
      attempts: 0,
      expires_at: "2026-03-01T10:10:00.000Z",
      verified_at: null,
      created_at: "2026-03-01T10:00:00.000Z",
    })
    const texts = yield* textsTo(to)
    expect(texts).toHaveLength(1)
    expect(texts[0].text.match(/\d+/g)).toEqual([yield* latestCode(to)])
    expect(yield* latestCode(to)).toMatch(/^\d{6}$/)
  })

  platformTest("the code is stored only as a keyed hash", function* () {
    const { p } = yield* setup()
    const v = yield* start(p, to)
    const code = yield* latestCode(to)
    const stored = Option.getOrThrow(yield* storedVerification(v.id))
    expect(stored.codeHash).not.toContain(code)
    expect(JSON.stringify(stored)).not.toContain(`"${code}"`)
  })
})

describe("check, code matches: verified; verification.verified fires once", () => {
  platformTest(
    "the right code answers verified with verified_at; a later check answers verified again, no second event",
    function* () {
      const { p } = yield* setup()
      const v = yield* start(p, to)
      const code = yield* latestCode(to)
      yield* TestClock.adjust(minutes(1))
      const checked = yield* check(p, v.id, code)
      expect(checked).toMatchObject({ status: "verified", attempts: 1, verified_at: "1970-01-01T00:01:00.000Z" })
      expect(yield* check(p, v.id, code)).toEqual(checked)
      expect(yield* check(p, v.id, wrongCode(code))).toEqual(checked)
      expect(yield* eventNamesOf(v.id)).toEqual(["verification.verified"])
    },
  )
})

describe("check, wrong code with attempts left: 200 pending, attempts counted", () => {
  platformTest("a wrong code answers pending with attempts 1, then the right code still verifies", function* () {
    const { p } = yield* setup()
    const v = yield* start(p, to)
    const code = yield* latestCode(to)
    expect(yield* check(p, v.id, wrongCode(code))).toMatchObject({ status: "pending", attempts: 1 })
    expect(yield* check(p, v.id, code)).toMatchObject({ status: "verified", attempts: 2 })
  })
})

describe("check, the wrong code that uses the last attempt: failed; verification.failed fires", () => {
  platformTest(
    "three wrong codes (default max_attempts 3): pending, pending, failed; then the right code answers failed",
    function* () {
      const { p } = yield* setup()
      const v = yield* start(p, to)
      const code = yield* latestCode(to)
      const bad = wrongCode(code)
      expect((yield* check(p, v.id, bad)).status).toBe("pending")
      expect((yield* check(p, v.id, bad)).status).toBe("pending")
      expect(yield* check(p, v.id, bad)).toMatchObject({ status: "failed", attempts: 3 })
      expect(yield* check(p, v.id, code)).toMatchObject({ status: "failed", attempts: 3, verified_at: null })
      expect(yield* eventNamesOf(v.id)).toEqual(["verification.failed"])
    },
  )
})

describe("expires_at reached: check, read, cancel and resend find expiry at once; verification.expired fires", () => {
  const expiredBy = <A, E, R>(
    name: string,
    act: (p: Parameters<typeof check>[0], id: string, code: string) => Effect.Effect<A, E, R>,
  ) =>
    Effect.gen(function* () {
      const { p } = yield* setup()
      const v = yield* start(p, to)
      const code = yield* latestCode(to)
      yield* TestClock.adjust(minutes(10))
      const outcome = yield* Effect.either(act(p, v.id, code))
      expect(yield* eventNamesOf(v.id), name).toEqual(["verification.expired"])
      expect(yield* read(p, v.id)).toMatchObject({ status: "expired", attempts: 0 })
      expect(yield* eventNamesOf(v.id), "a later read fires nothing more").toEqual(["verification.expired"])
      return outcome
    })

  platformTest("check with the right code at expires_at answers expired and counts nothing", function* () {
    const outcome = yield* expiredBy("check", (p, id, code) => check(p, id, code))
    expect(outcome).toMatchObject({ _tag: "Right", right: { status: "expired", attempts: 0 } })
  })

  platformTest("read answers expired", function* () {
    const outcome = yield* expiredBy("read", (p, id) => read(p, id))
    expect(outcome).toMatchObject({ _tag: "Right", right: { status: "expired" } })
  })

  platformTest("cancel answers 409 not_cancelable with status expired", function* () {
    const outcome = yield* expiredBy("cancel", (p, id) => cancel(p, id))
    expect(outcome).toMatchObject({ _tag: "Left", left: { _tag: "not_cancelable", status: "expired" } })
  })

  platformTest("resend answers 409 not_resendable with status expired, and sends nothing", function* () {
    const outcome = yield* expiredBy("resend", (p, id) => resend(p, id))
    expect(outcome).toMatchObject({ _tag: "Left", left: { _tag: "not_resendable", status: "expired" } })
  })

  platformTest("one millisecond before expires_at the code still verifies (lifetime default 10 minutes)", function* () {
    const { p } = yield* setup()
    const v = yield* start(p, to)
    yield* TestClock.adjust(minutes(10) - 1)
    expect((yield* check(p, v.id, yield* latestCode(to))).status).toBe("verified")
  })
})

describe("cancel of an active verification: canceled, no event", () => {
  platformTest("cancel answers canceled; the code no longer verifies; nothing is written to the outbox", function* () {
    const { p } = yield* setup()
    const v = yield* start(p, to)
    const code = yield* latestCode(to)
    expect(yield* cancel(p, v.id)).toMatchObject({ status: "canceled" })
    expect(yield* check(p, v.id, code)).toMatchObject({ status: "canceled", attempts: 0 })
    yield* TestClock.adjust(minutes(30))
    expect((yield* read(p, v.id)).status).toBe("canceled")
    expect(yield* eventNamesOf(v.id)).toEqual([])
  })
})

describe("resend and cancel of a terminal verification: 409 not_resendable / not_cancelable with the current status", () => {
  platformTest("verified, failed, canceled, expired: each answers its own status", function* () {
    const { p } = yield* setup({ settings: { max_attempts: 1 } })
    const verified = yield* start(p, "0551000001")
    yield* check(p, verified.id, yield* latestCode("0551000001"))
    const failed = yield* start(p, "0551000002")
    yield* check(p, failed.id, wrongCode(yield* latestCode("0551000002")))
    const canceled = yield* start(p, "0551000003")
    yield* cancel(p, canceled.id)
    const expired = yield* start(p, "0551000004")
    yield* TestClock.adjust(minutes(10))
    yield* read(p, expired.id)
    for (
      const [v, status] of [[verified, "verified"], [failed, "failed"], [canceled, "canceled"], [
        expired,
        "expired",
      ]] as const
    ) {
      expect(yield* Effect.flip(resend(p, v.id))).toMatchObject({ _tag: "not_resendable", status })
      expect(yield* Effect.flip(cancel(p, v.id))).toMatchObject({ _tag: "not_cancelable", status })
      expect((yield* read(p, v.id)).status).toBe(status)
    }
  })
})

describe("resend: up to 3 resends per verification, then 429 resend_limit_reached", () => {
  platformTest("three resends each send a new text; the fourth is refused and sends nothing", function* () {
    const { p } = yield* setup()
    const v = yield* start(p, to)
    for (let i = 0; i < 3; i++) expect((yield* resend(p, v.id)).status).toBe("pending")
    expect(yield* textsTo(to)).toHaveLength(4)
    expect(yield* Effect.flip(resend(p, v.id))).toMatchObject({ _tag: "resend_limit_reached" })
    expect(yield* textsTo(to)).toHaveLength(4)
  })
})

describe("resend sends a new code (the previous one stops working), restarts expires_at, keeps attempts", () => {
  platformTest(
    "after a wrong check and a resend 8 minutes in: attempts 1 kept, expires_at now + 10 min, old code refused",
    function* () {
      const { p } = yield* setup()
      const v = yield* start(p, to)
      const first = yield* latestCode(to)
      yield* check(p, v.id, wrongCode(first))
      yield* TestClock.adjust(minutes(8))
      const resent = yield* resend(p, v.id)
      expect(resent).toMatchObject({ status: "pending", attempts: 1, expires_at: "1970-01-01T00:18:00.000Z" })
      const second = yield* latestCode(to)
      if (second !== first) {
        expect(yield* check(p, v.id, first)).toMatchObject({ status: "pending", attempts: 2 })
      }
      yield* TestClock.adjust(minutes(9))
      expect(yield* check(p, v.id, second)).toMatchObject({ status: "verified" })
    },
  )

  platformTest("the previous code stops working even when checked first (code hashes differ per resend)", function* () {
    const { p } = yield* setup({ settings: { max_attempts: 5 } })
    const v = yield* start(p, to)
    const codes = [yield* latestCode(to)]
    for (let i = 0; i < 3; i++) {
      yield* resend(p, v.id)
      codes.push(yield* latestCode(to))
    }
    const current = codes[3]
    const stale = codes.slice(0, 3).filter((c) => c !== current)
    for (const c of stale) expect((yield* check(p, v.id, c)).status).toBe("pending")
    expect((yield* check(p, v.id, current)).status).toBe("verified")
  })
})

describe("404 not_found: an unknown id, or another application's verification", () => {
  platformTest(
    "check, read, resend and cancel answer not_found for a malformed id, an unknown id and another application's id",
    function* () {
      const mine = yield* setup()
      const theirs = yield* setup()
      const v = yield* start(theirs.p, to)
      const code = yield* latestCode(to)
      for (const id of ["nope", "00000000-0000-4000-8000-000000000000", v.id]) {
        expect(yield* Effect.flip(check(mine.p, id, code))).toMatchObject({ _tag: "not_found" })
        expect(yield* Effect.flip(read(mine.p, id))).toMatchObject({ _tag: "not_found" })
        expect(yield* Effect.flip(resend(mine.p, id))).toMatchObject({ _tag: "not_found" })
        expect(yield* Effect.flip(cancel(mine.p, id))).toMatchObject({ _tag: "not_found" })
      }
      expect((yield* read(theirs.p, v.id)).status).toBe("pending")
    },
  )
})
