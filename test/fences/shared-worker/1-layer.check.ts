// Run by test/fences/shared-worker.test.ts: a file whose `layer(…)` leaves no test services, as the store suites do.
import { layer } from "@effect/vitest"
import { Effect, Layer } from "effect"

layer(Layer.empty, { excludeTestServices: true })("a layer without test services", (it) => {
  it.effect("runs", () => Effect.void)
})
