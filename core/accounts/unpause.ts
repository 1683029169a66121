/**
 * Lifting the pause the protection guard set (spec Section 3, `service.unpaused`): codes go out again.
 * Unpausing an application that is not paused answers it unchanged and fires nothing (DECISIONS 16).
 */
import { Effect } from "effect"
import type { ApplicationId } from "../shared/brands.ts"
import { ApplicationLifecycle } from "./lifecycle.ts"

export const unpauseApplication = (applicationId: ApplicationId) =>
  Effect.flatMap(
    ApplicationLifecycle,
    (lifecycle) => Effect.map(lifecycle.move(applicationId, { _tag: "Unpause" }), (moved) => moved.application),
  )
