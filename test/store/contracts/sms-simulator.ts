/** The SMS simulator's store contract: its log. */
import { assert } from "@effect/vitest"
import { Effect } from "effect"
import type { SaudiMobile } from "../../../core/shared/brands.ts"
import { SimulatedSmsRepo } from "../../../ports/store/mod.ts"
import { isDefect, type It, uuid } from "../fixtures.ts"

export const contract = (it: It) => {
  it.effect("simulated SMS: listTo is newest first, per number, limited", () =>
    Effect.gen(function* () {
      const sms = yield* SimulatedSmsRepo
      const to = `+9665${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}` as SaudiMobile
      const other = "+966599999999" as SaudiMobile
      const m = (sentAt: number, text: string, dest = to) => ({ id: uuid(), to: dest, text, sentAt })
      const [m1, m2, m3, m4] = [
        m(1_000, "code 1234"),
        m(3_000, "code 5678"),
        m(2_000, "[TEST] 0000"),
        m(3_000, "again"),
      ]
      yield* Effect.forEach([m1, m2, m3, m4, m(9_000, "elsewhere", other)], sms.append)
      assert.deepStrictEqual(yield* sms.listTo(to, 10), [m4, m2, m3, m1])
      assert.deepStrictEqual(yield* sms.listTo(to, 2), [m4, m2])
      assert.deepStrictEqual(yield* sms.listTo("+966500000009" as SaudiMobile, 10), [])
      assert.isTrue(isDefect(yield* Effect.exit(sms.append(m1))))
    }))
}
