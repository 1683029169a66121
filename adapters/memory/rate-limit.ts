import { Effect, Layer, Option } from "effect"
import type { Millis } from "../../core/shared/brands.ts"
import { RateLimitRepo } from "../../ports/store/rate-limit.ts"
import { deleteIn, memoryTables } from "./db.ts"

/** window start -> credential hash -> requests counted. */
export const rateLimitTables = () => ({ rateWindows: new Map<number, Map<string, number>>() })

export const RateLimitRepoMemory = Layer.effect(
  RateLimitRepo,
  Effect.map(memoryTables(rateLimitTables), (db) => ({
    prune: (before) =>
      db.write((t, record) => {
        for (const start of [...t.rateWindows.keys()]) {
          if (start < before) deleteIn(t.rateWindows, start, record)
        }
      }),
    oldestWindow: db.read((t) => {
      let at: number | undefined
      for (const start of t.rateWindows.keys()) if (at === undefined || start < at) at = start
      return Option.fromNullable(at as Millis | undefined)
    }),
  })),
)
