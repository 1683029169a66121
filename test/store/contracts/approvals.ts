/** The approvals product's store contract: the console's pending list (the rest is held by the account API's tests). */
import { assert } from "@effect/vitest"
import { Effect } from "effect"
import { newApproval } from "../../../core/approvals/model.ts"
import type { AccountId, Millis } from "../../../core/shared/brands.ts"
import { ApprovalsRepo } from "../../../ports/store/approvals.ts"
import { type It, uuid } from "../fixtures.ts"

export const contract = (it: It) => {
  it.effect("approvals: pending lists the pending, unexpired ones of every account, newest first, at most `limit`", () =>
    Effect.gen(function* () {
      const repo = yield* ApprovalsRepo
      // Far in the future, so approvals other tests made on this store are expired at `at`.
      const base = 8_000_000_000_000
      const ask = (createdAt: number) =>
        newApproval({
          id: uuid(),
          accountId: uuid() as AccountId,
          operation: "applications.unpause",
          input: { path: { application: uuid() }, query: {}, body: null },
          idempotencyKey: null,
          requestedBy: uuid(),
          createdAt: createdAt as Millis,
        })
      const old = ask(base)
      const newer = ask(base + 1_000)
      const decided = ask(base + 2_000)
      const expired = ask(base - 25 * 3_600_000)
      yield* Effect.forEach([old, newer, decided, expired], repo.insert)
      yield* repo.decide(decided.id, "approved", (base + 3_000) as Millis, null)
      const at = (base + 5_000) as Millis
      assert.deepStrictEqual((yield* repo.pending(at, 10)).map((a) => a.id), [newer.id, old.id])
      assert.deepStrictEqual((yield* repo.pending(at, 1)).map((a) => a.id), [newer.id])
    }))
}
