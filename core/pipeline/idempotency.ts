/**
 * `Idempotency-Key` on key- and token-authenticated writes (DECISIONS 4): scoped to the presented
 * credential, kept 24 hours; same request replays the stored 2xx with `Idempotent-Replayed: true`;
 * another request under the key is `idempotency_key_reused`; a key still running is
 * `idempotency_in_progress`; any non-2xx answer frees the key.
 */
import { Clock, Effect, Either, Exit } from "effect"
import { IdempotencyRepo } from "../../ports/store/idempotency.ts"
import { Secrets } from "../../ports/secrets.ts"
import {
  IdempotencyInProgress,
  IdempotencyKeyReused,
  IdempotencySecretNotReplayable,
  InvalidRequest,
} from "../errors.ts"
import { Idempotency } from "../limits.ts"
import { parseIdempotencyKey } from "../shared/idempotency-key.ts"
import type { ApiAnswer, ApiRequest } from "./request.ts"

const writes = new Set(["POST", "PUT", "PATCH", "DELETE"])

const is2xx = (status: number) => status >= 200 && status < 300

/**
 * What is kept of an answer that carried a secret shown once (`ApiAnswer.secretOf`): its status is this, and its
 * body only the id of what was made, so a replay answers `409 idempotency_secret_not_replayable` (DECISIONS 10).
 */
const secretKept = 409

export const withIdempotency = <E, R>(
  req: ApiRequest,
  scope: string,
  run: Effect.Effect<ApiAnswer, E, R>,
): Effect.Effect<
  ApiAnswer,
  E | InvalidRequest | IdempotencyInProgress | IdempotencyKeyReused | IdempotencySecretNotReplayable,
  R | Secrets | IdempotencyRepo
> => {
  const raw = req.header("idempotency-key")
  // Most requests carry no key (and reads never use one): they run as they are, without a generator.
  if (raw === undefined || !writes.has(req.method)) return run
  return Effect.gen(function* () {
    const parsed = parseIdempotencyKey(raw)
    if (Either.isLeft(parsed)) {
      return yield* new InvalidRequest({
        message: "Idempotency-Key must be 1 to 128 printable ASCII characters.",
        fields: { "Idempotency-Key": parsed.left },
        // `fields` and `errors` together, as every refused field (DECISIONS 10's error body).
        errors: { "Idempotency-Key": "invalid" },
      })
    }
    const key = parsed.right
    const secrets = yield* Secrets
    const repo = yield* IdempotencyRepo
    const now = yield* Clock.currentTimeMillis
    const search = req.query.toString()
    const fingerprint = `${req.method} ${req.path}${search ? `?${search}` : ""} ${secrets.hash(req.body ?? "")}`
    const claim = yield* repo.claim({ scope, key, fingerprint, now, expiresAt: now + Idempotency.inProgressLeaseMs })
    switch (claim._tag) {
      case "Replay":
        if (claim.answer.status === secretKept) {
          return yield* new IdempotencySecretNotReplayable({ id: (JSON.parse(claim.answer.body) as { id: string }).id })
        }
        return {
          status: claim.answer.status,
          body: JSON.parse(claim.answer.body) as unknown,
          headers: { "idempotent-replayed": "true" },
        } satisfies ApiAnswer
      case "InProgress":
        return yield* new IdempotencyInProgress({})
      case "Reused":
        return yield* new IdempotencyKeyReused({})
      case "Claimed":
        return yield* run.pipe(
          Effect.onExit((exit) =>
            Exit.isSuccess(exit) && is2xx(exit.value.status)
              ? repo.complete(
                scope,
                key,
                exit.value.secretOf === undefined
                  ? { status: exit.value.status, body: JSON.stringify(exit.value.body) }
                  : { status: secretKept, body: JSON.stringify({ id: exit.value.secretOf }) },
                now + Idempotency.ttlMs,
              )
              : repo.release(scope, key)
          ),
        )
    }
  })
}
