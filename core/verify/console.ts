/** Verify's console use cases (DECISIONS 2): an application's Verify settings, an account's proven destinations. */
import { Effect, Option } from "effect"
import { Transactor } from "../../ports/store/transactor.ts"
import { SandboxDestinationsRepo, VerifySettingsRepo } from "../../ports/store/verify.ts"
import { Console } from "../console/service.ts"
import { InvalidRequest } from "../errors.ts"
import type { Json } from "../shared/json.ts"
import { parseSaudiMobile } from "../shared/phone.ts"
import { untracedStacks } from "../shared/tracing.ts"
import { Verify } from "./service.ts"
import { updateSettings } from "./settings.ts"

export class VerifyConsole extends Effect.Service<VerifyConsole>()("core/VerifyConsole", {
  effect: Effect.gen(function* () {
    const operator = yield* Console
    const tx = yield* Transactor
    const settings = yield* VerifySettingsRepo
    const sandbox = yield* SandboxDestinationsRepo
    const verify = yield* Verify

    const putVerifySettings = Effect.fn("VerifyConsole.putVerifySettings", untracedStacks)(
      function* (applicationId: string, body: Json) {
        const app = yield* operator.application(applicationId)
        return yield* tx.withTransaction(Effect.gen(function* () {
          const next = yield* updateSettings(yield* verify.settingsOf(app), body)
          yield* settings.put(app.id, next)
          return next
        }))
      },
    )

    const addSandboxDestination = Effect.fn("VerifyConsole.addSandboxDestination", untracedStacks)(
      function* (accountId: string, body: Json) {
        const owner = yield* operator.account(accountId)
        const to = typeof body.to === "string" ? parseSaudiMobile(body.to) : Option.none()
        if (Option.isNone(to)) {
          return yield* new InvalidRequest({
            message: "`to` must be a Saudi mobile number.",
            fields: { to: "invalid" },
          })
        }
        yield* sandbox.add(owner.id, to.value)
        return { to: to.value }
      },
    )

    return { putVerifySettings, addSandboxDestination } as const
  }),
}) {}
