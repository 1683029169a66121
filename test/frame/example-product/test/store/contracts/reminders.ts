/** The Reminders product's store contract: the same answers from the memory store, PGlite and PostgreSQL. */
import { assert } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { Reminder } from "../../../core/reminders/model.ts"
import type { ApplicationId } from "../../../core/shared/brands.ts"
import { RemindersRepo } from "../../../ports/store/reminders.ts"
import { type It, uuid } from "../fixtures.ts"

const reminder = (applicationId: ApplicationId, dueAt: number, createdAt: number): Reminder => ({
  id: uuid(),
  applicationId,
  text: "call back",
  dueAt,
  status: "scheduled",
  createdAt,
})

export const contract = (it: It) => {
  it.effect("reminders: counted and listed per application, oldest first; sendDue sends exactly what fell due", () =>
    Effect.gen(function* () {
      const repo = yield* RemindersRepo
      const app = uuid() as ApplicationId
      const other = uuid() as ApplicationId
      // Far in the past, so that no other test's reminder is due before these.
      const a = reminder(app, 1_000, 10)
      const b = reminder(app, 5_000, 20)
      yield* repo.insert(b)
      yield* repo.insert(a)
      yield* repo.insert(reminder(other, 9_000_000_000_000, 30))
      assert.strictEqual(yield* repo.countScheduled(app), 2)
      assert.deepStrictEqual((yield* repo.list(app)).map((r) => r.id), [a.id, b.id])
      assert.isTrue(Option.isSome(yield* repo.earliestDue))
      assert.isTrue((yield* repo.sendDue(1_000)) >= 1)
      assert.deepStrictEqual((yield* repo.list(app)).map((r) => r.status), ["sent", "scheduled"])
      assert.strictEqual(yield* repo.countScheduled(app), 1)
      assert.strictEqual(yield* repo.countScheduled(other), 1)
    }))
}
