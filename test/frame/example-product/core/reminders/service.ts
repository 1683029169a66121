/** The Reminders use cases: schedule (at most `maxScheduled` at once per application) and list. */
import { Clock, Effect } from "effect"
import type { KeyPrincipal } from "../pipeline/authenticate.ts"
import { RemindersRepo } from "../../ports/store/reminders.ts"
import { Secrets } from "../../ports/secrets.ts"
import { TooManyReminders } from "./errors.ts"
import { type Reminder, ReminderLimits } from "./model.ts"

export interface ScheduleInput {
  readonly text: string
  readonly dueInSeconds: number
}

export class Reminders extends Effect.Service<Reminders>()("core/Reminders", {
  effect: Effect.gen(function* () {
    const repo = yield* RemindersRepo
    const secrets = yield* Secrets
    const schedule = (p: KeyPrincipal, input: ScheduleInput): Effect.Effect<Reminder, TooManyReminders> =>
      Effect.gen(function* () {
        const scheduled = yield* repo.countScheduled(p.application.id)
        if (scheduled >= ReminderLimits.maxScheduled) {
          return yield* new TooManyReminders({
            message: `An application may have ${ReminderLimits.maxScheduled} reminders scheduled at once.`,
          })
        }
        const now = yield* Clock.currentTimeMillis
        const reminder: Reminder = {
          id: yield* secrets.uuid,
          applicationId: p.application.id,
          text: input.text,
          dueAt: now + input.dueInSeconds * 1000,
          status: "scheduled",
          createdAt: now,
        }
        yield* repo.insert(reminder)
        return reminder
      })
    const list = (p: KeyPrincipal) => repo.list(p.application.id)
    return { schedule, list }
  }),
}) {}
