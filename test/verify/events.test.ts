/**
 * Verification events (spec Section 6): written to the outbox in the transaction of the move, `data`
 * is the verification (Resources table); test keys fire them with mode `test`; canceling fires none.
 */
import { describe, expect } from "@effect/vitest"
import { TestClock } from "effect"
import {
  cancel,
  check,
  eventsOf,
  latestCode,
  minutes,
  platformTest,
  read,
  resend,
  setup,
  start,
  to,
  wrongCode,
} from "./harness.ts"

describe("verification.verified: data is the verification as check answers it", () => {
  platformTest(
    "one event, data equal to the check's answer, with the account and application it belongs to",
    function* () {
      const { accountId, applicationId, p } = yield* setup()
      yield* TestClock.setTime(Date.parse("2026-03-01T10:00:00.000Z"))
      const v = yield* start(p, to, { reference: "order-9" })
      yield* TestClock.adjust(minutes(2))
      const answer = yield* check(p, v.id, yield* latestCode(to))
      const events = yield* eventsOf(v.id)
      expect(events).toHaveLength(1)
      expect(events[0]).toMatchObject({
        event: "verification.verified",
        accountId,
        applicationId,
        externalId: null,
        createdAt: Date.parse("2026-03-01T10:02:00.000Z"),
      })
      expect(events[0].data).toEqual(answer)
      expect(events[0].data).toEqual({
        id: v.id,
        status: "verified",
        application_id: applicationId,
        reference: "order-9",
        channel: "sms",
        to,
        mode: "live",
        attempts: 1,
        expires_at: "2026-03-01T10:10:00.000Z",
        verified_at: "2026-03-01T10:02:00.000Z",
        created_at: "2026-03-01T10:00:00.000Z",
      })
    },
  )
})

describe("verification.failed: attempts ran out without a match", () => {
  platformTest("one event whose data has status failed and the attempts used", function* () {
    const { p } = yield* setup({ settings: { max_attempts: 2 } })
    const v = yield* start(p, to)
    const bad = wrongCode(yield* latestCode(to))
    yield* check(p, v.id, bad)
    yield* check(p, v.id, bad)
    yield* check(p, v.id, bad)
    const events = yield* eventsOf(v.id)
    expect(events.map((e) => e.event)).toEqual(["verification.failed"])
    expect(events[0].data).toMatchObject({ status: "failed", attempts: 2, verified_at: null })
  })
})

describe("verification.expired: the code expired unused", () => {
  platformTest("one event whose data has status expired", function* () {
    const { p } = yield* setup()
    const v = yield* start(p, to)
    yield* TestClock.adjust(minutes(11))
    yield* read(p, v.id)
    yield* read(p, v.id)
    const events = yield* eventsOf(v.id)
    expect(events.map((e) => e.event)).toEqual(["verification.expired"])
    expect(events[0].data).toMatchObject({ id: v.id, status: "expired", attempts: 0 })
  })
})

describe("test-key codes fire the same events with mode test", () => {
  platformTest("verified, failed and expired events of a test key carry mode test", function* () {
    const numbers = ["+966551000001", "+966551000002", "+966551000003"]
    const { p } = yield* setup({ mode: "test", proven: numbers, settings: { max_attempts: 1 } })
    const a = yield* start(p, numbers[0])
    yield* check(p, a.id, yield* latestCode(numbers[0]))
    const b = yield* start(p, numbers[1])
    yield* check(p, b.id, wrongCode(yield* latestCode(numbers[1])))
    const c = yield* start(p, numbers[2])
    yield* TestClock.adjust(minutes(10))
    yield* check(p, c.id, "000000")
    for (
      const [id, event] of [[a.id, "verification.verified"], [b.id, "verification.failed"], [
        c.id,
        "verification.expired",
      ]]
    ) {
      const events = yield* eventsOf(id)
      expect(events.map((e) => [e.event, e.data.mode])).toEqual([[event, "test"]])
    }
  })
})

describe("start, wrong checks, resend and cancel fire no event", () => {
  platformTest("a verification started, checked wrong, resent and canceled has no event", function* () {
    const { p } = yield* setup()
    const v = yield* start(p, to)
    yield* check(p, v.id, wrongCode(yield* latestCode(to)))
    yield* resend(p, v.id)
    yield* cancel(p, v.id)
    yield* TestClock.adjust(minutes(60))
    yield* read(p, v.id)
    expect(yield* eventsOf(v.id)).toEqual([])
  })
})
