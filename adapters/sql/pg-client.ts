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
 *
 * What this needs of `pg` beyond its public API (its connection's prepared statements and socket, its pipeline
 * flag, its `Query`'s protocol hooks) is in pg-internals.ts, held to the pinned `pg` by its fence test.
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
import {
  carryingBegin,
  type Corkable,
  type Done,
  preparedText,
  setPipelined,
  socketOf,
  templated,
} from "./pg-internals.ts"
import { maxNamedStatements, selectsStar } from "./named-statements.ts"

const names = new Map<string, string>()

/** The name of a statement text, or undefined (unnamed) when it selects `*` or the bound is reached. */
export const statementName = (text: string): string | undefined => {
  let name = names.get(text)
  if (name === undefined && names.size < maxNamedStatements && !selectsStar.test(text)) {
    name = `sa_${names.size}`
    names.set(text, name)
  }
  return name
}

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
  return (config: Pg.QueryConfig, done: Done) => {
    if (begun) return submit(client, config, done)
    if (config.text === "COMMIT" || config.text === "ROLLBACK") return done(undefined, { rows: [] })
    begun = true
    if ((config.values?.length ?? 0) > 0 && preparedText(client, beginName) === "BEGIN") {
      return void client.query(carryingBegin(beginName, config, done))
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
      done(broke ?? (broken ? new Error("connection given up (a failed transaction end, or broken)") : undefined))
    })
  })

/** Connections the statements outside a transaction share (`pipelineOver`). */
const pipelinedConnections = 2

/** One shared connection: the client once checked out, the statements waiting for it meanwhile. */
interface Lane {
  /** The connection and how to hand it back (`broken`: discarded), once checked out. */
  held: { readonly client: Pg.PoolClient; readonly release: (broken: boolean) => void } | undefined
  waiting: Array<(error: Error | undefined) => void> | undefined
  inFlight: number
}

/** The statements outside a transaction, sent over a few connections shared in `pg`'s pipeline mode. */
export interface Pipeline {
  readonly send: (config: Pg.QueryConfig, done: Done) => void
  /** Waits for the statements in flight, then hands the connections back to the pool. */
  readonly close: () => Promise<void>
}

/**
 * Statements outside a transaction share `size` connections held from the pool in `pg`'s pipeline mode:
 * several statements in flight on each, answered in order, and every statement handed to a connection in
 * one turn of the event loop leaves in one write (the socket stays corked until the turn's check phase).
 * Each statement keeps its own Sync, so one that fails fails alone, and the next run as they would on a
 * connection of their own.
 *
 * Why: on the 2-core machines here a write to a local TCP socket costs 30 to 40 µs of CPU (the kernel runs
 * the receiving side's TCP inside the writer's system call), and writes were a third of the Verify host's
 * CPU. Under load the rate windows, reads and single-statement transitions of concurrent requests leave
 * together, about two statements a write: measured with bench/verify.ts (PostgreSQL, 16 clients, four pairs
 * of runs), host CPU a verification -10 to -17 %, PostgreSQL's -8 to -15 % (docs/performance.md, Verify).
 *
 * What it costs: a statement waits behind those sent before it on its connection. A turn's statements go
 * to the connection with the fewest in flight, so a slow one (a lock wait, a long report) holds up only
 * those already sent behind it. A transaction's statements run on its own connection, never here, and no
 * code waits on a statement outside its transaction while holding one, so a statement here that waits on a
 * transaction's lock always ends when that transaction does.
 *
 * A connection that breaks fails its statements in flight (as a connection of their own would) and is
 * replaced at the next statement.
 */
export const pipelineOver = (pool: Pg.Pool, size: number = pipelinedConnections): Pipeline => {
  const lanes: Array<Lane> = Array.from(
    { length: size },
    () => ({ held: undefined, waiting: undefined, inFlight: 0 }),
  )
  let closed = false
  let idle: (() => void) | undefined

  /** This turn's lane and the sockets corked in it, uncorked together in the check phase. */
  let turnLane: Lane | undefined
  const corked: Array<Corkable> = []
  let turnEnds = false
  const endTurn = () => {
    turnEnds = false
    turnLane = undefined
    for (const stream of corked.splice(0)) stream.uncork()
  }
  const inTurn = () => {
    if (turnEnds) return
    turnEnds = true
    setImmediate(endTurn)
  }
  const laneOfTurn = (): Lane => {
    if (turnLane !== undefined) return turnLane
    let lane = lanes[0]
    for (const l of lanes) if (l.inFlight < lane.inFlight) lane = l
    inTurn()
    return turnLane = lane
  }

  const write = (client: Pg.PoolClient, config: Pg.QueryConfig, done: Done) => {
    const stream = socketOf(client)
    if (!corked.includes(stream)) {
      inTurn()
      stream.cork()
      corked.push(stream)
    }
    submit(client, config, done)
  }

  /** Gives a lane's connection up (discarded by the pool); the lane's next statement opens another. */
  const drop = (lane: Lane, client: Pg.PoolClient) => {
    if (lane.held?.client !== client) return
    const { release } = lane.held
    lane.held = undefined
    release(true)
  }

  const open = (lane: Lane) => {
    lane.waiting = []
    const flush = (error: Error | undefined) => {
      const waiting = lane.waiting ?? []
      lane.waiting = undefined
      for (const w of waiting) w(error)
    }
    checkout(pool, (client, release) => {
      setPipelined(client, true)
      lane.held = { client, release }
      client.on("error", () => drop(lane, client))
      client.on("end", () => drop(lane, client))
      flush(undefined)
    }, (error) => flush(error instanceof Error ? error : new Error("no connection")))
  }

  const settled = () => {
    if (idle !== undefined && lanes.every((l) => l.inFlight === 0)) idle()
  }

  const send = (config: Pg.QueryConfig, done: Done) => {
    if (closed) return done(new Error("The database connections are closed."), undefined)
    const lane = laneOfTurn()
    lane.inFlight++
    const on = (client: Pg.PoolClient) => {
      write(client, config, (error, result) => {
        lane.inFlight--
        // The server ends the session (a FATAL error: terminated, shutting down) before the socket closes:
        // the statements after this one go to a new connection at once, not to the closing one.
        if ((error as { severity?: string } | undefined)?.severity === "FATAL") drop(lane, client)
        settled()
        done(error, result)
      })
    }
    if (lane.held !== undefined) return on(lane.held.client)
    if (lane.waiting === undefined) open(lane)
    lane.waiting!.push((error) => {
      const client = lane.held?.client
      if (error === undefined && client !== undefined) return on(client)
      lane.inFlight--
      settled()
      done(error ?? new Error("pipelined connection ended"), undefined)
    })
  }

  const close = async () => {
    closed = true
    if (lanes.some((l) => l.inFlight > 0)) await new Promise<void>((resolve) => (idle = resolve))
    for (const lane of lanes) {
      const held = lane.held
      if (held === undefined) continue
      lane.held = undefined
      setPipelined(held.client, false)
      held.release(false)
    }
  }

  return { send, close }
}

/**
 * The executor's driver over the pool: statements outside a transaction go through the pipeline
 * (`pipelineOver`); a transaction holds one client from BEGIN to its end. A failing statement (a constraint, a
 * cancelled query) keeps its connection and its prepared statements, unlike `pool.query`, which discards
 * it; a client that reports an error while held, or whose COMMIT/ROLLBACK failed, is discarded. An
 * interrupted statement is not cancelled on the server (the statements here are short): it finishes, and
 * its transaction then rolls back.
 */
export const driver = (pool: Pg.Pool, pipeline: Pipeline): SqlDriverShape => ({
  execute: (text, params) => query(pipeline.send, text, params),
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
        // pg's default of 10 for transactions, besides the pipeline's own.
        max: 10 + pipelinedConnections,
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
  Layer.unwrapScoped(Effect.gen(function* () {
    const pool = yield* makePool(url)
    // Closed before the pool ends (a scope releases in reverse): its statements in flight finish first.
    const pipeline = yield* Effect.acquireRelease(
      Effect.sync(() => pipelineOver(pool)),
      (p) => Effect.promise(() => p.close()).pipe(Effect.interruptible, Effect.timeoutOption(1000)),
    )
    return Layer.merge(
      PgClient.layerFromPool({ acquire: Effect.succeed(pool) }),
      Layer.succeed(SqlDriver, driver(pool, pipeline)),
    )
  }))
