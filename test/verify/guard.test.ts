/**
 * The protection guard (spec Section 3 `service.paused`, DECISIONS 6): an application is paused when, in
 * a rolling hour, at least `guard.min_sends` codes went out and under `guard.min_verified_percent` of them
 * were verified; sends then answer `403 application_paused` until the pause is lifted.
 */
import { describe, expect } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { unpauseApplication } from "../../core/accounts/unpause.ts"
import type { ApplicationId } from "../../core/shared/brands.ts"
import {
  allEvents,
  applicationOf,
  check,
  latestCode,
  minutes,
  mobile,
  platformTest,
  resend,
  setup,
  start,
} from "./harness.ts"

const guard = { guard: { min_sends: 5, min_verified_percent: 50 } }

const serviceEvents = (name: string) => Effect.map(allEvents, (es) => es.filter((e) => e.event === name))

describe("403 application_paused: the guard pauses at min_sends sends under min_verified_percent verified", () => {
  platformTest(
    "five unverified sends: the fifth goes out, then start and resend answer application_paused",
    function* () {
      const { applicationId, p } = yield* setup({ settings: guard })
      const ids: Array<string> = []
      for (let i = 0; i < 4; i++) ids.push((yield* start(p, mobile(i))).id)
      expect((yield* applicationOf(applicationId)).paused).toBe(false)
      ids.push((yield* start(p, mobile(4))).id)
      expect((yield* applicationOf(applicationId)).paused).toBe(true)
      expect(yield* Effect.flip(start(p, mobile(5)))).toMatchObject({ _tag: "application_paused" })
      expect(yield* Effect.flip(resend(p, ids[0]))).toMatchObject({ _tag: "application_paused" })
    },
  )

  platformTest("checks still work while paused: codes already sent can be verified", function* () {
    const { p } = yield* setup({ settings: guard })
    let last = ""
    for (let i = 0; i < 5; i++) last = (yield* start(p, mobile(i))).id
    expect((yield* check(p, last, yield* latestCode(mobile(4)))).status).toBe("verified")
  })

  platformTest("at least min_verified_percent verified keeps it running (3 of 5 verified is 60%)", function* () {
    const { applicationId, p } = yield* setup({ settings: guard })
    for (let i = 0; i < 8; i++) {
      const v = yield* start(p, mobile(i))
      if (i < 5) yield* check(p, v.id, yield* latestCode(mobile(i)))
    }
    // 8 sends, 5 verified (62.5%): still running.
    expect((yield* applicationOf(applicationId)).paused).toBe(false)
    for (let i = 8; i < 10; i++) yield* start(p, mobile(i))
    // 10 sends, 5 verified: 50% is not under 50%.
    expect((yield* applicationOf(applicationId)).paused).toBe(false)
    yield* start(p, mobile(10))
    // 11 sends, 5 verified: 45%.
    expect((yield* applicationOf(applicationId)).paused).toBe(true)
  })

  platformTest("the hour rolls: sends older than an hour are not counted", function* () {
    const { applicationId, p } = yield* setup({ settings: guard })
    for (let i = 0; i < 4; i++) yield* start(p, mobile(i))
    yield* TestClock.adjust(minutes(60) + 1)
    yield* start(p, mobile(4))
    expect((yield* applicationOf(applicationId)).paused).toBe(false)
  })

  platformTest("guard disabled: never paused", function* () {
    const { applicationId, p } = yield* setup({
      settings: { guard: { enabled: false, min_sends: 1, min_verified_percent: 100 } },
    })
    for (let i = 0; i < 6; i++) yield* start(p, mobile(i))
    expect((yield* applicationOf(applicationId)).paused).toBe(false)
  })

  platformTest(
    "defaults: at least 100 sends and under 10% verified (10 of 100 keeps running, 10 of 101 pauses)",
    function* () {
      const { applicationId, p } = yield* setup({ balance: 2_000 })
      for (let i = 0; i < 100; i++) {
        const v = yield* start(p, mobile(i))
        if (i < 10) yield* check(p, v.id, yield* latestCode(mobile(i)))
      }
      expect((yield* applicationOf(applicationId)).paused).toBe(false)
      yield* start(p, mobile(100))
      expect((yield* applicationOf(applicationId)).paused).toBe(true)
    },
  )
})

describe("service.paused is recorded in the outbox, once", () => {
  platformTest(
    "the pause appends one service.paused with service_id, application_id, external_id, status, paused",
    function* () {
      const { accountId, applicationId, p } = yield* setup({ settings: guard })
      yield* TestClock.setTime(Date.parse("2026-03-01T10:00:00.000Z"))
      for (let i = 0; i < 5; i++) yield* start(p, mobile(i))
      for (let i = 5; i < 8; i++) yield* Effect.flip(start(p, mobile(i)))
      const paused = yield* serviceEvents("service.paused")
      expect(paused).toHaveLength(1)
      expect(paused[0]).toMatchObject({
        applicationId,
        accountId,
        externalId: null,
        createdAt: Date.parse("2026-03-01T10:00:00.000Z"),
        data: {
          service_id: applicationId,
          application_id: applicationId,
          external_id: null,
          status: "active",
          paused: true,
        },
      })
    },
  )
})

describe("unpause lifts the pause; codes go out again; service.unpaused fires", () => {
  platformTest("unpauseApplication clears paused, appends service.unpaused, and the next start is sent", function* () {
    const { applicationId, p } = yield* setup({ settings: guard })
    for (let i = 0; i < 5; i++) yield* start(p, mobile(i))
    expect(yield* Effect.flip(start(p, mobile(5)))).toMatchObject({ _tag: "application_paused" })
    const answered = yield* unpauseApplication(applicationId)
    expect(answered).toMatchObject({ id: applicationId, paused: false })
    expect((yield* applicationOf(applicationId)).paused).toBe(false)
    const unpaused = yield* serviceEvents("service.unpaused")
    expect(unpaused).toHaveLength(1)
    expect(unpaused[0]).toMatchObject({
      applicationId,
      data: { service_id: applicationId, application_id: applicationId, paused: false },
    })
    expect((yield* start(p, mobile(5))).status).toBe("pending")
  })

  platformTest("unpausing an application that is not paused answers it and fires nothing", function* () {
    const { applicationId } = yield* setup()
    expect(yield* unpauseApplication(applicationId)).toMatchObject({ id: applicationId, paused: false })
    expect(yield* serviceEvents("service.unpaused")).toEqual([])
  })

  platformTest("an unknown application answers not_found", function* () {
    const e = yield* Effect.flip(unpauseApplication("00000000-0000-4000-8000-000000000000" as ApplicationId))
    expect(e).toMatchObject({ _tag: "not_found" })
  })
})
