import { Effect, Layer } from "effect"
import { JobsRepo } from "../../ports/store/jobs.ts"
import { client, first, num } from "./rows.ts"

export const JobsRepoSql = Layer.effect(
  JobsRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      // A concurrent caller waits on the row the winner wrote, then finds it no longer due.
      claim: (name, now, nextRunAt) =>
        sql`INSERT INTO jobs (name, next_run_at) VALUES (${name}, ${nextRunAt})
          ON CONFLICT (name) DO UPDATE SET next_run_at = EXCLUDED.next_run_at WHERE jobs.next_run_at <= ${now}
          RETURNING name`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
      nextRunAt: (name) =>
        sql`SELECT next_run_at FROM jobs WHERE name = ${name}`.pipe(
          Effect.map((rows) => first(rows, (row) => num(row.next_run_at))),
          Effect.orDie,
        ),
    }
  }),
)
