/**
 * The demo account (DECISIONS 1): on an empty store with the simulators, an approved application with
 * 100.00 SAR, a live key and a test key, and the test key's proven destination `+966500000000`.
 */
import { Clock, Effect } from "effect"
import { Console } from "../core/console/service.ts"
import { AccountsRepo } from "../ports/store/accounts.ts"
import { JobsRepo } from "../ports/store/jobs.ts"

export interface Demo {
  readonly accountId: string
  readonly applicationId: string
  readonly liveKey: string
  readonly testKey: string
  readonly provenDestination: string
}

export const DemoBalanceHalalas = 10_000
export const DemoProvenDestination = "+966500000000"

export const seedDemo = Effect.gen(function* () {
  if ((yield* (yield* AccountsRepo).count) > 0) return undefined as Demo | undefined
  // Several processes may start on one empty store at once: one of them seeds.
  if (!(yield* (yield* JobsRepo).claim("demo.seed", yield* Clock.currentTimeMillis, Number.MAX_SAFE_INTEGER))) {
    return undefined
  }
  const c = yield* Console
  const account = yield* c.createAccount({ name: "Demo" })
  const app = yield* c.createApplication(account.id, { name: "Demo app", approved: true })
  yield* c.creditWallet(account.id, { amount_halalas: DemoBalanceHalalas })
  const live = yield* c.createKey(app.id, { mode: "live" })
  const test = yield* c.createKey(app.id, { mode: "test" })
  yield* c.addSandboxDestination(account.id, { to: DemoProvenDestination })
  const demo: Demo = {
    accountId: account.id,
    applicationId: app.id,
    liveKey: live.key,
    testKey: test.key,
    provenDestination: DemoProvenDestination,
  }
  return demo as Demo | undefined
})
