import { Context, type Effect } from "effect"
import type { Millis } from "../../core/shared/brands.ts"

/** Rate-limit windows: counted by `CredentialsRepo.present`, pruned here. */
export class RateLimitRepo extends Context.Tag("ports/RateLimitRepo")<RateLimitRepo, {
  /** Drops windows that ended before `before`. */
  readonly prune: (before: Millis) => Effect.Effect<void>
}>() {}

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
  /** The presented credential's hash: keys are scoped to it. */
  readonly scope: string
  readonly key: string
  /** method + path + hash of the body bytes. */
  readonly fingerprint: string
  readonly now: Millis
  readonly expiresAt: Millis
}

export class IdempotencyRepo extends Context.Tag("ports/IdempotencyRepo")<IdempotencyRepo, {
  /** Atomically claims the key, or tells why not. An expired record counts as absent. */
  readonly claim: (request: IdempotencyRequest) => Effect.Effect<IdempotencyClaim>
  /** Stores the 2xx answer, kept until `expiresAt`. */
  readonly complete: (scope: string, key: string, answer: StoredAnswer, expiresAt: Millis) => Effect.Effect<void>
  /** Frees the key (any non-2xx answer). */
  readonly release: (scope: string, key: string) => Effect.Effect<void>
  readonly prune: (before: Millis) => Effect.Effect<void>
}>() {}
