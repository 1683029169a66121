/** Reminders: its repositories, migration, service, operations, the job that sends what falls due, its codes and scopes. */
import { Clock, Effect, Option } from "effect"
import { remindersErrors } from "../../core/reminders/errors.ts"
import { remindersOperations } from "../../core/reminders/operations.ts"
import { remindersScopes } from "../../core/reminders/scopes.ts"
import { Reminders } from "../../core/reminders/service.ts"
import type { Job } from "../../core/shared/job.ts"
import { JobsRepo } from "../../ports/store/jobs.ts"
import { RemindersRepo } from "../../ports/store/reminders.ts"
import { dueAfterLease } from "../jobs.ts"
import { RemindersRepoMemory } from "../memory/reminders.ts"
import { product } from "../product.ts"
import { migration as reminders } from "../sql/migrations/reminders/0001_reminders.ts"
import { RemindersRepoSql } from "../sql/reminders.ts"

const SendJob = "reminders.send"

/** Sends the reminders that fell due; falls due when the earliest scheduled one does. */
const send: Effect.Effect<ReadonlyArray<Job>, never, RemindersRepo | JobsRepo> = Effect.gen(function* () {
  const repo = yield* RemindersRepo
  const leases = yield* JobsRepo
  const job: Job = {
    name: SendJob,
    nextDue: Effect.flatMap(
      repo.earliestDue,
      (due) => dueAfterLease(SendJob, Option.map(due, (at) => at)).pipe(Effect.provideService(JobsRepo, leases)),
    ),
    run: Effect.asVoid(Effect.flatMap(Clock.currentTimeMillis, repo.sendDue)),
  }
  return [job]
})

export const remindersProduct = product({
  name: "reminders",
  memory: RemindersRepoMemory,
  sql: RemindersRepoSql,
  migrations: [reminders],
  services: () => Reminders.Default,
  operations: remindersOperations,
  jobs: send,
  errors: remindersErrors,
  scopes: remindersScopes,
  tags: [{ name: "reminders", description: "Reminders an application schedules." }],
})
