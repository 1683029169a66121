/**
 * Moves of an application's lifecycle (core/partner/lifecycle.ts) with their effects: the application and
 * its profile loaded under the row lock, the pure decision, then the state, the profile and the `service.*`
 * events written in one transaction. The console (approve, reject, pause), the account API (unpause) and the
 * Partner API (brand changes, disable, resume, archive, restore, appeal) all move through here.
 */
import { Clock, Effect, Either, Option } from "effect"
import { type ApplicationProfile, ApplicationProfilesRepo, ApplicationsRepo } from "../../ports/store/accounts.ts"
import { Transactor } from "../../ports/store/transactor.ts"
import { InvalidState, NotAppealable, notFound } from "../errors.ts"
import { decide, type Lifecycle, type LifecycleStatus, type Move } from "../partner/lifecycle.ts"
import type { ApplicationId } from "../shared/brands.ts"
import type { Application } from "./model.ts"
import { serviceEvent } from "./service-events.ts"

/** The lifecycle of an application and its profile. Statuses outside the lifecycle read as `suspended`. */
export const lifecycleOf = (app: Application, profile: ApplicationProfile): Lifecycle => ({
  status: app.status === "disabled" ? "suspended" : app.status as LifecycleStatus,
  paused: app.paused,
  approvedAt: app.approvedAt,
  reasonCode: profile.reasonCode,
  appealable: profile.appealable,
  statusBeforeArchive: profile.statusBeforeArchive,
})

/** What a move may change beside the lifecycle (a brand change writes its new values with it). */
export interface Edits {
  readonly name?: string
  readonly website?: string | null
  readonly externalId?: string | null
  readonly logo?: ApplicationProfile["logo"]
}

/** The refusals a move may meet (core/partner/lifecycle.ts `decide`): some moves are never refused. */
export type RefusalOf<M extends Move> = M extends { readonly _tag: "ChangeBrand" | "ChangeLogo" }
  ? InvalidState | NotAppealable
  : M extends { readonly _tag: "Appeal" } ? NotAppealable
  : M extends { readonly _tag: "Archive" | "Pause" | "Unpause" | "Edit" } ? never
  : InvalidState

export interface Moved {
  readonly application: Application
  readonly profile: ApplicationProfile
}

export class ApplicationLifecycle extends Effect.Service<ApplicationLifecycle>()("core/ApplicationLifecycle", {
  effect: Effect.gen(function* () {
    const apps = yield* ApplicationsRepo
    const profiles = yield* ApplicationProfilesRepo
    const tx = yield* Transactor

    /**
     * Applies `move` to the application (answering `409 invalid_state` or `409 not_appealable` when the
     * lifecycle refuses it) and `edits` beside it, in one transaction; `check` runs first under the lock
     * (e.g. that the application is the caller's), failing as it likes.
     */
    const move = <const M extends Move, E = never>(
      id: ApplicationId,
      m: M,
      edits: Edits = {},
      check: (app: Application) => Effect.Effect<void, E> = () => Effect.void,
    ) =>
      tx.withTransaction(Effect.gen(function* () {
        const found = yield* apps.getForUpdate(id)
        if (Option.isNone(found)) return yield* notFound
        const app = found.value
        yield* check(app)
        const profile = Option.getOrThrow(yield* profiles.get(id))
        const now = yield* Clock.currentTimeMillis
        const decided = decide(lifecycleOf(app, profile), m, now)
        if (Either.isLeft(decided)) {
          const { status } = decided.left
          return yield* Effect.fail<RefusalOf<M>>(
            (decided.left._tag === "NotAppealable"
              ? new NotAppealable({
                message: m._tag === "Appeal"
                  ? "Only an application rejected with an appealable reason can appeal."
                  : "The application was rejected for a reason that cannot be appealed: its brand cannot change.",
                status,
              })
              : new InvalidState({ message: `The application is ${status}: it cannot be moved so.`, status })) as // deno-lint-ignore no-explicit-any -- the refusal `decide` gave is one of the move's (RefusalOf)
              any,
          )
        }
        const { events, next } = decided.right
        const changed = events.length > 0 || Object.values(edits).some((v) => v !== undefined)
        if (!changed) return { application: app, profile } satisfies Moved
        const application: Application = {
          ...app,
          status: next.status,
          paused: next.paused,
          unpausedAt: app.paused && !next.paused ? now : app.unpausedAt,
          approvedAt: next.approvedAt,
          name: edits.name ?? app.name,
          externalId: edits.externalId !== undefined ? edits.externalId : app.externalId,
        }
        const updated: ApplicationProfile = {
          website: edits.website !== undefined ? edits.website : profile.website,
          logo: edits.logo !== undefined ? edits.logo : profile.logo,
          reasonCode: next.reasonCode,
          appealable: next.appealable,
          statusBeforeArchive: next.statusBeforeArchive,
          updatedAt: now,
        }
        yield* apps.update(application)
        yield* profiles.put(id, updated)
        for (const e of events) yield* serviceEvent(application, e.event, now, { ...e.extra }, e.previousStatus)
        return { application, profile: updated } satisfies Moved
      }))

    return { move } as const
  }),
}) {}
