/** Idempotency records (DECISIONS 4). */
import { Effect, Layer, Option } from "effect"
import type { Millis } from "../../core/shared/brands.ts"
import { type IdempotencyClaim, IdempotencyRepo, type IdempotencyRequest } from "../../ports/store/idempotency.ts"
import { client, num } from "./rows.ts"

const claimed: IdempotencyClaim = { _tag: "Claimed" }

export const IdempotencyRepoSql = Layer.effect(
  IdempotencyRepo,
  Effect.gen(function* () {
    const sql = yield* client

    const insert = (r: IdempotencyRequest) =>
      sql`INSERT INTO idempotency (scope, key, fingerprint, state, expires_at)
        VALUES (${r.scope}, ${r.key}, ${r.fingerprint}, 'in_progress', ${r.expiresAt})
        ON CONFLICT (scope, key) DO NOTHING RETURNING key`.pipe(Effect.map((rows) => rows.length > 0))

    // Only one of several concurrent callers sees the expired row still expired once it holds the row lock.
    const takeOver = (r: IdempotencyRequest) =>
      sql`UPDATE idempotency SET fingerprint = ${r.fingerprint}, state = 'in_progress', status = NULL, body = NULL,
          expires_at = ${r.expiresAt}
        WHERE scope = ${r.scope} AND key = ${r.key} AND expires_at <= ${r.now} RETURNING key`.pipe(
        Effect.map((rows) => rows.length > 0),
      )

    const existing = (r: IdempotencyRequest) =>
      sql`SELECT fingerprint, state, status, body, expires_at FROM idempotency
        WHERE scope = ${r.scope} AND key = ${r.key}`.pipe(
        Effect.map((rows): Option.Option<IdempotencyClaim> => {
          if (rows.length === 0) return Option.none()
          const row = rows[0]
          if (num(row.expires_at) <= r.now) return Option.none()
          if (row.fingerprint !== r.fingerprint) return Option.some({ _tag: "Reused" })
          if (row.state !== "done") return Option.some({ _tag: "InProgress" })
          return Option.some({ _tag: "Replay", answer: { status: num(row.status), body: row.body as string } })
        }),
      )

    // The row may vanish (release) or expire between two statements: then start again.
    const claim = (r: IdempotencyRequest, attemptsLeft: number): Effect.Effect<IdempotencyClaim, unknown> =>
      Effect.gen(function* () {
        if (yield* insert(r)) return claimed
        if (yield* takeOver(r)) return claimed
        const answer = yield* existing(r)
        if (Option.isSome(answer)) return answer.value
        if (attemptsLeft === 0) return yield* Effect.dieMessage("IdempotencyRepo.claim: record keeps changing")
        return yield* claim(r, attemptsLeft - 1)
      })

    return {
      claim: (request) => claim(request, 10).pipe(Effect.orDie),
      complete: (scope, key, answer, expiresAt) =>
        sql`UPDATE idempotency SET state = 'done', status = ${answer.status}, body = ${answer.body},
          expires_at = ${expiresAt} WHERE scope = ${scope} AND key = ${key}`.pipe(Effect.asVoid, Effect.orDie),
      release: (scope, key) =>
        sql`DELETE FROM idempotency WHERE scope = ${scope} AND key = ${key}`.pipe(Effect.asVoid, Effect.orDie),
      // The outer condition is checked again on a row a concurrent claim took over (its new expiry stays).
      prune: (before, limit) =>
        sql`WITH gone AS (
            DELETE FROM idempotency WHERE ctid = ANY (ARRAY(
              SELECT ctid FROM idempotency WHERE expires_at <= ${before} ORDER BY expires_at LIMIT ${limit}))
              AND expires_at <= ${before}
            RETURNING 1)
          SELECT count(*) AS n FROM gone`.pipe(Effect.map((rows) => num(rows[0].n)), Effect.orDie),
      earliestExpiry: sql`SELECT min(expires_at) AS at FROM idempotency`.pipe(
        Effect.map((rows) => rows[0]?.at == null ? Option.none<Millis>() : Option.some(num(rows[0].at) as Millis)),
        Effect.orDie,
      ),
    }
  }),
)
