/**
 * The demo account (DECISIONS 1): on an empty store with the simulators, an approved application with
 * 100.00 SAR, a live key and a test key, and the test key's proven destination `+966500000000`.
 */
import { Clock, Effect, Option } from "effect"
import { Console } from "../core/console/service.ts"
import { VerifyConsole } from "../core/verify/console.ts"
import { WalletConsole } from "../core/wallet/console.ts"
import { AccountsRepo, ApplicationsRepo } from "../ports/store/accounts.ts"
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
/** The demo application's `external_id`, by which `--demo` finds it again. */
export const DemoExternalId = "demo"

/**
 * `npm start -- --demo` on a store the demo was seeded in: a fresh live and test key for the demo
 * application (the first ones were printed once, by the start that created them). The old keys stay valid.
 */
export const reissueDemoKeys = Effect.gen(function* () {
  const account = yield* (yield* AccountsRepo).oldest
  if (Option.isNone(account) || account.value.name !== "Demo") return undefined as Demo | undefined
  const app = yield* (yield* ApplicationsRepo).findInAccount(account.value.id, DemoExternalId)
  if (Option.isNone(app)) return undefined
  const c = yield* Console
  const live = yield* c.createKey(app.value.id, { mode: "live" })
  const test = yield* c.createKey(app.value.id, { mode: "test" })
  const demo: Demo = {
    accountId: account.value.id,
    applicationId: app.value.id,
    liveKey: live.key,
    testKey: test.key,
    provenDestination: DemoProvenDestination,
  }
  return demo as Demo | undefined
})

export const seedDemo = Effect.gen(function* () {
  if ((yield* (yield* AccountsRepo).count) > 0) return undefined as Demo | undefined
  // Several processes may start on one empty store at once: one of them seeds.
  if (!(yield* (yield* JobsRepo).claim("demo.seed", yield* Clock.currentTimeMillis, Number.MAX_SAFE_INTEGER))) {
    return undefined
  }
  const c = yield* Console
  const account = yield* c.createAccount({ name: "Demo" })
  const app = yield* c.createApplication(account.id, { name: "Demo app", approved: true, external_id: DemoExternalId })
  yield* (yield* WalletConsole).creditWallet(account.id, { amount_halalas: DemoBalanceHalalas })
  const live = yield* c.createKey(app.id, { mode: "live" })
  const test = yield* c.createKey(app.id, { mode: "test" })
  yield* (yield* VerifyConsole).addSandboxDestination(account.id, { to: DemoProvenDestination })
  const demo: Demo = {
    accountId: account.id,
    applicationId: app.id,
    liveKey: live.key,
    testKey: test.key,
    provenDestination: DemoProvenDestination,
  }
  return demo as Demo | undefined
})
