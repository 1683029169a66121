/**
 * `@effect/sql-pg` over a `pg` pool whose connections name their statements.
 *
 * `@effect/sql-pg` sends every parameterised statement unnamed, so PostgreSQL parses and plans it on
 * every execution. The repositories issue a small, fixed set of statement texts, so each connection
 * here gives each text a name the first time and, from then on, only binds and executes it: the server
 * skips the parse and the planning, and the driver sends less. Measured with bench/verify.ts, this
 * halves the PostgreSQL CPU per statement of the Verify hot path.
 *
 * - Only statements with parameters are named; statements without (BEGIN, COMMIT, the migrations'
 *   multi-statement scripts) keep the simple protocol.
 * - A name stands for one text, in every connection of the process. Past `maxNamedStatements` distinct
 *   texts (statements built with a variable number of values), further texts go unnamed, so the
 *   statements prepared per connection stay bounded.
 * - A statement that selects or returns `*` stays unnamed: a column added by a later migration (another
 *   process, a rolling deploy) would change its result type, which PostgreSQL refuses for a prepared
 *   statement ("cached plan must not change result type"). The others name their columns.
 * - A connection pooler in transaction mode must support protocol-level prepared statements
 *   (PgBouncer 1.21+ with `max_prepared_statements`); otherwise use a session-mode pool.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { SqlError } from "@effect/sql/SqlError"
import type { Connection } from "@effect/sql/SqlConnection"
import { Duration, Effect, Layer, type Scope, Stream } from "effect"
// Deno has no types for npm:pg of its own (tsc and Node read @types/pg from node_modules).
// @ts-types="npm:@types/pg@^8.15.0"
import Pg from "pg"
import type * as SqlClient from "@effect/sql/SqlClient"
import { type Lease, SqlDriver, type SqlDriverShape } from "./executor.ts"

export const maxNamedStatements = 1_000

const names = new Map<string, string>()

/** `SELECT *`, `SELECT t.*`, `RETURNING *`: the result's columns follow the table's. */
const selectsStar = /\b(?:SELECT|RETURNING)\s+(?:DISTINCT\s+)?(?:\w+\.)?\*|,\s*(?:\w+\.)?\*\s*(?:,|FROM\b)/i

/** The name of a statement text, or undefined (unnamed) when it selects `*` or the bound is reached. */
export const statementName = (text: string): string | undefined => {
  let name = names.get(text)
  if (name === undefined && names.size < maxNamedStatements && !selectsStar.test(text)) {
    name = `sa_${names.size}`
    names.set(text, name)
  }
  return name
}

/** What `Result.addFields` builds from a RowDescription: the fields, their type parsers, the empty row. */
interface ResultTemplate {
  readonly fields: unknown
  readonly parsers: unknown
  readonly emptyRow: unknown
}

/** The result templates of the named statements, per connection (a connection describes its own statements). */
const templatesOf = new WeakMap<object, Map<string, ResultTemplate>>()

/**
 * A named statement that reuses its result template. On every execution `pg` rebuilds the fields' type
 * parsers and the empty row from the statement's RowDescription (`Result.addFields`): 7 to 10 µs of CPU for a
 * 17-column result, where reusing them takes 3 (`npm run bench -- sql-statement`). A prepared statement's
 * columns cannot change on its connection (PostgreSQL refuses to run one whose result type changed), so the
 * template of its first execution on a connection serves its later ones there; another connection, which
 * prepares and describes the statement itself, builds its own (a column whose type a migration changed in
 * between is read with its new type there). `pg`'s own fields are set as `Result.addFields` sets them.
 * Exported for bench/sql-statement.ts.
 */
export class TemplatedQuery extends (Pg.Query as unknown as new (config: Pg.QueryConfig) => any) {
  private templates: Map<string, ResultTemplate> | undefined = undefined
  prepare(connection: object) {
    // An unnamed statement (BEGIN's carrier may be one) is described afresh each time.
    if (typeof this.name === "string") {
      let templates = templatesOf.get(connection)
      if (templates === undefined) templatesOf.set(connection, templates = new Map())
      this.templates = templates
    }
    super.prepare(connection)
  }
  handleRowDescription(msg: unknown) {
    const template = this.templates?.get(this.name)
    if (template === undefined) {
      super.handleRowDescription(msg)
      const result = this._result
      this.templates?.set(this.name, {
        fields: result.fields,
        parsers: result._parsers,
        emptyRow: result._prebuiltEmptyResultObject,
      })
      return
    }
    this._checkForMultirow()
    const result = this._result
    result.fields = template.fields
    result._parsers = template.parsers
    result._prebuiltEmptyResultObject = template.emptyRow
    this._accumulateRows = this.callback || !this.listeners("row").length
  }
}

/** A named statement run with its callback, as a query reusing its result template. */
const templated = (config: Pg.QueryConfig, callback: (error: Error | undefined, result: any) => void) =>
  new TemplatedQuery({ ...config, callback } as Pg.QueryConfig) as unknown as Pg.Submittable

/** A `pg` client that names parameterised statements given as `(text, values, callback)`. */
export class NamedStatementsClient extends Pg.Client {
  override query(...args: Array<any>): any {
    const [config, values, callback] = args
    if (typeof config === "string" && Array.isArray(values) && values.length > 0) {
      const name = statementName(config)
      if (name !== undefined) {
        return callback === undefined
          ? super.query({ name, text: config, values })
          : super.query(templated({ name, text: config, values }, callback))
      }
    }
    return (super.query as (...a: Array<any>) => any)(...args)
  }
}

const failed = (message: string) => (cause: unknown) => new SqlError({ cause, message })

/** `rows` of one result; an array of them for a multi-statement text (simple protocol), as @effect/sql-pg answers. */
const rowsOf = (result: any): ReadonlyArray<any> =>
  Array.isArray(result) ? result.map((r) => r.rows ?? []) : result.rows ?? []

/** `pg`'s config for a statement: named (see `statementName`) when it has parameters. */
const configOf = (text: string, params: ReadonlyArray<unknown>): Pg.QueryConfig => {
  const values = params as Array<unknown>
  const name = values.length > 0 ? statementName(text) : undefined
  return name === undefined ? { text, values } : { name, text, values }
}

/** The name BEGIN is prepared under on every connection that has begun a transaction. */
const beginName = "sa_begin"

/**
 * A transaction's first statement with its BEGIN, in one write and one round trip: Bind and Execute of the
 * prepared BEGIN, then the statement's own messages and one Sync. Nothing stands between them, so were BEGIN
 * refused, PostgreSQL would skip the statement up to the Sync (the statement never runs outside the
 * transaction). BEGIN's CommandComplete is the first the query receives and is not the statement's.
 * Only for a statement sent by the extended protocol (it has parameters): `prepare` is that protocol's path.
 */
class BegunStatement extends TemplatedQuery {
  private begun = false
  /** Read by bench/verify-lib/trace.ts, which logs the BEGIN it carries. */
  readonly carriesBegin = true
  override prepare(connection: any) {
    connection.bind({ statement: beginName, portal: "", values: [] })
    connection.execute({})
    super.prepare(connection)
  }
  handleCommandComplete(msg: unknown, connection: unknown) {
    if (this.begun) return super.handleCommandComplete(msg, connection)
    this.begun = true
  }
}

type Done = (error: Error | undefined, result: any) => void

const submit = (client: Pg.PoolClient, config: Pg.QueryConfig, done: Done) => {
  if (config.name === undefined) client.query(config, done)
  else client.query(templated(config, done))
}

/**
 * A connection held for a transaction, which it begins itself (`Lease.beginsWithFirstStatement`): its first
 * statement carries BEGIN when it can (it has parameters, and BEGIN is prepared on the connection), else BEGIN
 * goes first on its own (preparing it for the connection's later transactions); COMMIT or ROLLBACK of a
 * transaction in which nothing was sent sends nothing.
 */
const transactionOn = (client: Pg.PoolClient) => {
  let begun = false
  const connection = (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection
  return (config: Pg.QueryConfig, done: Done) => {
    if (begun) return submit(client, config, done)
    if (config.text === "COMMIT" || config.text === "ROLLBACK") return done(undefined, { rows: [] })
    begun = true
    if ((config.values?.length ?? 0) > 0 && connection.parsedStatements[beginName] === "BEGIN") {
      return void client.query(
        new BegunStatement({ ...config, callback: done } as Pg.QueryConfig) as unknown as Pg.Submittable,
      )
    }
    submit(
      client,
      { name: beginName, text: "BEGIN", values: [] },
      (error) => error ? done(error, undefined) : submit(client, config, done),
    )
  }
}

const query = (
  send: (config: Pg.QueryConfig, done: Done) => void,
  text: string,
  params: ReadonlyArray<unknown>,
): Effect.Effect<ReadonlyArray<any>, SqlError> =>
  Effect.async((resume) => {
    send(configOf(text, params), (error, result) =>
      resume(error ? Effect.fail(failed("Failed to execute statement")(error)) : Effect.succeed(rowsOf(result))))
  })

/** @effect/sql's view of a client held for a transaction. */
const connectionOf = (client: Pg.PoolClient): Connection => {
  const send = transactionOn(client)
  const execute: Connection["execute"] = (text, params, transformRows) =>
    transformRows ? Effect.map(query(send, text, params), transformRows) : query(send, text, params)
  const raw = (config: Pg.QueryConfig | Pg.QueryArrayConfig) =>
    Effect.async<Pg.QueryResult, SqlError>((resume) => {
      send(config as Pg.QueryConfig, (error, result: Pg.QueryResult) =>
        resume(error ? Effect.fail(failed("Failed to execute statement")(error)) : Effect.succeed(result)))
    })
  return {
    execute,
    executeUnprepared: execute,
    executeRaw: (text, params) => raw({ text, values: params as Array<unknown> }),
    executeValues: (text, params) =>
      Effect.map(raw({ text, values: params as Array<unknown>, rowMode: "array" }), (result) => result.rows),
    executeStream: (text, params, transformRows) => Stream.fromIterableEffect(execute(text, params, transformRows)),
  }
}

/** A client from the pool; `release(broken)` returns it, or discards it when it broke or reported an error. */
const checkout = (
  pool: Pg.Pool,
  use: (client: Pg.PoolClient, release: (broken: boolean) => void) => void,
  onFailure: (error: unknown) => void,
) =>
  pool.connect((error, client, done) => {
    if (error || client === undefined) return onFailure(error)
    let broke: Error | undefined
    const onError = (cause: Error) => (broke = cause)
    client.on("error", onError)
    use(client, (broken) => {
      client.off("error", onError)
      done(broke ?? (broken ? new Error("transaction end failed") : undefined))
    })
  })

/**
 * The executor's driver over the pool: a statement outside a transaction takes any idle connection for
 * itself; a transaction holds one client from BEGIN to its end. A failing statement (a constraint, a
 * cancelled query) leaves its connection in the pool with its prepared statements, unlike `pool.query`,
 * which discards it; a client that reports an error while held, or whose COMMIT/ROLLBACK failed, is
 * discarded. An interrupted statement is not cancelled on the server (the statements here are short):
 * it finishes, and its transaction then rolls back.
 */
export const driver = (pool: Pg.Pool): SqlDriverShape => ({
  execute: (text, params) =>
    Effect.async((resume) =>
      checkout(
        pool,
        (client, release) =>
          client.query(text, params as Array<unknown>, (error: Error | undefined, result: any) => {
            release(false)
            resume(error ? Effect.fail(failed("Failed to execute statement")(error)) : Effect.succeed(rowsOf(result)))
          }),
        (error) => resume(Effect.fail(failed("Failed to acquire connection")(error))),
      )
    ),
  lease: Effect.async<Lease, SqlError>((resume) =>
    checkout(
      pool,
      (client, release) =>
        resume(
          Effect.succeed({
            connection: connectionOf(client),
            release: (broken) => Effect.sync(() => release(broken)),
            beginsWithFirstStatement: true,
          }),
        ),
      (error) => resume(Effect.fail(failed("Failed to acquire connection for transaction")(error))),
    )
  ),
})

const makePool = (url: string): Effect.Effect<Pg.Pool, SqlError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const pool = new Pg.Pool({
        connectionString: url,
        application_name: "@effect/sql-pg",
        Client: NamedStatementsClient as unknown as new () => Pg.ClientBase,
      })
      pool.on("error", () => {})
      return pool
    }),
    (pool) => Effect.promise(() => pool.end()).pipe(Effect.interruptible, Effect.timeoutOption(1000)),
  ).pipe(
    // As PgClient.layer does: fail early when the server cannot be reached.
    Effect.tap((pool) =>
      Effect.tryPromise({
        try: () => pool.query("SELECT 1"),
        catch: failed("PgClient: Failed to connect"),
      }).pipe(
        Effect.timeoutFail({
          duration: Duration.seconds(5),
          onTimeout: () =>
            new SqlError({ cause: new Error("Connection timed out"), message: "PgClient: Connection timed out" }),
        }),
      )
    ),
  )

/** Like `PgClient.layer({ url })`, with named statements, and the executor's driver over the same pool. */
export const layer = (url: string): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient | SqlDriver, SqlError> =>
  Layer.unwrapScoped(Effect.map(makePool(url), (pool) =>
    Layer.merge(
      PgClient.layerFromPool({ acquire: Effect.succeed(pool) }),
      Layer.succeed(SqlDriver, driver(pool)),
    )))
