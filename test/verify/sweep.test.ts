/**
 * The periodic sweep (spec Section 3): every ten minutes on the platform clock it picks codes at least
 * five minutes past `expires_at`, expires them and fires `verification.expired` once, also when two
 * processes sweep at the same time. Here on the TestClock; the schedule over HTTP is in sweep-http.test.ts.
 */
import { describe, expect } from "@effect/vitest"
import { Effect, Option, TestClock } from "effect"
import { Verify } from "../../core/verify/service.ts"
import { JobsRepo } from "../../ports/store/jobs.ts"
import {
  cancel,
  check,
  eventNamesOf,
  eventsOf,
  latestCode,
  minutes,
  mobile,
  platformTest,
  read,
  setup,
  start,
  storedVerification,
  to,
} from "./harness.ts"

/** A sweep that skips the job lease, as if this process had won the run. */
const sweepNow = Effect.flatMap(Verify, (v) => v.sweep(() => Effect.succeed(true)))
/** A sweep that takes the shared job lease first, as the job loop does. */
const sweepLeased = Effect.flatMap(JobsRepo, (jobs) => Effect.flatMap(Verify, (v) => v.sweep(jobs.claim)))

const statusOf = (id: string) => Effect.map(storedVerification(id), (o) => Option.getOrThrow(o).status)

describe("the sweep picks a pending code at least five minutes after expires_at", () => {
  platformTest(
    "at expires_at + 4:59.999 it is left pending; at expires_at + 5:00 it is expired with one event",
    function* () {
      const { p } = yield* setup()
      const v = yield* start(p, to) // expires at 10:00
      yield* TestClock.adjust(minutes(15) - 1)
      expect(yield* sweepNow).toBe(0)
      expect(yield* statusOf(v.id)).toBe("pending")
      expect(yield* eventNamesOf(v.id)).toEqual([])
      yield* TestClock.adjust(1)
      expect(yield* sweepNow).toBe(1)
      expect(yield* statusOf(v.id)).toBe("expired")
      const events = yield* eventsOf(v.id)
      expect(events.map((e) => e.event)).toEqual(["verification.expired"])
      expect(events[0].data).toMatchObject({ id: v.id, status: "expired", mode: "live" })
      expect(yield* read(p, v.id)).toMatchObject({ status: "expired" })
      expect(yield* sweepNow).toBe(0)
      expect(yield* eventNamesOf(v.id)).toEqual(["verification.expired"])
    },
  )

  platformTest("verified, failed and canceled verifications are left alone", function* () {
    const { p } = yield* setup({ settings: { max_attempts: 1 } })
    const verified = yield* start(p, mobile(1))
    yield* check(p, verified.id, yield* latestCode(mobile(1)))
    const failed = yield* start(p, mobile(2))
    yield* check(p, failed.id, "0")
    const canceled = yield* start(p, mobile(3))
    yield* cancel(p, canceled.id)
    yield* TestClock.adjust(minutes(60))
    expect(yield* sweepNow).toBe(0)
    expect(yield* statusOf(verified.id)).toBe("verified")
    expect(yield* statusOf(failed.id)).toBe("failed")
    expect(yield* statusOf(canceled.id)).toBe("canceled")
    expect(yield* eventNamesOf(canceled.id)).toEqual([])
  })

  platformTest("a code whose expiry was already found by a read is not expired twice", function* () {
    const { p } = yield* setup()
    const v = yield* start(p, to)
    yield* TestClock.adjust(minutes(11))
    yield* read(p, v.id)
    yield* TestClock.adjust(minutes(10))
    expect(yield* sweepNow).toBe(0)
    expect(yield* eventNamesOf(v.id)).toEqual(["verification.expired"])
  })

  platformTest("more codes than one batch (250) are all expired in one run", function* () {
    const { p } = yield* setup({
      balance: 250 * 9,
      settings: { hourly_cap_per_destination: 10_000, guard: { enabled: false } },
    })
    const ids: Array<string> = []
    for (let i = 0; i < 250; i++) ids.push((yield* start(p, mobile(i))).id)
    yield* TestClock.adjust(minutes(15))
    expect(yield* sweepNow).toBe(250)
    for (const id of ids) expect(yield* eventNamesOf(id)).toEqual(["verification.expired"])
  })
})

describe("the sweep runs every ten minutes on the platform clock (one run per period, shared by every process)", () => {
  platformTest(
    "a run claims the period: another sweep within ten minutes does nothing; at ten minutes it runs",
    function* () {
      const { p } = yield* setup()
      yield* sweepLeased // the first run at 0:00: nothing to do; next run at 10:00
      const v = yield* start(p, to) // expires at 10:00
      yield* TestClock.adjust(minutes(10))
      expect(yield* sweepLeased).toBe(0) // 10:00: runs, but the code is not five minutes past expiry; next run at 20:00
      yield* TestClock.adjust(minutes(10) - 1)
      expect(yield* sweepLeased).toBe(0) // 19:59.999: nine minutes past expiry, but no run is due
      expect(yield* statusOf(v.id)).toBe("pending")
      yield* TestClock.adjust(1)
      expect(yield* sweepLeased).toBe(1) // 20:00
      expect(yield* eventNamesOf(v.id)).toEqual(["verification.expired"])
    },
  )
})

describe("two sweeps at once fire verification.expired once", () => {
  platformTest(
    "two concurrent runs that both think they won: each code is expired by exactly one of them",
    function* () {
      const { p } = yield* setup({ settings: { hourly_cap_per_destination: 100 } })
      const ids: Array<string> = []
      for (let i = 0; i < 20; i++) ids.push((yield* start(p, mobile(i))).id)
      yield* TestClock.adjust(minutes(15))
      const [a, b] = yield* Effect.all([sweepNow, sweepNow], { concurrency: 2 })
      expect(a + b).toBe(20)
      for (const id of ids) expect(yield* eventNamesOf(id)).toEqual(["verification.expired"])
    },
  )

  platformTest("two concurrent leased runs: one wins the period, the other does nothing", function* () {
    const { p } = yield* setup()
    const v = yield* start(p, to)
    yield* TestClock.adjust(minutes(15))
    const counts = yield* Effect.all([sweepLeased, sweepLeased], { concurrency: 2 })
    expect(counts.slice().sort()).toEqual([0, 1])
    expect(yield* eventNamesOf(v.id)).toEqual(["verification.expired"])
  })

  platformTest("a sweep racing a check of the same expired code: one verification.expired in all", function* () {
    const { p } = yield* setup()
    const v = yield* start(p, to)
    const code = yield* latestCode(to)
    yield* TestClock.adjust(minutes(15))
    const [, checked] = yield* Effect.all([sweepNow, check(p, v.id, code)], { concurrency: 2 })
    expect(checked.status).toBe("expired")
    expect(yield* eventNamesOf(v.id)).toEqual(["verification.expired"])
  })
})
