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
      prune: (before) => sql`DELETE FROM rate_windows WHERE window_start < ${before}`.pipe(Effect.asVoid, Effect.orDie),
      oldestWindow: sql`SELECT min(window_start) AS at FROM rate_windows`.pipe(
        Effect.map((rows) => rows[0]?.at == null ? Option.none<Millis>() : Option.some(num(rows[0].at) as Millis)),
        Effect.orDie,
      ),
    }
  }),
)
