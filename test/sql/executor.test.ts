/**
 * The repositories' statement path (adapters/sql/executor.ts): statements and transactions over this
 * project's drivers (PGlite; PostgreSQL when DATABASE_URL is set) and over any other `SqlClient`.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Exit, Layer, Redacted } from "effect"
import * as net from "node:net"
import Pg from "pg"
import { SqlExecutor, SqlExecutorLive } from "../../adapters/sql/executor.ts"
import * as PgNamedClient from "../../adapters/sql/pg-client.ts"
import * as PgliteClient from "../../adapters/sql/pglite-client.ts"
import { freshSchema, isDefect } from "../store/fixtures.ts"
import { unmigrated } from "../support/initdb-seed.ts"

const databaseUrl = process.env.DATABASE_URL

const setup = Effect.gen(function* () {
  const sql = yield* SqlExecutor
  yield* sql`CREATE TABLE IF NOT EXISTS notes (id int PRIMARY KEY, body text NOT NULL)`
  yield* sql`CREATE TABLE IF NOT EXISTS later (id int UNIQUE DEFERRABLE INITIALLY DEFERRED)`
  return sql
})

const fresh = () => Math.floor(Math.random() * 1e9)

/** The server-side id of the current transaction: the same for every statement of one transaction. */
const txid = (sql: SqlExecutor["Type"]) => Effect.map(sql`SELECT txid_current()::text AS id`, ([row]) => row.id)

const executorSuite = (name: string, clientLayer: Layer.Layer<SqlClient.SqlClient, unknown>) =>
  layer(SqlExecutorLive.pipe(Layer.provideMerge(clientLayer), Layer.orDie), { timeout: 60_000 })(name, (it) => {
    describe("statements", () => {
      it.effect("a template runs with its values and answers the rows", () =>
        Effect.gen(function* () {
          const sql = yield* setup
          const id = fresh()
          yield* sql`INSERT INTO notes (id, body) VALUES (${id}, ${"marhaba"})`
          assert.deepStrictEqual(yield* sql`SELECT id, body FROM notes WHERE id = ${id}`, [{ id, body: "marhaba" }])
          const [row] = yield* sql.unsafe("SELECT body FROM notes WHERE id = $1", [id])
          assert.strictEqual(row.body, "marhaba")
          const listed = yield* sql`SELECT id FROM notes WHERE ${sql.in("id", [id, -1])} AND body <> ${"x"}`
          assert.deepStrictEqual(listed, [{ id }])
        }))

      it.effect("a statement run again answers rows parsed as the first time: every column type, in and out of a transaction", () =>
        Effect.gen(function* () {
          const sql = yield* setup
          // pg-client.ts keeps a named statement's result template per connection from its first execution.
          const text = `SELECT $1::int AS n, 'x' || $1::text AS t, $1::int > 2 AS flag, NULL::text AS nothing,
            jsonb_build_object('n', $1::int) AS j, to_timestamp($1::int) AS at`
          const expected = (i: number) => ({
            n: i,
            t: `x${i}`,
            flag: i > 2,
            nothing: null,
            j: { n: i },
            at: new Date(i * 1000),
          })
          for (const i of [1, 2, 3, 4]) assert.deepStrictEqual(yield* sql.unsafe(text, [i]), [expected(i)])
          yield* sql.withTransaction(
            Effect.forEach(
              [5, 6, 7],
              (i) => Effect.map(sql.unsafe(text, [i]), (rows) => assert.deepStrictEqual(rows, [expected(i)])),
            ),
          )
        }))

      it.effect("a failing statement fails with SqlError and the client goes on", () =>
        Effect.gen(function* () {
          const sql = yield* setup
          const id = fresh()
          yield* sql`INSERT INTO notes (id, body) VALUES (${id}, ${"a"})`
          const error = yield* Effect.flip(sql`INSERT INTO notes (id, body) VALUES (${id}, ${"b"})`)
          assert.strictEqual(error._tag, "SqlError")
          assert.strictEqual((yield* sql`SELECT body FROM notes WHERE id = ${id}`)[0].body, "a")
        }))

      it.effect("a failing statement keeps its connection: the next one runs on the same backend", () =>
        Effect.gen(function* () {
          const sql = yield* setup
          const backend = Effect.map(sql`SELECT pg_backend_pid() AS pid`, ([row]) => row.pid)
          const before = yield* backend
          yield* Effect.flip(sql`SELECT 1 / ${0}::int AS x`)
          assert.strictEqual(yield* backend, before)
        }))
    })

    describe("transactions", () => {
      it.effect("every statement of a transaction runs in it; statements outside run each in their own", () =>
        Effect.gen(function* () {
          const sql = yield* setup
          const [a, b] = yield* sql.withTransaction(Effect.all([txid(sql), txid(sql)]))
          assert.strictEqual(a, b)
          assert.notStrictEqual(yield* txid(sql), yield* txid(sql))
        }))

      it.effect("a success commits; a failure rolls back and surfaces unchanged", () =>
        Effect.gen(function* () {
          const sql = yield* setup
          const [kept, dropped] = [fresh(), fresh()]
          yield* sql.withTransaction(sql`INSERT INTO notes (id, body) VALUES (${kept}, ${"kept"})`)
          const error = yield* Effect.flip(sql.withTransaction(
            Effect.zipRight(sql`INSERT INTO notes (id, body) VALUES (${dropped}, ${"dropped"})`, Effect.fail("no")),
          ))
          assert.strictEqual(error, "no")
          const rows = yield* sql`SELECT id FROM notes WHERE ${sql.in("id", [kept, dropped])}`
          assert.deepStrictEqual(rows, [{ id: kept }])
        }))

      it.effect("a defect rolls back", () =>
        Effect.gen(function* () {
          const sql = yield* setup
          const id = fresh()
          const exit = yield* Effect.exit(sql.withTransaction(
            Effect.zipRight(sql`INSERT INTO notes (id, body) VALUES (${id}, ${"x"})`, Effect.dieMessage("boom")),
          ))
          assert.isTrue(isDefect(exit))
          assert.deepStrictEqual(yield* sql`SELECT id FROM notes WHERE id = ${id}`, [])
        }))

      it.effect("a nested transaction is a savepoint: its failure undoes only its own writes", () =>
        Effect.gen(function* () {
          const sql = yield* setup
          const [outer, inner] = [fresh(), fresh()]
          yield* sql.withTransaction(Effect.gen(function* () {
            yield* sql`INSERT INTO notes (id, body) VALUES (${outer}, ${"outer"})`
            const nested = yield* Effect.exit(sql.withTransaction(
              Effect.zipRight(sql`INSERT INTO notes (id, body) VALUES (${inner}, ${"inner"})`, Effect.fail("inner")),
            ))
            assert.isTrue(Exit.isFailure(nested))
          }))
          const rows = yield* sql`SELECT id FROM notes WHERE ${sql.in("id", [outer, inner])}`
          assert.deepStrictEqual(rows, [{ id: outer }])
        }))

      it.effect("@effect/sql's own transactions and these share one connection, either way round", () =>
        Effect.gen(function* () {
          const sql = yield* setup
          const client = yield* SqlClient.SqlClient
          const viaClient = (self: Effect.Effect<ReadonlyArray<{ id: string }>, unknown>) =>
            Effect.map(self, ([row]) => row.id)
          const [a, b] = yield* client.withTransaction(
            Effect.all([txid(sql), viaClient(client`SELECT txid_current()::text AS id`)]),
          )
          assert.strictEqual(a, b)
          const [c, d] = yield* sql.withTransaction(
            Effect.all([txid(sql), viaClient(client`SELECT txid_current()::text AS id`)]),
          )
          assert.strictEqual(c, d)
        }))

      it.effect("a COMMIT that fails is a defect, nothing is kept, and the client goes on", () =>
        Effect.gen(function* () {
          const sql = yield* setup
          const id = fresh()
          // A deferred unique constraint is checked at COMMIT.
          const exit = yield* Effect.exit(sql.withTransaction(
            sql`INSERT INTO later (id) VALUES (${id}), (${id})`,
          ))
          assert.isTrue(isDefect(exit))
          assert.deepStrictEqual(yield* sql`SELECT id FROM later WHERE id = ${id}`, [])
          yield* sql.withTransaction(sql`INSERT INTO later (id) VALUES (${id})`)
          assert.deepStrictEqual(yield* sql`SELECT id FROM later WHERE id = ${id}`, [{ id }])
        }))

      it.effect(
        "a first statement with values (which carries the transaction's BEGIN on PostgreSQL) runs in the transaction, every time on every connection",
        () =>
          Effect.gen(function* () {
            const sql = yield* setup
            const withValue = Effect.map(sql`SELECT txid_current()::text AS id WHERE ${1}::int = 1`, ([row]) => row.id)
            for (let i = 0; i < 12; i++) {
              const ids = yield* Effect.forEach(
                Array.from({ length: 4 }, () => sql.withTransaction(Effect.all([withValue, txid(sql), withValue]))),
                (t) => t,
                { concurrency: "unbounded" },
              )
              for (const [a, b, c] of ids) assert.isTrue(a === b && b === c)
            }
          }),
      )

      it.effect(
        "a failing first statement rolls its transaction back; an empty transaction commits; the connection goes on",
        () =>
          Effect.gen(function* () {
            const sql = yield* setup
            for (let i = 0; i < 12; i++) {
              const id = fresh()
              yield* sql`INSERT INTO notes (id, body) VALUES (${id}, ${"first"})`
              const failed = yield* Effect.exit(sql.withTransaction(Effect.zipRight(
                sql`INSERT INTO notes (id, body) VALUES (${id}, ${"again"})`,
                sql`UPDATE notes SET body = ${"changed"} WHERE id = ${id}`,
              )))
              assert.isTrue(Exit.isFailure(failed))
              yield* sql.withTransaction(Effect.void)
              const moved = yield* sql.withTransaction(Effect.zipRight(
                sql`UPDATE notes SET body = ${"moved"} WHERE id = ${id}`,
                sql`SELECT body FROM notes WHERE id = ${id}`,
              ))
              assert.deepStrictEqual(moved, [{ body: "moved" }])
            }
          }),
      )

      it.effect("connections come back: many transactions, failed ones included, never exhaust the pool", () =>
        Effect.gen(function* () {
          const sql = yield* setup
          for (let i = 0; i < 30; i++) {
            yield* Effect.exit(
              sql.withTransaction(Effect.zipRight(txid(sql), i % 2 === 0 ? Effect.fail("no") : Effect.void)),
            )
          }
          const ids = yield* Effect.forEach(
            Array.from({ length: 20 }, () => sql.withTransaction(txid(sql))),
            (t) => t,
            { concurrency: "unbounded" },
          )
          assert.strictEqual(new Set(ids).size, 20)
        }))
    })
  })

executorSuite("SqlExecutor over PGlite", PgliteClient.layer(unmigrated()))

describe.runIf(databaseUrl !== undefined)("on PostgreSQL (DATABASE_URL)", () => {
  it("a named statement's result template is its connection's: another connection reads a column whose type changed with its new type", async () => {
    const table = `templates_${fresh()}`
    const text = `SELECT c AS v FROM ${table} WHERE $1::int > 0`
    const connect = async () => {
      const client = new PgNamedClient.NamedStatementsClient({ connectionString: databaseUrl })
      await client.connect()
      return client
    }
    const read = (client: PgNamedClient.NamedStatementsClient, value: unknown) =>
      new Promise<unknown>((resolve, reject) =>
        client.query(
          text,
          [value],
          (error: Error | undefined, result: any) => error ? reject(error) : resolve(result.rows[0]?.v),
        )
      )
    const first = await connect()
    try {
      await first.query(`CREATE TABLE ${table} (c int)`)
      await first.query(`INSERT INTO ${table} VALUES (5)`)
      assert.strictEqual(await read(first, 5), 5)
      assert.strictEqual(await read(first, 5), 5)
      await first.query(`ALTER TABLE ${table} ALTER c TYPE text USING c::text`)
      const second = await connect()
      try {
        assert.strictEqual(await read(second, 5), "5")
        assert.strictEqual(await read(second, 5), "5")
      } finally {
        await second.end()
      }
      // The first connection's prepared statement is refused, not read with its old template.
      const refused = await read(first, 5).then(() => undefined, (e: Error) => e.message)
      assert.match(String(refused), /cached plan must not change result type/)
    } finally {
      await first.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined)
      await first.end()
    }
  })

  describe("statements outside a transaction share pipelined connections (pipelineOver)", () => {
    const withPipeline = async (
      use: (
        pipeline: PgNamedClient.Pipeline,
        run: (text: string, values?: Array<unknown>) => Promise<any>,
      ) => Promise<void>,
    ) => {
      const pool = new Pg.Pool({ connectionString: databaseUrl, Client: PgNamedClient.NamedStatementsClient as any })
      pool.on("error", () => {})
      const pipeline = PgNamedClient.pipelineOver(pool)
      const run = (text: string, values: Array<unknown> = []) =>
        new Promise<any>((resolve, reject) =>
          pipeline.send({ text, values }, (error, result) => error ? reject(error) : resolve(result.rows))
        )
      try {
        await use(pipeline, run)
      } finally {
        await pipeline.close()
        await pool.end()
      }
    }

    /** Writes to sockets while `during` runs (a corked socket's chunks go out in one `_writev`). */
    const socketWrites = async (during: () => Promise<unknown>) => {
      const proto = net.Socket.prototype as any
      const [write, writev] = [proto._write, proto._writev]
      let writes = 0
      proto._write = function (...a: Array<unknown>) {
        writes++
        return write.apply(this, a)
      }
      proto._writev = function (...a: Array<unknown>) {
        writes++
        return writev.apply(this, a)
      }
      try {
        await during()
      } finally {
        proto._write = write
        proto._writev = writev
      }
      return writes
    }

    it("statements handed over in one turn leave in one write, each answered with its own rows or its own error", async () => {
      await withPipeline(async (_, run) => {
        await run("SELECT $1::int AS warm", [1]) // the connection opened, outside the count
        const answers: Array<Promise<unknown>> = []
        const writes = await socketWrites(async () => {
          for (let i = 0; i < 40; i++) {
            answers.push(
              i % 7 === 3
                ? run("SELECT 1 / $1::int AS x", [0]).then(() => "no error", (e: Error) => e.message)
                : run("SELECT $1::int * 2 AS x, pg_backend_pid() AS pid", [i]).then((rows) => rows[0]),
            )
          }
          await Promise.all(answers)
        })
        assert.strictEqual(writes, 1)
        const settled = await Promise.all(answers)
        settled.forEach((answer, i) => {
          if (i % 7 === 3) assert.match(String(answer), /division by zero/)
          else assert.strictEqual((answer as any).x, i * 2)
        })
        // One connection carried them all.
        assert.strictEqual(new Set(settled.filter((a) => typeof a === "object").map((a: any) => a.pid)).size, 1)
      })
    })

    it("a slow statement holds up only its own connection: a later turn's statements go to the other one", async () => {
      await withPipeline(async (_, run) => {
        const order: Array<string> = []
        const slow = run("SELECT pg_sleep($1::float8) AS slept", [0.5]).then(() => order.push("slow"))
        await new Promise((resolve) => setImmediate(resolve))
        const quick = await Promise.all(
          Array.from({ length: 5 }, (_, i) => run("SELECT $1::int AS n", [i]).then((rows) => rows[0].n)),
        )
        order.push("quick")
        assert.deepStrictEqual(quick, [0, 1, 2, 3, 4])
        await slow
        assert.deepStrictEqual(order, ["quick", "slow"])
      })
    })

    it("a connection that breaks fails its statements in flight, and the next statement runs on a new one", async () => {
      await withPipeline(async (_, run) => {
        const [{ pid }] = await run("SELECT pg_backend_pid() AS pid, $1::int AS one", [1])
        const inFlight = run("SELECT pg_sleep($1::float8) AS slept", [5]).then(() => "finished", () => "failed")
        const other = new Pg.Client({ connectionString: databaseUrl })
        await other.connect()
        try {
          await new Promise((resolve) => setTimeout(resolve, 100))
          await other.query("SELECT pg_terminate_backend($1)", [pid])
        } finally {
          await other.end()
        }
        assert.strictEqual(await inFlight, "failed")
        const [after] = await run("SELECT pg_backend_pid() AS pid, $1::int AS one", [1])
        assert.notStrictEqual(after.pid, pid)
        assert.strictEqual(after.one, 1)
      })
    })

    it("closing waits for the statements in flight, then refuses new ones", async () => {
      let slept: Promise<string> | undefined
      let runAfter: ((text: string, values?: Array<unknown>) => Promise<any>) | undefined
      await withPipeline((_, run) => {
        runAfter = run
        slept = run("SELECT pg_sleep($1::float8) AS slept", [0.2]).then(() => "finished", (e: Error) => e.message)
        return Promise.resolve()
      })
      assert.strictEqual(await slept, "finished")
      assert.match(await runAfter!("SELECT 1").then(() => "ran", (e: Error) => e.message), /closed/)
    })
  })

  executorSuite("SqlExecutor over the pg driver", freshSchema(databaseUrl!, (url) => PgNamedClient.layer(url)))
  executorSuite(
    "SqlExecutor over a plain @effect/sql-pg client (no driver: connections from reserve)",
    freshSchema(databaseUrl!, (url) => PgClient.layer({ url: Redacted.make(url), maxConnections: 3 })),
  )
})
