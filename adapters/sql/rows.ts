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
export const heldBackWait = { tries: 50, everyMs: 20 } as const

/** Waits `ms` of real time, whatever the platform's clock (a simulated clock does not move by itself). */
export const pause = (ms: number): Effect.Effect<void> =>
  Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))
