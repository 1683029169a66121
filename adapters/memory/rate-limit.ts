import { Effect, Layer, Option } from "effect"
import type { Millis } from "../../core/shared/brands.ts"
import { RateLimitRepo } from "../../ports/store/rate-limit.ts"
import { deleteIn, memoryTables } from "./db.ts"

/** window start -> credential hash -> requests counted. */
export const rateLimitTables = () => ({ rateWindows: new Map<number, Map<string, number>>() })

export const RateLimitRepoMemory = Layer.effect(
  RateLimitRepo,
  Effect.map(memoryTables(rateLimitTables), (db) => ({
    prune: (before, limit) =>
      db.write((t, record) => {
        let n = 0
        for (const [start, counts] of [...t.rateWindows]) {
          if (start >= before) continue
          // A window holds one row per credential, as the SQL table does: a batch takes `limit` rows.
          for (const credential of [...counts.keys()]) {
            if (n === limit) return n
            deleteIn(counts, credential, record)
            n++
          }
          if (counts.size === 0) deleteIn(t.rateWindows, start, record)
        }
        return n
      }),
    countOf: (hash, windowStart) => db.read((t) => t.rateWindows.get(windowStart)?.get(hash) ?? 0),
    oldestWindow: db.read((t) => {
      let at: number | undefined
      for (const start of t.rateWindows.keys()) if (at === undefined || start < at) at = start
      return Option.fromNullable(at as Millis | undefined)
    }),
  })),
)
