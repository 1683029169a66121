/** The Reminders product's repository, in its own terms. */
import { Context, type Effect, type Option } from "effect"
import type { Reminder } from "../../core/reminders/model.ts"
import type { ApplicationId } from "../../core/shared/brands.ts"

export class RemindersRepo extends Context.Tag("RemindersRepo")<RemindersRepo, {
  readonly insert: (reminder: Reminder) => Effect.Effect<void>
  readonly countScheduled: (applicationId: ApplicationId) => Effect.Effect<number>
  /** The application's reminders, oldest first (then the earliest due). */
  readonly list: (applicationId: ApplicationId) => Effect.Effect<ReadonlyArray<Reminder>>
  /** When the earliest scheduled reminder falls due. */
  readonly earliestDue: Effect.Effect<Option.Option<number>>
  /** Marks every scheduled reminder due at or before `now` as sent; answers how many. */
  readonly sendDue: (now: number) => Effect.Effect<number>
}>() {}
