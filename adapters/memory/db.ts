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

export type Undo = () => void
/** Records the inverse of a write; a no-op outside a transaction. */
export type Recorder = (undo: Undo) => void

interface Transaction {
  readonly undo: Array<Undo>
  open: boolean
}

/** A product's memory tables: a function making them empty, declared beside its repositories. */
export type TableSet = () => object

type Intersect<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never
/** The tables of the sets a repository reads together. */
export type TablesOf<Sets extends ReadonlyArray<TableSet>> = Intersect<ReturnType<Sets[number]>>

const ignore: Recorder = () => {}

const make = () => {
  const current = FiberRef.unsafeMake<Transaction | null>(null)
  const permit = Effect.unsafeMakeSemaphore(1)
  /** Each product's tables, made empty the first time one of its repositories asks for them. */
  const sets = new Map<TableSet, object>()
  const tablesOf = (set: TableSet): object => {
    let tables = sets.get(set)
    if (tables === undefined) sets.set(set, tables = set())
    return tables
  }

  /** Reads and writes over the tables of `sets` (one object holding every table of each). */
  const view = <Sets extends ReadonlyArray<TableSet>>(...tableSets: Sets) => {
    const t = Object.assign({}, ...tableSets.map(tablesOf)) as TablesOf<Sets>
    const read = <A>(f: (t: TablesOf<Sets>) => A): Effect.Effect<A> => Effect.sync(() => f(t))
    /** A write no transaction undoes: a request's rate-limit count stands whatever the request does. */
    const writeUnlogged = <A>(f: (t: TablesOf<Sets>) => A): Effect.Effect<A> => Effect.sync(() => f(t))
    const write = <A>(f: (t: TablesOf<Sets>, record: Recorder) => A): Effect.Effect<A> =>
      Effect.flatMap(
        FiberRef.get(current),
        (tx) => Effect.sync(() => f(t, tx !== null && tx.open ? (undo) => tx.undo.push(undo) : ignore)),
      )
    return { read, write, writeUnlogged, withTransaction } as const
  }

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

  return { view, withTransaction } as const
}

export class MemoryDb extends Context.Tag("adapters/memory/MemoryDb")<MemoryDb, ReturnType<typeof make>>() {
  /** Fresh, empty tables each time the layer is built. */
  static readonly layer = Layer.sync(MemoryDb, make)
}

/** The memory store's reads and writes over the tables of `sets`. */
export const memoryTables = <Sets extends ReadonlyArray<TableSet>>(...sets: Sets) =>
  Effect.map(MemoryDb, (db) => db.view(...sets))

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
