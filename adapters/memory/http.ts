import { Effect, Layer } from "effect"
import { type IdempotencyClaim, IdempotencyRepo, RateLimitRepo } from "../../ports/store/http.ts"
import { deleteIn, MemoryDb, setIn } from "./db.ts"

export const RateLimitRepoMemory = Layer.effect(
  RateLimitRepo,
  Effect.map(MemoryDb, (db) => ({
    prune: (before) =>
      db.write((t, record) => {
        for (const start of [...t.rateWindows.keys()]) {
          if (start < before) deleteIn(t.rateWindows, start, record)
        }
      }),
  })),
)

const idempotencyKey = (scope: string, key: string) => `${scope}\u0000${key}`
const claimed: IdempotencyClaim = { _tag: "Claimed" }
const reused: IdempotencyClaim = { _tag: "Reused" }
const inProgress: IdempotencyClaim = { _tag: "InProgress" }

export const IdempotencyRepoMemory = Layer.effect(
  IdempotencyRepo,
  Effect.map(MemoryDb, (db) => ({
    claim: (r) =>
      db.write((t, record): IdempotencyClaim => {
        const key = idempotencyKey(r.scope, r.key)
        const existing = t.idempotency.get(key)
        if (existing === undefined || existing.expiresAt <= r.now) {
          const fresh = {
            fingerprint: r.fingerprint,
            state: "in_progress",
            status: null,
            body: null,
            expiresAt: r.expiresAt,
          } as const
          setIn(t.idempotency, key, fresh, record)
          return claimed
        }
        if (existing.fingerprint !== r.fingerprint) return reused
        if (existing.state !== "done") return inProgress
        return { _tag: "Replay", answer: { status: existing.status ?? 0, body: existing.body ?? "" } }
      }),
    complete: (scope, key, answer, expiresAt) =>
      db.write((t, record) => {
        const k = idempotencyKey(scope, key)
        const existing = t.idempotency.get(k)
        if (existing !== undefined) {
          setIn(
            t.idempotency,
            k,
            { ...existing, state: "done", status: answer.status, body: answer.body, expiresAt },
            record,
          )
        }
      }),
    release: (scope, key) => db.write((t, record) => deleteIn(t.idempotency, idempotencyKey(scope, key), record)),
    prune: (before) =>
      db.write((t, record) => {
        for (const [key, value] of [...t.idempotency]) {
          if (value.expiresAt <= before) deleteIn(t.idempotency, key, record)
        }
      }),
  })),
)
