import { assert, describe, it, layer } from "@effect/vitest"
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import { Effect, Exit } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { PGlite } from "@electric-sql/pglite"
import * as PgliteClient from "../../adapters/sql/pglite-client.ts"
import { maxNamedStatements } from "../../adapters/sql/named-statements.ts"
import { unmigrated } from "../support/initdb-seed.ts"

/** A macrotask pause; `Effect.sleep` would wait on the TestClock inside `it.effect`. */
const realSleep = Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, 1)))

const failWith = <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.flip(self)

layer(PgliteClient.layer(unmigrated()), { timeout: 60_000 })("PgliteClient (memory)", (it) => {
  it.effect("creates a table, inserts and selects with params", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE people (id serial PRIMARY KEY, name text NOT NULL, active boolean NOT NULL)`
      yield* sql`INSERT INTO people (name, active) VALUES (${"Noura"}, ${true}), (${"Faisal"}, ${false})`
      const rows = yield* sql<{ id: number; name: string; active: boolean }>`
        SELECT id, name, active FROM people WHERE name = ${"Noura"}`
      assert.deepStrictEqual(rows, [{ id: 1, name: "Noura", active: true }])
      const values = yield* sql`SELECT name, active FROM people ORDER BY id`.values
      assert.deepStrictEqual(values, [["Noura", true], ["Faisal", false]])
    }))

  it.effect("round-trips jsonb", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE docs (id int PRIMARY KEY, body jsonb NOT NULL)`
      const body = { lang: "ar", tags: ["otp", "sms"], nested: { n: 1, ok: true, none: null } }
      yield* sql`INSERT INTO docs (id, body) VALUES (1, ${body})`
      const [row] = yield* sql<{ body: typeof body }>`SELECT body FROM docs WHERE id = 1`
      assert.deepStrictEqual(row.body, body)
    }))

  it.effect("returns bigint columns as numbers, int4 as number, timestamptz as Date", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const epochMs = 1_767_225_600_123
      const [row] = yield* sql<{ big: unknown; small: unknown; at: unknown; n: unknown }>`
        SELECT ${epochMs}::bigint AS big, 7::int4 AS small, now() AS at, 1.50::numeric AS n`
      assert.strictEqual(row.big, epochMs)
      assert.strictEqual(row.small, 7)
      assert.instanceOf(row.at, Date)
      assert.strictEqual(row.n, "1.50")
      const [huge] = yield* sql<{ v: unknown }>`SELECT 9223372036854775807::bigint AS v`
      assert.strictEqual(huge.v, 9223372036854775807n)
    }))

  it.effect("supports sql.insert and sql.in helpers", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE wallets (id text PRIMARY KEY, balance bigint NOT NULL)`
      const inserted = yield* sql<{ id: string; balance: number }>`INSERT INTO wallets ${
        sql.insert([{ id: "a", balance: 100 }, { id: "b", balance: 250 }, { id: "c", balance: 5 }])
      } RETURNING id, balance`
      assert.deepStrictEqual(inserted.map((r) => r.balance), [100, 250, 5])
      const picked = yield* sql<{ id: string }>`SELECT id FROM wallets WHERE ${sql.in("id", ["a", "c"])} ORDER BY id`
      assert.deepStrictEqual(picked.map((r) => r.id), ["a", "c"])
      yield* sql`UPDATE wallets SET ${sql.update({ balance: 1 })} WHERE id = ${"b"}`
      const [b] = yield* sql<{ balance: number }>`SELECT balance FROM wallets WHERE id = 'b'`
      assert.strictEqual(b.balance, 1)
    }))

  it.effect("runs multi-statement SQL without params through sql.unsafe", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql.unsafe(`CREATE TABLE multi (id int PRIMARY KEY, v text); CREATE INDEX multi_v ON multi (v);
        INSERT INTO multi VALUES (1, 'x');`)
      const rows = yield* sql.unsafe<{ id: number }>("SELECT id FROM multi WHERE v = $1", ["x"])
      assert.deepStrictEqual(rows, [{ id: 1 }])
    }))

  it.effect("commits a transaction, rolls back on failure", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE tx (id int PRIMARY KEY)`
      yield* sql.withTransaction(Effect.all([sql`INSERT INTO tx VALUES (1)`, sql`INSERT INTO tx VALUES (2)`]))
      const exit = yield* sql.withTransaction(
        Effect.zipRight(sql`INSERT INTO tx VALUES (3)`, Effect.fail("boom" as const)),
      ).pipe(Effect.exit)
      assert.deepStrictEqual(exit, Exit.fail("boom" as const))
      const rows = yield* sql<{ id: number }>`SELECT id FROM tx ORDER BY id`
      assert.deepStrictEqual(rows.map((r) => r.id), [1, 2])
    }))

  it.effect("rolls back a nested transaction to its savepoint only", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE nested (id int PRIMARY KEY)`
      yield* sql.withTransaction(Effect.gen(function* () {
        yield* sql`INSERT INTO nested VALUES (1)`
        const inner = yield* sql.withTransaction(
          Effect.zipRight(sql`INSERT INTO nested VALUES (2)`, Effect.fail("inner")),
        ).pipe(Effect.exit)
        assert.isTrue(Exit.isFailure(inner))
        yield* sql`INSERT INTO nested VALUES (3)`
      }))
      const rows = yield* sql<{ id: number }>`SELECT id FROM nested ORDER BY id`
      assert.deepStrictEqual(rows.map((r) => r.id), [1, 3])
    }))

  it.effect("serializes 20 concurrent read-modify-write transactions", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)`
      yield* sql`INSERT INTO counter VALUES (1, 0)`
      const increment = sql.withTransaction(Effect.gen(function* () {
        const [row] = yield* sql<{ n: number }>`SELECT n FROM counter WHERE id = 1`
        yield* realSleep // lets the other fibers run between the read and the write
        yield* sql`UPDATE counter SET n = ${row.n + 1} WHERE id = 1`
      }))
      yield* Effect.all(Array.from({ length: 20 }, () => increment), { concurrency: "unbounded" })
      const [row] = yield* sql<{ n: number }>`SELECT n FROM counter WHERE id = 1`
      assert.strictEqual(row.n, 20)
    }), { timeout: 30_000 })

  it.effect("surfaces a unique violation as SqlError with the Postgres code in cause", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE uniq (email text PRIMARY KEY)`
      yield* sql`INSERT INTO uniq VALUES (${"a@example.sa"})`
      const error = yield* failWith(sql`INSERT INTO uniq VALUES (${"a@example.sa"})`)
      assert.instanceOf(error, SqlError)
      const cause = error.cause as { code?: string; constraint?: string }
      assert.strictEqual(cause.code, "23505")
      assert.strictEqual(cause.constraint, "uniq_pkey")
      // the connection is still usable afterwards, also inside a transaction
      const rows = yield* sql.withTransaction(sql<{ n: number }>`SELECT count(*)::int AS n FROM uniq`)
      assert.deepStrictEqual(rows, [{ n: 1 }])
    }))

  it.effect("runs migrations once and is idempotent", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const migrate = Migrator.make({})({
        loader: Migrator.fromRecord({
          "1_create_accounts": Effect.flatMap(SqlClient.SqlClient, (sql) =>
            sql.unsafe(`CREATE TABLE accounts (id text PRIMARY KEY, created_at bigint NOT NULL);
              CREATE INDEX accounts_created_at ON accounts (created_at);`)),
          "2_seed_accounts": Effect.flatMap(SqlClient.SqlClient, (sql) =>
            sql`INSERT INTO accounts ${sql.insert({ id: "acc_1", created_at: 1_700_000_000_000 })}`),
        }),
      })
      const first = yield* migrate
      assert.deepStrictEqual(first, [[1, "create_accounts"], [2, "seed_accounts"]])
      const second = yield* migrate
      assert.deepStrictEqual(second, [])
      const rows = yield* sql<{ id: string; created_at: number }>`SELECT id, created_at FROM accounts`
      assert.deepStrictEqual(rows, [{ id: "acc_1", created_at: 1_700_000_000_000 }])
      const applied = yield* sql<{ migration_id: number }>`SELECT migration_id FROM effect_sql_migrations ORDER BY 1`
      assert.deepStrictEqual(
        applied.map((r) =>
          r.migration_id
        ),
        [1, 2],
      )
    }))
})

describe("named statements: a parameterised text is prepared once, then each execution is one call into PostgreSQL", () => {
  /** A client over a fresh in-memory store, with the number of protocol calls PGlite is asked for. */
  const withInstance = <A, E>(
    f: (i: { sql: SqlClient.SqlClient; pg: PGlite; calls: () => number }) => Effect.Effect<A, E, SqlClient.SqlClient>,
  ) =>
    Effect.scoped(Effect.gen(function* () {
      const { client, pg } = yield* PgliteClient.makePgliteInstance(unmigrated())
      let calls = 0
      const original = pg.execProtocolStream.bind(pg)
      pg.execProtocolStream = (...args) => {
        calls++
        return original(...args)
      }
      return yield* f({ sql: client, pg, calls: () => calls }).pipe(Effect.provideService(SqlClient.SqlClient, client))
    }))

  const prepared = (sql: SqlClient.SqlClient) =>
    sql<{ name: string; statement: string }>`SELECT name, statement FROM pg_prepared_statements ORDER BY name`.pipe(
      Effect.map((rows) => rows.map((r) => r.statement)),
    )

  it.effect("prepared at its first execution (one call more), then one call each; listed by PostgreSQL", () =>
    withInstance(({ sql, calls }) =>
      Effect.gen(function* () {
        yield* sql`CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL)`
        const insert = (id: number) => sql`INSERT INTO items (id, name) VALUES (${id}, ${`item ${id}`})`
        const before = calls()
        yield* insert(1)
        assert.strictEqual(calls() - before, 2)
        yield* insert(2)
        yield* insert(3)
        assert.strictEqual(calls() - before, 4)
        const read = yield* sql<{ name: string }>`SELECT name FROM items WHERE id = ${2}`
        assert.deepStrictEqual(read, [{ name: "item 2" }])
        assert.deepStrictEqual(yield* prepared(sql), [
          "INSERT INTO items (id, name) VALUES ($1, $2)",
          "SELECT name FROM items WHERE id = $1",
        ])
      })
    ))

  it.effect("rows and values read as PGlite's own query reads them, type by type", () =>
    withInstance(({ sql, pg }) =>
      Effect.gen(function* () {
        yield* sql`CREATE TABLE typed (id int PRIMARY KEY, big bigint, huge bigint, n numeric, doc jsonb, bytes bytea,
          at timestamptz, tags text[], counts int[], ok boolean, who uuid, note text)`
        const text = `INSERT INTO typed VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
          RETURNING id, big, huge, n, doc, bytes, at, tags, counts, ok, who, note`
        const params = [
          1,
          1_767_225_600_123,
          "9223372036854775807",
          "12.50",
          { lang: "ar", list: [1, null, "٣"] },
          new Uint8Array([0, 1, 254, 255]),
          new Date(1_767_225_600_123),
          ["a", "ب", "c,d", ""],
          [1, 2, 3],
          true,
          "7d9f0c2e-2c1b-4f7e-9d8a-0b1c2d3e4f50",
          null,
        ]
        const ours = yield* sql.unsafe(text, params)
        const select = `SELECT id, big, huge, n, doc, bytes, at, tags, counts, ok, who, note FROM typed WHERE id = $1`
        const theirs = yield* Effect.promise(() => pg.query<Record<string, unknown>>(select, [1]))
        assert.deepStrictEqual(ours, theirs.rows)
        assert.deepStrictEqual(yield* sql.unsafe(select, [1]), theirs.rows)
        const values = yield* sql.unsafe(select, [1]).values
        assert.deepStrictEqual(values, [Object.values(theirs.rows[0] as object)])
        assert.strictEqual((ours[0] as { huge: unknown }).huge, 9223372036854775807n)
      })
    ))

  it.effect("a statement selecting * stays unnamed: a column added after it ran is read", () =>
    withInstance(({ sql }) =>
      Effect.gen(function* () {
        yield* sql`CREATE TABLE wide (id int PRIMARY KEY)`
        yield* sql`INSERT INTO wide VALUES (${1})`
        assert.deepStrictEqual(yield* sql`SELECT * FROM wide WHERE id = ${1}`, [{ id: 1 }])
        yield* sql`ALTER TABLE wide ADD COLUMN label text NOT NULL DEFAULT 'x'`
        assert.deepStrictEqual(yield* sql`SELECT * FROM wide WHERE id = ${1}`, [{ id: 1, label: "x" }])
        assert.deepStrictEqual(yield* prepared(sql), ["INSERT INTO wide VALUES ($1)"])
      })
    ))

  it.effect("an error and a rolled-back transaction leave the prepared statements usable", () =>
    withInstance(({ sql }) =>
      Effect.gen(function* () {
        yield* sql`CREATE TABLE once (id int PRIMARY KEY)`
        const insert = (id: number) => sql`INSERT INTO once VALUES (${id})`
        yield* insert(1)
        const duplicate = yield* failWith(insert(1))
        assert.strictEqual((duplicate.cause as { code?: string }).code, "23505")
        const rolledBack = yield* Effect.exit(sql.withTransaction(Effect.zipRight(insert(2), insert(1))))
        assert.isTrue(Exit.isFailure(rolledBack))
        const typo = yield* failWith(sql`SELEC id FROM once WHERE id = ${1}`)
        assert.strictEqual((typo.cause as { code?: string }).code, "42601")
        yield* insert(3)
        const rows = yield* sql<{ id: number }>`SELECT id FROM once WHERE id > ${0} ORDER BY id`
        assert.deepStrictEqual(rows.map((r) => r.id), [1, 3])
      })
    ))

  it.effect(
    `at most ${maxNamedStatements} texts are named; the rest run unnamed`,
    () =>
      withInstance(({ sql }) =>
        Effect.gen(function* () {
          const extra = 5
          for (let k = 0; k < maxNamedStatements + extra; k++) {
            const [row] = yield* sql.unsafe<{ v: number }>(`SELECT $1::int + ${k} AS v`, [1])
            assert.strictEqual(row.v, 1 + k)
          }
          const [count] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_prepared_statements`
          assert.strictEqual(count.n, maxNamedStatements)
        })
      ),
    { timeout: 60_000 },
  )
})

describe("PgliteClient (file-backed)", () => {
  it.effect("persists data across close and reopen", () =>
    Effect.gen(function* () {
      const root = mkdtempSync(join(tmpdir(), "pglite-client-"))
      const dataDir = join(root, "nested", "db") // parents missing on purpose
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(root, { recursive: true, force: true })))

      yield* Effect.scoped(Effect.gen(function* () {
        const sql = yield* PgliteClient.makePgliteClient({ dataDir })
        yield* sql`CREATE TABLE kept (id int PRIMARY KEY, note text)`
        yield* sql.withTransaction(sql`INSERT INTO kept VALUES (${1}, ${"survives"})`)
      }))

      const rows = yield* Effect.scoped(Effect.gen(function* () {
        const sql = yield* PgliteClient.makePgliteClient({ dataDir })
        return yield* sql<{ id: number; note: string }>`SELECT id, note FROM kept`
      }))
      assert.deepStrictEqual(rows, [{ id: 1, note: "survives" }])
    }).pipe(Effect.scoped), { timeout: 60_000 })
})
