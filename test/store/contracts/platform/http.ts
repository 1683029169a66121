import { assert } from "@effect/vitest"
import { Effect } from "effect"
import { inBatches } from "../../../../adapters/retention.ts"
import type { IdempotencyKey } from "../../../../core/shared/idempotency-key.ts"
import {
  CredentialsRepo,
  IdempotencyRepo,
  type IdempotencyRequest,
  RateLimitRepo,
} from "../../../../ports/store/mod.ts"
import { ConsoleSessionsRepo } from "../../../../ports/store/console-sessions.ts"
import type { Millis } from "../../../../core/shared/brands.ts"
import { type It, uuid } from "../../fixtures.ts"

const tags = (claims: ReadonlyArray<{ readonly _tag: string }>) =>
  claims.reduce<Record<string, number>>((n, c) => ({ ...n, [c._tag]: (n[c._tag] ?? 0) + 1 }), {})

/** A request's count in its rate window, as `present` answers it. */
const hit = (hash: string, windowStart: number) =>
  Effect.flatMap(CredentialsRepo, (credentials) => Effect.map(credentials.present(hash, windowStart), (p) => p.count))

export const httpContract = (it: It) => {
  it.effect("console sign-outs: a session ended is refused until its expiry; each sign-out drops the expired", () =>
    Effect.gen(function* () {
      const ends = yield* ConsoleSessionsRepo
      const a = uuid().replaceAll("-", "")
      const b = uuid().replaceAll("-", "")
      assert.isFalse(yield* ends.ended(a, 1_000 as Millis))
      yield* ends.end(a, 5_000 as Millis, 1_000 as Millis)
      yield* ends.end(a, 5_000 as Millis, 1_000 as Millis)
      assert.isTrue(yield* ends.ended(a, 4_999 as Millis))
      assert.isFalse(yield* ends.ended(a, 5_000 as Millis))
      assert.isFalse(yield* ends.ended(b, 1_000 as Millis))
      // Past `a`'s expiry, the next sign-out drops `a`'s row: refused still by its time, gone from the store.
      yield* ends.end(b, 9_000 as Millis, 6_000 as Millis)
      assert.isTrue(yield* ends.ended(b, 6_000 as Millis))
      assert.isFalse(yield* ends.ended(a, 0 as Millis))
    }))

  it.effect("rate windows count per credential and window; prune drops windows that started before", () =>
    Effect.gen(function* () {
      const limits = yield* RateLimitRepo
      const key = `cred-${uuid()}`
      const other = `cred-${uuid()}`
      assert.deepStrictEqual(
        yield* Effect.forEach([1, 2, 3], () => hit(key, 60_000)),
        [1, 2, 3],
      )
      assert.strictEqual(yield* hit(key, 120_000), 1)
      assert.strictEqual(yield* hit(other, 60_000), 1)
      yield* inBatches((limit) => limits.prune(120_000, limit))
      assert.strictEqual(yield* hit(key, 60_000), 1)
      assert.strictEqual(yield* hit(key, 120_000), 2)
    }))

  it.effect("rate windows: 25 concurrent hits count 1..25 exactly once each", () =>
    Effect.gen(function* () {
      const key = `cred-${uuid()}`
      const counts = yield* Effect.all(Array.from({ length: 25 }, () => hit(key, 0)), {
        concurrency: "unbounded",
      })
      assert.deepStrictEqual([...counts].sort((a, b) => a - b), Array.from({ length: 25 }, (_, i) => i + 1))
    }))

  const request = (over: Partial<IdempotencyRequest> = {}): IdempotencyRequest => ({
    scope: `scope-${uuid()}`,
    key: "key-1" as IdempotencyKey,
    fingerprint: "POST /v1/verify hash-a",
    now: 1_000,
    expiresAt: 1_000 + 86_400_000,
    ...over,
  })

  it.effect("idempotency: claim, in progress, reused, replay after complete, release frees", () =>
    Effect.gen(function* () {
      const idem = yield* IdempotencyRepo
      const r = request()
      assert.deepStrictEqual(yield* idem.claim(r), { _tag: "Claimed" })
      assert.deepStrictEqual(yield* idem.claim({ ...r, now: 2_000 }), { _tag: "InProgress" })
      assert.deepStrictEqual(yield* idem.claim({ ...r, fingerprint: "other" }), { _tag: "Reused" })
      // Keys are scoped to the credential.
      assert.deepStrictEqual(yield* idem.claim({ ...r, scope: `scope-${uuid()}` }), { _tag: "Claimed" })
      yield* idem.complete(r.scope, r.key, { status: 201, body: '{"id":1}' }, r.expiresAt)
      assert.deepStrictEqual(yield* idem.claim(r), { _tag: "Replay", answer: { status: 201, body: '{"id":1}' } })
      assert.deepStrictEqual(yield* idem.claim({ ...r, fingerprint: "other" }), { _tag: "Reused" })
      const second = { ...r, key: "key-2" as IdempotencyKey }
      assert.deepStrictEqual(yield* idem.claim(second), { _tag: "Claimed" })
      yield* idem.release(second.scope, second.key)
      assert.deepStrictEqual(yield* idem.claim({ ...second, fingerprint: "another" }), { _tag: "Claimed" })
    }))

  it.effect("idempotency: a running request holds its key only for its lease; complete keeps the answer until its own expiry", () =>
    Effect.gen(function* () {
      const idem = yield* IdempotencyRepo
      const r = request({ expiresAt: 5_000 })
      yield* idem.claim(r)
      // The process died mid-request: once the lease lapses, a retry takes the key over.
      assert.deepStrictEqual(yield* idem.claim({ ...r, now: 5_000, expiresAt: 9_000 }), { _tag: "Claimed" })
      yield* idem.complete(r.scope, r.key, { status: 200, body: "done" }, 100_000)
      assert.deepStrictEqual(yield* idem.claim({ ...r, now: 50_000 }), {
        _tag: "Replay",
        answer: { status: 200, body: "done" },
      })
    }))

  it.effect("idempotency: an expired record counts as absent and is taken over; prune deletes expired", () =>
    Effect.gen(function* () {
      const idem = yield* IdempotencyRepo
      const r = request({ expiresAt: 5_000 })
      yield* idem.claim(r)
      yield* idem.complete(r.scope, r.key, { status: 200, body: "old" }, r.expiresAt)
      const later = { ...r, fingerprint: "new", now: 5_000, expiresAt: 10_000 }
      assert.deepStrictEqual(yield* idem.claim(later), { _tag: "Claimed" })
      assert.deepStrictEqual(yield* idem.claim({ ...later, now: 6_000 }), { _tag: "InProgress" })
      assert.deepStrictEqual(yield* idem.claim({ ...r, now: 6_000 }), { _tag: "Reused" })
      yield* inBatches((limit) => idem.prune(10_000, limit))
      assert.deepStrictEqual(yield* idem.claim({ ...r, now: 6_000 }), { _tag: "Claimed" })
    }))

  it.effect("idempotency: 20 concurrent claims of one key: exactly one Claimed, the rest InProgress", () =>
    Effect.gen(function* () {
      const idem = yield* IdempotencyRepo
      const r = request()
      const claims = yield* Effect.all(Array.from({ length: 20 }, () => idem.claim(r)), { concurrency: "unbounded" })
      assert.deepStrictEqual(tags(claims), { Claimed: 1, InProgress: 19 })
    }))

  it.effect("idempotency: 20 concurrent claims of an expired key: exactly one takes it over", () =>
    Effect.gen(function* () {
      const idem = yield* IdempotencyRepo
      const r = request({ expiresAt: 2_000 })
      yield* idem.claim(r)
      const later = { ...r, now: 3_000, expiresAt: 9_000 }
      const claims = yield* Effect.all(Array.from({ length: 20 }, () => idem.claim(later)), {
        concurrency: "unbounded",
      })
      assert.deepStrictEqual(tags(claims), { Claimed: 1, InProgress: 19 })
    }))

  it.effect("rate windows: countOf reads a window's count without counting (0 for none)", () =>
    Effect.gen(function* () {
      const limits = yield* RateLimitRepo
      const key = `cred-${uuid()}`
      assert.strictEqual(yield* limits.countOf(key, 180_000 as any), 0)
      yield* hit(key, 180_000)
      yield* hit(key, 180_000)
      assert.strictEqual(yield* limits.countOf(key, 180_000 as any), 2)
      assert.strictEqual(yield* limits.countOf(key, 180_000 as any), 2)
      assert.strictEqual(yield* limits.countOf(key, 240_000 as any), 0)
    }))
}
