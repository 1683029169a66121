/**
 * How the SQL repositories run their statements and transactions.
 *
 * The repositories write statements with @effect/sql (the `sql` template, `literal`, `in`, `insert`, the
 * Postgres compiler) and run them here: compiled, then executed on the transaction's connection when the
 * fiber is in one, else by the driver. Transactions hand their connection on through @effect/sql's own
 * `TransactionConnection`, so statements run as Effects (the migrations, the Migrator) and statements run
 * here share one transaction either way.
 *
 * Why not run the `Statement` as an Effect: that path opens a tracing span, a scope and a connection
 * checkout for every statement, and a span, a scope and two more statements' worth of the same for every
 * transaction. Measured on PostgreSQL, one connection, CPU per statement (`npm run bench -- sql-statement`):
 * the `pg` driver alone 64-72 µs; @effect/sql's path 129-135 µs, 175 µs inside a transaction; this path
 * 91-115 µs (an Effect that waits on the driver's callback). Nothing here is traced unless telemetry is on
 * (ports/telemetry.ts): then each statement is a span of its own, as @effect/sql's would be.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import type { SqlError } from "@effect/sql/SqlError"
import type * as Statement from "@effect/sql/Statement"
import { Cause, Context, Effect, Exit, FiberRef, Layer, Option, Scope } from "effect"
import { Telemetry } from "../../ports/telemetry.ts"

/** A connection held for one transaction; `release(broken)` hands it back (a broken one is discarded). */
export interface Lease {
  readonly connection: Connection
  readonly release: (broken: boolean) => Effect.Effect<void>
  /**
   * The connection begins the transaction itself, in the round trip of its first statement, and ends a
   * transaction in which no statement ran without a word (its COMMIT or ROLLBACK sends nothing). Otherwise the
   * executor sends BEGIN on its own.
   */
  readonly beginsWithFirstStatement?: boolean
}

/** What a driver gives the executor: statements outside any transaction, and connections for transactions. */
export interface SqlDriverShape {
  readonly execute: (text: string, params: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<any>, SqlError>
  /** Run uninterruptibly: a lease taken is always released. */
  readonly lease: Effect.Effect<Lease, SqlError>
}

/** Provided beside the `SqlClient` by this project's clients (pg-client.ts, pglite-client.ts). */
export class SqlDriver extends Context.Tag("@platform/adapters/sql/SqlDriver")<SqlDriver, SqlDriverShape>() {}

/** Any other `SqlClient`: a connection from `reserve` for each transaction and each statement outside one. */
export const driverOver = (client: SqlClient.SqlClient): SqlDriverShape => {
  const lease: Effect.Effect<Lease, SqlError> = Effect.flatMap(
    Scope.make(),
    (scope) =>
      Scope.extend(client.reserve, scope).pipe(
        Effect.map((connection): Lease => ({ connection, release: () => Scope.close(scope, Exit.void) })),
        Effect.onError(() => Scope.close(scope, Exit.void)),
      ),
  )
  return {
    execute: (text, params) =>
      Effect.scoped(Effect.flatMap(client.reserve, (connection) => connection.execute(text, params, undefined))),
    lease,
  }
}

/** The statement template the repositories use: `sql\`...\`` is an Effect of the rows. */
export interface Sql {
  <A extends object = Row>(
    strings: TemplateStringsArray,
    ...args: Array<any>
  ): Effect.Effect<ReadonlyArray<A>, SqlError>
  /** A statement written out with `$n` placeholders, and its values. */
  readonly unsafe: <A extends object = Row>(
    text: string,
    params: ReadonlyArray<unknown>,
  ) => Effect.Effect<ReadonlyArray<A>, SqlError>
  readonly literal: Statement.Constructor["literal"]
  readonly in: Statement.Constructor["in"]
  readonly insert: Statement.Constructor["insert"]
  /** BEGIN..COMMIT on a connection of its own; nested calls become savepoints of the outer transaction. */
  readonly withTransaction: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E | SqlError, R>
}

/** A row as the driver hands it over (snake_case columns). */
export type Row = Record<string, any>

/** A statement's span while tracing is on: the name and attributes @effect/sql gives its own. */
const statementSpan = <A, E, R>(rows: Effect.Effect<A, E, R>, text: string) =>
  Effect.withSpan(rows, "sql.execute", {
    kind: "client",
    captureStackTrace: false,
    attributes: { "db.system": "postgresql", "db.statement": text },
  })

const begin = (connection: Connection) => connection.executeUnprepared("BEGIN", [], undefined)

export const makeSql = (client: SqlClient.SqlClient, driver: SqlDriverShape): Sql => {
  const plain = client.withoutTransforms()

  const run = (text: string, params: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<any>, SqlError> =>
    Effect.withFiberRuntime((fiber) => {
      const tx = Context.getOption(fiber.currentContext, SqlClient.TransactionConnection)
      const rows = Option.isSome(tx) ? tx.value[0].execute(text, params, undefined) : driver.execute(text, params)
      return Context.get(fiber.currentContext, Telemetry).tracing ? statementSpan(rows, text) : rows
    })

  const inTransaction = <A, E, R>(
    self: Effect.Effect<A, E, R>,
    context: Context.Context<never>,
    connection: Connection,
    depth: number,
  ) =>
    Effect.locally(
      self,
      FiberRef.currentContext,
      Context.add(context, SqlClient.TransactionConnection, [connection, depth]),
    )

  const withTransaction = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError, R> =>
    Effect.uninterruptibleMask((restore) =>
      Effect.withFiberRuntime<A, E | SqlError, R>((fiber) => {
        const context = fiber.currentContext
        const outer = Context.getOption(context, SqlClient.TransactionConnection)
        if (Option.isSome(outer)) {
          const [connection, depth] = outer.value
          const name = `effect_sql_${depth + 1}`
          return Effect.exit(
            Effect.zipRight(
              connection.executeUnprepared(`SAVEPOINT ${name}`, [], undefined),
              inTransaction(restore(self), context, connection, depth + 1),
            ),
          ).pipe(Effect.flatMap((exit) =>
            Exit.isSuccess(exit) ? exit : Effect.zipRight(
              Effect.orDie(connection.executeUnprepared(`ROLLBACK TO SAVEPOINT ${name}`, [], undefined)),
              exit,
            )
          ))
        }
        return Effect.flatMap(driver.lease, ({ beginsWithFirstStatement, connection, release }) =>
          Effect.exit(
            beginsWithFirstStatement
              ? inTransaction(restore(self), context, connection, 0)
              : Effect.zipRight(begin(connection), inTransaction(restore(self), context, connection, 0)),
          ).pipe(
            Effect.flatMap((exit) =>
              Effect.exit(connection.executeUnprepared(Exit.isSuccess(exit) ? "COMMIT" : "ROLLBACK", [], undefined))
                .pipe(Effect.flatMap((ended) =>
                  Effect.zipRight(
                    release(Exit.isFailure(ended)),
                    // As @effect/sql does: a COMMIT or ROLLBACK that fails is a defect.
                    Exit.isFailure(ended) ? Effect.die(Cause.squash(ended.cause)) : exit,
                  )
                ))
            ),
          ))
      })
    )

  const sql = ((strings: TemplateStringsArray, ...args: Array<any>) => {
    const [text, params] = plain(strings, ...args).compile(true)
    return run(text, params)
  }) as Sql
  return Object.assign(sql, {
    unsafe: run,
    literal: plain.literal,
    in: plain.in,
    insert: plain.insert,
    withTransaction,
  })
}

/** The repositories' `Sql`: over this project's driver when the client came with one. */
export class SqlExecutor extends Context.Tag("@platform/adapters/sql/SqlExecutor")<SqlExecutor, Sql>() {}

export const SqlExecutorLive: Layer.Layer<SqlExecutor, never, SqlClient.SqlClient> = Layer.effect(
  SqlExecutor,
  Effect.gen(function* () {
    const client = yield* SqlClient.SqlClient
    const driver = yield* Effect.serviceOption(SqlDriver)
    return makeSql(client, Option.getOrElse(driver, () => driverOver(client)))
  }),
)
