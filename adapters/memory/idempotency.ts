import { Effect, Layer, Option } from "effect"
import type { Millis } from "../../core/shared/brands.ts"
import { type IdempotencyClaim, IdempotencyRepo } from "../../ports/store/idempotency.ts"
import { deleteIn, memoryTables, setIn } from "./db.ts"

export interface IdempotencyRecord {
  readonly fingerprint: string
  readonly state: "in_progress" | "done"
  readonly status: number | null
  readonly body: string | null
  readonly expiresAt: number
}

export const idempotencyTables = () => ({ idempotency: new Map<string, IdempotencyRecord>() })

const idempotencyKey = (scope: string, key: string) => `${scope}\u0000${key}`
const claimed: IdempotencyClaim = { _tag: "Claimed" }
const reused: IdempotencyClaim = { _tag: "Reused" }
const inProgress: IdempotencyClaim = { _tag: "InProgress" }

export const IdempotencyRepoMemory = Layer.effect(
  IdempotencyRepo,
  Effect.map(memoryTables(idempotencyTables), (db) => ({
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
    prune: (before, limit) =>
      db.write((t, record) => {
        let n = 0
        for (const [key, value] of t.idempotency) {
          if (n === limit) break
          if (value.expiresAt <= before) {
            deleteIn(t.idempotency, key, record)
            n++
          }
        }
        return n
      }),
    earliestExpiry: db.read((t) => {
      let at: number | undefined
      for (const value of t.idempotency.values()) if (at === undefined || value.expiresAt < at) at = value.expiresAt
      return Option.fromNullable(at as Millis | undefined)
    }),
  })),
)
