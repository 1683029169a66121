import { Context, type Effect, type Option } from "effect"
import type { Millis } from "../../core/shared/brands.ts"
import type { IdempotencyKey } from "../../core/shared/idempotency-key.ts"

export interface StoredAnswer {
  readonly status: number
  readonly body: string
}

export type IdempotencyClaim =
  | { readonly _tag: "Claimed" }
  | { readonly _tag: "Replay"; readonly answer: StoredAnswer }
  | { readonly _tag: "InProgress" }
  | { readonly _tag: "Reused" }

export interface IdempotencyRequest {
  /** The presented credential's id: keys are scoped to it. */
  readonly scope: string
  readonly key: IdempotencyKey
  /** Method, canonical path, query and a hash of the body bytes. */
  readonly fingerprint: string
  readonly now: Millis
  readonly expiresAt: Millis
}

/** Idempotency records (DECISIONS 4), kept `Idempotency.ttlMs` after their answer. */
export class IdempotencyRepo extends Context.Tag("ports/IdempotencyRepo")<IdempotencyRepo, {
  /** Atomically claims the key, or tells why not. An expired record counts as absent. */
  readonly claim: (request: IdempotencyRequest) => Effect.Effect<IdempotencyClaim>
  /** Stores the 2xx answer, kept until `expiresAt`. */
  readonly complete: (
    scope: string,
    key: IdempotencyKey,
    answer: StoredAnswer,
    expiresAt: Millis,
  ) => Effect.Effect<void>
  /** Frees the key (any non-2xx answer). */
  readonly release: (scope: string, key: IdempotencyKey) => Effect.Effect<void>
  /** Drops at most `limit` records that expired at or before `before` (one short statement); answers how many. */
  readonly prune: (before: Millis, limit: number) => Effect.Effect<number>
  /** The earliest expiry of a record kept (when retention next has work). */
  readonly earliestExpiry: Effect.Effect<Option.Option<Millis>>
}>() {}
