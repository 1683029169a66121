/** Rate-limit windows (counted with the credential by `CredentialsRepo.present`), pruned here. */
import { Effect, Layer, Option } from "effect"
import type { Millis } from "../../core/shared/brands.ts"
import { RateLimitRepo } from "../../ports/store/rate-limit.ts"
import { client, num } from "./rows.ts"

export const RateLimitRepoSql = Layer.effect(
  RateLimitRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      // A small table (an hour of windows at most): no index on window_start, the batch's scan stops at `limit`.
      prune: (before, limit) =>
        sql`WITH gone AS (
            DELETE FROM rate_windows WHERE ctid = ANY (ARRAY(
              SELECT ctid FROM rate_windows WHERE window_start < ${before} LIMIT ${limit}))
            RETURNING 1)
          SELECT count(*) AS n FROM gone`.pipe(Effect.map((rows) => num(rows[0].n)), Effect.orDie),
      countOf: (hash, windowStart) =>
        sql`SELECT count FROM rate_windows WHERE credential_hash = ${hash} AND window_start = ${windowStart}`.pipe(
          Effect.map((rows) => (rows.length === 0 ? 0 : num(rows[0].count))),
          Effect.orDie,
        ),
      oldestWindow: sql`SELECT min(window_start) AS at FROM rate_windows`.pipe(
        Effect.map((rows) => rows[0]?.at == null ? Option.none<Millis>() : Option.some(num(rows[0].at) as Millis)),
        Effect.orDie,
      ),
    }
  }),
)
