/** Shared helpers of the SQL repositories: row values, single rows, transactions. */
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import { Effect, Option } from "effect"
import { type Row, type Sql, SqlExecutor } from "./executor.ts"

export type { Row }

/**
 * BIGINT and aggregate values: `pg` answers int8 and numeric as strings, PGlite as numbers (or bigint
 * past 2^53). Every BIGINT we store (millis, halalas, counts) is a safe integer.
 */
export const num = (value: unknown): number => Number(value)

export const numOrNull = (
  value: unknown,
): number | null => (value === null || value === undefined ? null : Number(value))

/** jsonb comes back parsed from both drivers (a jsonb string, like the access level "full", is a JS string). */
export const json = <A>(value: unknown): A => value as A

/** Binds a value for a `::jsonb` placeholder. */
export const toJson = (value: unknown): string => JSON.stringify(value)

export const first = <A>(rows: ReadonlyArray<Row>, f: (row: Row) => A): Option.Option<A> =>
  rows.length === 0 ? Option.none() : Option.some(f(rows[0]))

/** What the repositories run their statements and transactions with (executor.ts). */
export const client: Effect.Effect<Sql, never, SqlExecutor> = SqlExecutor

/**
 * Runs `self` in the caller's transaction when there is one, else in its own: several statements that
 * must commit together without paying for a savepoint when already inside a transaction.
 */
export const atomically = <A, E, R>(
  sql: Sql,
  self: Effect.Effect<A, E, R>,
): Effect.Effect<A, E | SqlError, R> =>
  Effect.flatMap(
    Effect.serviceOption(SqlClient.TransactionConnection),
    (tx) => (Option.isSome(tx) ? self : sql.withTransaction(self)),
  )

/** A transaction whose own infrastructure failures (BEGIN, SAVEPOINT) are defects, as in every repository. */
export const transaction = (sql: Sql) => <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  sql.withTransaction(self).pipe(
    Effect.catchIf((error): error is SqlError => error instanceof SqlError, Effect.die),
  ) as Effect.Effect<A, E, R>

/**
 * How long a read that hands out only rows below its snapshot's xmin (the partner feed, webhook routing) waits at
 * most for rows held back behind a transaction still running, and how often it looks again.
 */
const heldBackWait = { tries: 50, everyMs: 20 } as const

/** Waits `ms` of real time, whatever the platform's clock (a simulated clock does not move by itself). */
const pause = (ms: number): Effect.Effect<void> =>
  Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

/** One read below the snapshot's xmin: what it hands out, that xmin, and whether rows it would hand out are held back. */
export interface SettledRead<A, E, R> {
  readonly value: A
  readonly xmin: string
  /** Looked at only when the read may still wait (the partner feed asks the store). */
  readonly heldBack: Effect.Effect<boolean, E, R>
}

/**
 * Runs a read below the snapshot's xmin again, for up to `heldBackWait`, while what it would hand out is held back
 * behind a transaction still running, so a move shows as soon as it answered. A wait that came to nothing is
 * remembered by its xmin: while that transaction (a long one) still runs, reads answer at once rather than wait
 * again (a simulated-clock advance runs the webhook router at every due time it passes). One per repository.
 */
export const settledReader = () => {
  let waitedInVainAt: string | undefined
  return <A, E, R>(read: Effect.Effect<SettledRead<A, E, R>, E, R>): Effect.Effect<A, E, R> =>
    Effect.gen(function* () {
      for (let attempt = 0;; attempt++) {
        const { heldBack, value, xmin } = yield* read
        if (xmin === waitedInVainAt) return value
        if (attempt >= heldBackWait.tries) {
          waitedInVainAt = xmin
          return value
        }
        if (!(yield* heldBack)) return value
        yield* pause(heldBackWait.everyMs)
      }
    })
}
