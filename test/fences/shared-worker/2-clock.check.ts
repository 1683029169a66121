// Run by test/fences/shared-worker.test.ts after 1-layer.check.ts, in the same worker: `it.effect` has TestClock.
import { it } from "@effect/vitest"
import { Duration, Effect, Fiber, TestClock } from "effect"

it.effect("TestClock moves time", () =>
  Effect.gen(function* () {
    const fiber = yield* Effect.fork(Effect.sleep(Duration.hours(1)))
    yield* TestClock.adjust(Duration.hours(1))
    yield* Fiber.join(fiber)
  }))
