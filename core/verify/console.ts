/** Verify's console use cases (DECISIONS 2): an application's Verify settings, an account's proven destinations. */
import { Effect, Option } from "effect"
import { Transactor } from "../../ports/store/transactor.ts"
import { SandboxDestinationsRepo, VerifySettingsRepo } from "../../ports/store/verify.ts"
import { Console } from "../console/service.ts"
import { parseSaudiMobile } from "../shared/phone.ts"
import { untracedStacks } from "../shared/tracing.ts"
import { Verify } from "./service.ts"
import { type SettingsChange, updateSettings } from "./settings.ts"

export class VerifyConsole extends Effect.Service<VerifyConsole>()("core/VerifyConsole", {
  effect: Effect.gen(function* () {
    const operator = yield* Console
    const tx = yield* Transactor
    const settings = yield* VerifySettingsRepo
    const sandbox = yield* SandboxDestinationsRepo
    const verify = yield* Verify

    const putVerifySettings = Effect.fn("VerifyConsole.putVerifySettings", untracedStacks)(
      function* (applicationId: string, change: SettingsChange) {
        const app = yield* operator.application(applicationId)
        return yield* tx.withTransaction(Effect.gen(function* () {
          const next = updateSettings(yield* verify.settingsOf(app), change)
          yield* settings.put(app.id, next)
          return next
        }))
      },
    )

    const addSandboxDestination = Effect.fn("VerifyConsole.addSandboxDestination", untracedStacks)(
      function* (accountId: string, input: { readonly to: string }) {
        const owner = yield* operator.account(accountId)
        // Held by the operation's Schema to a number in an accepted form: anything else is a defect.
        const to = Option.getOrThrowWith(parseSaudiMobile(input.to), () => new Error("not a Saudi mobile number"))
        yield* sandbox.add(owner.id, to)
        return { to }
      },
    )

    return { putVerifySettings, addSandboxDestination } as const
  }),
}) {}
