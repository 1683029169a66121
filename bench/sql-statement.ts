/**
 * CPU a statement on PostgreSQL, one connection at a time (`npm run bench -- sql-statement`): the `pg`
 * driver alone (with the named statements of adapters/sql/pg-client.ts, and its handling of a 17-column result
 * with and without the result templates pg-client.ts keeps), @effect/sql running its
 * `Statement` as an Effect, and the repositories' executor (adapters/sql/executor.ts); each alone, ten in
 * one Effect, and five in a transaction (figures per statement, BEGIN and COMMIT included in the cost).
 *
 *   npm run bench -- sql-statement [--database-url URL] [--n N]
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Layer, ManagedRuntime } from "effect"
import Pg from "pg"
import { parseArgs } from "node:util"
import { SqlExecutor, SqlExecutorLive } from "../adapters/sql/executor.ts"
import * as PgNamed from "../adapters/sql/pg-client.ts"
import { TemplatedQuery } from "../adapters/sql/pg-internals.ts"

const { values } = parseArgs({
  options: { "database-url": { type: "string" }, n: { type: "string", default: "20000" } },
})
const url = values["database-url"] ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"
const n = Number(values.n)
const text = "SELECT $1::int + 1 AS x"

/** CPU and wall microseconds a statement over `n` statements (after 2,000 of warm-up). */
const measure = async (label: string, perCall: number, call: (i: number) => Promise<unknown>) => {
  const calls = Math.ceil(n / perCall)
  for (let i = 0; i < 2_000 / perCall; i++) await call(i)
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  for (let i = 0; i < calls; i++) await call(i)
  const cpu = process.cpuUsage(cpu0)
  const wall = (performance.now() - t0) * 1000
  const statements = calls * perCall
  console.log(
    `${label.padEnd(52)} ${((cpu.user + cpu.system) / statements).toFixed(1).padStart(6)} µs CPU ` +
      `${(wall / statements).toFixed(1).padStart(7)} µs wall`,
  )
}
const ten = Array.from({ length: 10 }, (_, i) => i)
const five = ten.slice(0, 5)

console.log(`# CPU a statement, one connection, ${n} statements a line\n`)

/**
 * The driver's handling of one result alone, no network (the network's noise on this machine is larger than
 * the difference): a named statement's RowDescription and one DataRow of 17 columns (a verification's width),
 * with `pg` building the result's template each time against pg-client.ts keeping it per connection.
 */
const measureResultTemplates = async () => {
  const fields = Array.from({ length: 17 }, (_, c) => ({
    name: `c${c}`,
    dataTypeID: [20, 25, 16][c % 3], // bigint, text, boolean
    format: "text",
  }))
  const values = fields.map((f, c) => f.dataTypeID === 20 ? String(c) : f.dataTypeID === 25 ? `text ${c}` : "t")
  const noop = () => {}
  const connection = {
    parsedStatements: { wide: "SELECT …" } as Record<string, string>,
    submittedNamedStatements: {},
    stream: { cork: noop, uncork: noop },
    parse: noop,
    bind: noop,
    describe: noop,
    execute: noop,
    sync: noop,
    flush: noop,
  }
  const rebuilt = () => {
    const query = new (Pg.Query as any)({ name: "wide", text: "SELECT …", values: [1], callback: noop })
    query.prepare(connection)
    query.handleRowDescription({ fields })
    query.handleDataRow({ fields: values })
  }
  const kept = () => {
    const query = new TemplatedQuery({ name: "wide", text: "SELECT …", values: [1], callback: noop } as any)
    query.prepare(connection)
    query.handleRowDescription({ fields })
    query.handleDataRow({ fields: values })
  }
  for (let slice = 1; slice <= 3; slice++) {
    await measure(`pg result alone, 17 columns, template rebuilt (${slice})`, 1, () => Promise.resolve(rebuilt()))
    await measure(`pg result alone, 17 columns, template kept (${slice})`, 1, () => Promise.resolve(kept()))
  }
}

const pool = new Pg.Pool({ connectionString: url, max: 1, Client: PgNamed.NamedStatementsClient as any })
await measure("pg: pool.query", 1, (i) => pool.query(text, [i]))
await measureResultTemplates()
await measure("pg: BEGIN, 5 statements, COMMIT (per statement)", 5, async () => {
  const client = await pool.connect()
  try {
    await client.query("BEGIN")
    for (const j of five) await client.query(text, [j])
    await client.query("COMMIT")
  } finally {
    client.release()
  }
})
await pool.end()

/** The three lines for one way of running a statement as an Effect, on its own runtime. */
const measureEffects = async <R, ER>(
  label: string,
  runtime: ManagedRuntime.ManagedRuntime<R, ER>,
  statement: (i: number) => Effect.Effect<unknown, unknown>,
  transaction: <A, E>(self: Effect.Effect<A, E>) => Effect.Effect<A, unknown>,
) => {
  const all = (is: ReadonlyArray<number>) => Effect.forEach(is, statement, { discard: true })
  await measure(`${label}: one a runPromise`, 1, (i) => runtime.runPromise(statement(i)))
  await measure(`${label}: ten in one Effect`, 10, () => runtime.runPromise(all(ten)))
  await measure(`${label}: 5 in a transaction`, 5, () => runtime.runPromise(transaction(all(five))))
  await runtime.dispose()
}

const client = ManagedRuntime.make(PgNamed.layer(url))
const sql = await client.runPromise(SqlClient.SqlClient)
await measureEffects("@effect/sql Statement", client, (i) => sql`SELECT ${i}::int + 1 AS x`, sql.withTransaction)

const executor = ManagedRuntime.make(SqlExecutorLive.pipe(Layer.provideMerge(PgNamed.layer(url))))
const run = await executor.runPromise(SqlExecutor)
await measureEffects("executor", executor, (i) => run`SELECT ${i}::int + 1 AS x`, run.withTransaction)
