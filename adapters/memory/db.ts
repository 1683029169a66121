/**
 * The memory store's tables and its transaction log.
 *
 * Every repository call is one synchronous step (`read` or `write`), so it is atomic by itself. A
 * transaction holds the store's single permit for its whole duration and keeps an undo log in a
 * FiberRef: every write made inside it records its inverse, and a failure, defect or interruption
 * runs the inverses in reverse. A nested transaction is a savepoint: it undoes back to where it began.
 * Writes outside any transaction apply at once, as autocommitted statements do.
 */
import { Context, Effect, Exit, FiberRef, Layer } from "effect"
import type { Account, Application } from "../../core/accounts/model.ts"
import type { Credential } from "../../core/keys/model.ts"
import type { Verification, VerifySend, VerifySettings } from "../../core/verify/model.ts"
import type { OutboxEvent } from "../../ports/store/outbox.ts"
import type { SimulatedSms } from "../../ports/store/simulator.ts"
import type { LedgerEntry } from "../../ports/store/wallet.ts"
import type { WebhookEndpoint } from "../../ports/store/webhook-endpoints.ts"

export type Undo = () => void
/** Records the inverse of a write; a no-op outside a transaction. */
export type Recorder = (undo: Undo) => void

interface Transaction {
  readonly undo: Array<Undo>
  open: boolean
}

export interface IdempotencyRecord {
  readonly fingerprint: string
  readonly state: "in_progress" | "done"
  readonly status: number | null
  readonly body: string | null
  readonly expiresAt: number
}

const tables = () => ({
  accounts: new Map<string, Account>(),
  applications: new Map<string, Application>(),
  credentials: new Map<string, Credential>(),
  credentialIdByHash: new Map<string, string>(),
  /** window start -> credential hash -> requests counted. */
  rateWindows: new Map<number, Map<string, number>>(),
  idempotency: new Map<string, IdempotencyRecord>(),
  wallets: new Map<string, number>(),
  ledger: new Map<string, Array<LedgerEntry>>(),
  verifications: new Map<string, Verification>(),
  sendsByApplication: new Map<string, Array<VerifySend>>(),
  verifySettings: new Map<string, VerifySettings>(),
  sandboxDestinations: new Set<string>(),
  outbox: [] as Array<OutboxEvent>,
  outboxIds: new Set<string>(),
  webhookEndpoints: new Map<string, WebhookEndpoint>(),
  jobs: new Map<string, number>(),
  simSms: new Map<string, Array<SimulatedSms>>(),
  simSmsIds: new Set<string>(),
})

export type Tables = ReturnType<typeof tables>

const ignore: Recorder = () => {}

const make = () => {
  const current = FiberRef.unsafeMake<Transaction | null>(null)
  const permit = Effect.unsafeMakeSemaphore(1)
  const t = tables()

  const read = <A>(f: (t: Tables) => A): Effect.Effect<A> => Effect.sync(() => f(t))

  /** A write no transaction undoes: a request's rate-limit count stands whatever the request does. */
  const writeUnlogged = <A>(f: (t: Tables) => A): Effect.Effect<A> => Effect.sync(() => f(t))

  const write = <A>(f: (t: Tables, record: Recorder) => A): Effect.Effect<A> =>
    Effect.flatMap(
      FiberRef.get(current),
      (tx) => Effect.sync(() => f(t, tx !== null && tx.open ? (undo) => tx.undo.push(undo) : ignore)),
    )

  const savepoint = <A, E, R>(tx: Transaction, self: Effect.Effect<A, E, R>) =>
    Effect.suspend(() => {
      const mark = tx.undo.length
      return Effect.onExit(self, (exit) =>
        Exit.isSuccess(exit) ? Effect.void : Effect.sync(() => {
          while (tx.undo.length > mark) tx.undo.pop()!()
        }))
    })

  const withTransaction = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(FiberRef.get(current), (outer) => {
      if (outer !== null && outer.open) return savepoint(outer, self)
      return permit.withPermits(1)(Effect.suspend(() => {
        const tx: Transaction = { undo: [], open: true }
        return Effect.locally(savepoint(tx, self), current, tx).pipe(Effect.ensuring(Effect.sync(() => {
          tx.open = false
        })))
      }))
    })

  return { read, write, writeUnlogged, withTransaction } as const
}

export class MemoryDb extends Context.Tag("adapters/memory/MemoryDb")<MemoryDb, ReturnType<typeof make>>() {
  /** Fresh, empty tables each time the layer is built. */
  static readonly layer = Layer.sync(MemoryDb, make)
}

/** Writes that record their inverse. */
export const setIn = <K, V>(map: Map<K, V>, key: K, value: V, record: Recorder): void => {
  const had = map.has(key)
  const previous = map.get(key)
  map.set(key, value)
  record(() => (had ? map.set(key, previous as V) : map.delete(key)))
}

export const deleteIn = <K, V>(map: Map<K, V>, key: K, record: Recorder): void => {
  if (!map.has(key)) return
  const previous = map.get(key) as V
  map.delete(key)
  record(() => map.set(key, previous))
}

export const addTo = <V>(set: Set<V>, value: V, record: Recorder): void => {
  if (set.has(value)) return
  set.add(value)
  record(() => set.delete(value))
}

export const pushTo = <V>(array: Array<V>, value: V, record: Recorder): void => {
  array.push(value)
  record(() => {
    const index = array.lastIndexOf(value)
    if (index >= 0) array.splice(index, 1)
  })
}

/** Appends to the list under `key`, creating it. */
export const pushUnder = <K, V>(map: Map<K, Array<V>>, key: K, value: V, record: Recorder): void => {
  let list = map.get(key)
  if (list === undefined) map.set(key, list = [])
  pushTo(list, value, record)
}

export const removeAt = <V>(array: Array<V>, index: number, record: Recorder): void => {
  const [removed] = array.splice(index, 1)
  record(() => array.splice(Math.min(index, array.length), 0, removed))
}

/** A write that PostgreSQL would refuse (unique or check constraint): a defect, as in the SQL adapter. */
export const violation = (message: string): never => {
  throw new Error(`memory store: ${message}`)
}
