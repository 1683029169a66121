import { assert } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { AccountId, ApplicationId, EventId } from "../../../../core/shared/brands.ts"
import { JobsRepo, type OutboxEvent, OutboxRepo } from "../../../../ports/store/mod.ts"
import { isDefect, type It, uuid } from "../../fixtures.ts"

const event = (createdAt: number, over: Partial<OutboxEvent> = {}): OutboxEvent => ({
  id: uuid() as EventId,
  event: "verification.verified",
  data: { id: uuid(), status: "verified", nested: { n: 1, list: [1, "two", null] } },
  applicationId: uuid() as ApplicationId,
  accountId: uuid() as AccountId,
  externalId: null,
  createdAt,
  ...over,
})

export const outboxAndJobsContract = (it: It) => {
  it.effect("outbox: append is all or nothing; listRecent is newest first, last appended first among equals", () =>
    Effect.gen(function* () {
      const outbox = yield* OutboxRepo
      // Far in the future, so that these are the most recent events of the suite.
      const a = event(9_000_000_000_001)
      const b = event(9_000_000_000_003, { applicationId: null, externalId: "client-7" })
      const c = event(9_000_000_000_002)
      const d = event(9_000_000_000_002, { event: "service.paused" })
      yield* outbox.append([])
      yield* outbox.append([a, b])
      yield* outbox.append([c, d])
      assert.deepStrictEqual(yield* outbox.listRecent(3), [b, d, c])
      assert.deepStrictEqual((yield* outbox.listRecent(4))[3], a)
      const e = event(9_000_000_000_009)
      assert.isTrue(isDefect(yield* Effect.exit(outbox.append([e, a]))))
      assert.deepStrictEqual(yield* outbox.listRecent(1), [b])
    }))

  it.effect("jobs: a never-seen job is due at once; then only when next_run_at is reached", () =>
    Effect.gen(function* () {
      const jobs = yield* JobsRepo
      const name = `sweep-${uuid()}`
      assert.isTrue(Option.isNone(yield* jobs.nextRunAt(name)))
      assert.isTrue(yield* jobs.claim(name, 1_000, 2_000))
      assert.deepStrictEqual(yield* jobs.nextRunAt(name), Option.some(2_000))
      assert.isFalse(yield* jobs.claim(name, 1_999, 3_000))
      assert.isTrue(yield* jobs.claim(name, 2_000, 3_000))
      assert.deepStrictEqual(yield* jobs.nextRunAt(name), Option.some(3_000))
    }))

  it.effect("jobs: 10 concurrent callers, new or due job: exactly one wins", () =>
    Effect.gen(function* () {
      const jobs = yield* JobsRepo
      const name = `sweep-${uuid()}`
      const claimAll = (now: number, next: number) =>
        Effect.all(Array.from({ length: 10 }, () => jobs.claim(name, now, next)), { concurrency: "unbounded" })
      assert.strictEqual((yield* claimAll(1_000, 2_000)).filter(Boolean).length, 1)
      assert.strictEqual((yield* claimAll(2_500, 5_000)).filter(Boolean).length, 1)
      assert.deepStrictEqual(yield* jobs.nextRunAt(name), Option.some(5_000))
    }))
}
