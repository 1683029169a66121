import { Effect, Layer, Option } from "effect"
import { JobsRepo } from "../../ports/store/jobs.ts"
import { memoryTables, setIn } from "./db.ts"

export const jobTables = () => ({ jobs: new Map<string, number>() })

export const JobsRepoMemory = Layer.effect(
  JobsRepo,
  Effect.map(memoryTables(jobTables), (db) => ({
    claim: (name, now, nextRunAt) =>
      db.write((t, record) => {
        const due = t.jobs.get(name)
        if (due !== undefined && due > now) return false
        setIn(t.jobs, name, nextRunAt, record)
        return true
      }),
    nextRunAt: (name) => db.read((t) => Option.fromNullable(t.jobs.get(name))),
  })),
)
