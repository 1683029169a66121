/**
 * Lifting the pause the protection guard set (spec Section 3, `service.unpaused`): codes go out again.
 * Unpausing an application that is not paused answers it unchanged and fires nothing.
 */
import { Clock, Effect, Option } from "effect"
import { ApplicationsRepo } from "../../ports/store/accounts.ts"
import { Transactor } from "../../ports/store/transactor.ts"
import { notFound } from "../errors.ts"
import type { ApplicationId } from "../shared/brands.ts"
import type { Application } from "./model.ts"
import { serviceEvent } from "./service-events.ts"
import { untracedStacks } from "../shared/tracing.ts"

export const unpauseApplication = Effect.fn("Accounts.unpause", untracedStacks)(
  function* (applicationId: ApplicationId) {
    const apps = yield* ApplicationsRepo
    return yield* (yield* Transactor).withTransaction(Effect.gen(function* () {
      const found = yield* apps.getForUpdate(applicationId)
      if (Option.isNone(found)) return yield* notFound
      if (!found.value.paused) return found.value
      const now = yield* Clock.currentTimeMillis
      const unpaused: Application = { ...found.value, paused: false, unpausedAt: now }
      yield* apps.update(unpaused)
      yield* serviceEvent(unpaused, "service.unpaused", now, { paused: false })
      return unpaused
    }))
  },
)
