/**
 * The migrator folds over the products list: each product numbers its migrations, they run in the list's
 * order, `schema_migrations` records (product, number), several processes may start at once, and a store
 * made by main before the products frame (one global numbering in `effect_sql_migrations`) is taken over
 * as it is, its data kept.
 */
import { assert, describe, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Redacted } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { products } from "../../adapters/products.ts"
import { migrate, type Migrating, planOf } from "../../adapters/sql/migrate.ts"
import * as PgliteClient from "../../adapters/sql/pglite-client.ts"
import { migrate as migrateAsMainDid } from "./fixtures/migrations-2026-11-24/migrate.ts"
import { freshSchema, freshSchemaUrl } from "./fixtures.ts"
import { unmigrated } from "../support/initdb-seed.ts"

const databaseUrl = process.env.DATABASE_URL
const expected = products.reduce((n, p) => n + (p.migrations ?? []).length, 0)
const allTables = ["accounts", "wallets", "ledger", "jobs", "sim_sms", "verifications", "webhook_deliveries"]

/** What the migrator recorded, and which of `allTables` exist in the current schema. */
const inspect = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const recorded = yield* sql<{ product: string; number: number }>`SELECT product, number FROM schema_migrations`
  const tables = yield* sql<{ table_name: string }>`SELECT table_name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_name IN ${sql.in(allTables)}`
  return { recorded: recorded.length, tables: tables.map((t) => t.table_name).sort() }
})

const everything = { recorded: expected, tables: [...allTables].sort() }

describe("each product numbers its own migrations; they run in the order of the products list", () => {
  it("the plan is the list's order, then each product's numbers", () => {
    const plan = planOf(products).map((s) => `${s.product}/${s.migration.number}`)
    assert.deepStrictEqual(plan.slice(0, 5), ["platform/1", "platform/2", "platform/3", "platform/4", "accounts/1"])
    assert.strictEqual(plan.length, expected)
    const byProduct = new Map<string, Array<number>>()
    for (const step of planOf(products)) {
      byProduct.set(step.product, [...(byProduct.get(step.product) ?? []), step.migration.number])
    }
    for (const numbers of byProduct.values()) assert.deepStrictEqual(numbers, [...numbers].sort((a, b) => a - b))
  })

  it("a number used twice within a product is refused before anything runs", () => {
    const twice: Migrating = {
      name: "twice",
      migrations: [{ number: 1, name: "a", run: Effect.void }, { number: 1, name: "b", run: Effect.void }],
    }
    assert.throws(() => planOf([twice]), /twice: migration number 1 is used twice/)
  })

  it.effect(
    "a product not selected (the SMS simulator with a real provider) gets no tables",
    () =>
      Effect.gen(function* () {
        yield* migrate(products.filter((p) => p.name !== "sms-simulator"))
        const { tables } = yield* inspect
        assert.isFalse(tables.includes("sim_sms"))
        assert.isTrue(tables.includes("verifications"))
      }).pipe(Effect.provide(PgliteClient.layer(unmigrated())), Effect.orDie),
    120_000,
  )

  it.effect(
    "a product added to the list later brings its migrations; the others do not run again",
    () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* migrate(products)
        const added: Migrating = {
          name: "notes",
          migrations: [{
            number: 1,
            name: "notes",
            run: sql`CREATE TABLE notes (id uuid PRIMARY KEY, body text NOT NULL)`,
          }],
        }
        yield* migrate([...products, added])
        yield* migrate([...products, added])
        assert.strictEqual((yield* inspect).recorded, expected + 1)
        const [{ n }] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM notes`
        assert.strictEqual(n, 0)
      }).pipe(Effect.provide(PgliteClient.layer(unmigrated())), Effect.orDie),
    120_000,
  )
})

describe("migrations on PGlite", () => {
  it.effect("run twice on one database: the second run changes nothing", () =>
    Effect.gen(function* () {
      yield* migrate(products)
      yield* migrate(products)
      assert.deepStrictEqual(yield* inspect, everything)
    }).pipe(Effect.provide(PgliteClient.layer(unmigrated())), Effect.orDie), 120_000)

  it.effect("a data directory reopened is not migrated again", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pglite-migrate-"))
    const open = Effect.provide(Effect.zipRight(migrate(products), inspect), PgliteClient.layer(unmigrated(dataDir)))
    return Effect.gen(function* () {
      assert.deepStrictEqual(yield* open, everything)
      assert.deepStrictEqual(yield* open, everything)
    }).pipe(Effect.orDie, Effect.ensuring(Effect.sync(() => fs.rmSync(dataDir, { recursive: true, force: true }))))
  }, 60_000)
})

/** A store as main made it on 2026-11-24, with a row in it, then the products' migrator over it. */
const upgrade = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* migrateAsMainDid
  yield* sql`INSERT INTO accounts (id, name, sandbox_only, partner, status, created_at) VALUES
    ('00000000-0000-4000-8000-000000000001', 'kept', false, false, 'active', 1)`
  // One event the dispatcher had routed, one it had not.
  yield* sql`INSERT INTO outbox_events (id, event, data, account_id, created_at, routed_at) VALUES
    ('00000000-0000-4000-8000-0000000000e1', 'balance.low', '{}', '00000000-0000-4000-8000-000000000001', 1, 2),
    ('00000000-0000-4000-8000-0000000000e2', 'balance.low', '{}', '00000000-0000-4000-8000-000000000001', 3, NULL)`
  yield* migrate(products)
  yield* migrate(products)
  const [kept] = yield* sql<{ name: string }>`SELECT name FROM accounts`
  assert.strictEqual(kept.name, "kept")
  // Routing moved to a cursor (webhooks/0004): only the event not routed before lies past it.
  const unrouted = yield* sql<{ id: string }>`SELECT e.id FROM outbox_events e, outbox_routing r
    WHERE (e.xid, e.seq) > (r.xid, r.seq)`
  assert.deepStrictEqual(unrouted.map((r) => r.id), ["00000000-0000-4000-8000-0000000000e2"])
  assert.deepStrictEqual(yield* inspect, everything)
  // The old table stays, so a process of the old version still finds its migrations done.
  const old = yield* sql<{ migration_id: number }>`SELECT migration_id FROM effect_sql_migrations ORDER BY 1`
  assert.deepStrictEqual(old.map((r) => r.migration_id), [1, 2, 3, 5])
})

describe("a store made by main before the products frame is taken over as it is", () => {
  it.effect(
    "on PGlite: every migration it ran is recorded as done, none runs again, its rows stay",
    () => upgrade.pipe(Effect.provide(PgliteClient.layer(unmigrated())), Effect.orDie),
    120_000,
  )

  it.effect.runIf(databaseUrl !== undefined)("on PostgreSQL (DATABASE_URL): the same", () =>
    upgrade.pipe(
      Effect.provide(freshSchema(databaseUrl!, (url) => PgClient.layer({ url: Redacted.make(url) }))),
      Effect.orDie,
    ), 120_000)
})

describe.runIf(databaseUrl !== undefined)("migrations on postgres (DATABASE_URL)", () => {
  const pool = (url: string) => PgClient.layer({ url: Redacted.make(url) })

  it.effect("run twice on a fresh schema: the second run changes nothing", () =>
    Effect.gen(function* () {
      yield* migrate(products)
      yield* migrate(products)
      assert.deepStrictEqual(yield* inspect, everything)
    }).pipe(Effect.provide(freshSchema(databaseUrl!, pool)), Effect.orDie), 120_000)

  it.scoped(
    "three processes (separate pools) migrating one fresh schema at once all succeed",
    () =>
      Effect.gen(function* () {
        const url = yield* freshSchemaUrl(databaseUrl!)
        // Each run has its own pool, as three server processes starting together would.
        yield* Effect.all([1, 2, 3].map(() => Effect.provide(migrate(products), pool(url))), {
          concurrency: "unbounded",
        })
        assert.deepStrictEqual(yield* Effect.provide(inspect, pool(url)), everything)
      }).pipe(Effect.orDie),
    120_000,
  )
})

/**
 * accounts/0005 (DECISIONS 18): a store made before it, holding applications rejected (or archived while
 * rejected) with the approval they had before, upgraded: the rejection withdraws that approval, so a change
 * that sends them back to `pending` does not make them send. Other rows keep theirs.
 */
const rejectionWithdrawsApproval = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const before = products.map((p) =>
    p.name === "accounts" ? { ...p, migrations: (p.migrations ?? []).filter((m) => m.number < 5) } : p
  )
  yield* migrate(before)
  const acc = "00000000-0000-4000-8000-0000000000a1"
  yield* sql`INSERT INTO accounts (id, name, sandbox_only, partner, status, created_at)
    VALUES (${acc}, 'partner', false, true, 'active', 1)`
  const rows: ReadonlyArray<readonly [string, string, string | null]> = [
    ["rejected", "rejected", null],
    ["archived-rejected", "archived", "rejected"],
    ["active", "active", null],
    ["pending", "pending", null],
    ["archived-active", "archived", "active"],
  ]
  for (const [i, [name, status, beforeArchive]] of rows.entries()) {
    yield* sql`INSERT INTO applications (id, account_id, name, status, created_at, approved_at, status_before_archive)
      VALUES (${`00000000-0000-4000-8000-00000000000${i}`}, ${acc}, ${name}, ${status}, 1, 5, ${beforeArchive})`
  }
  yield* migrate(products)
  const after = yield* sql<{ name: string; approved_at: unknown }>`SELECT name, approved_at FROM applications
    ORDER BY id`
  assert.deepStrictEqual(after.map((r) => [r.name, r.approved_at === null ? null : Number(r.approved_at)]), [
    ["rejected", null],
    ["archived-rejected", null],
    ["active", 5],
    ["pending", 5],
    ["archived-active", 5],
  ])
})

describe('accounts/0005: "a rejection withdraws the approval" on a store made before it (DECISIONS 18)', () => {
  it.effect(
    "on PGlite: rejected rows, and rows archived while rejected, lose approved_at; the others keep it",
    () => rejectionWithdrawsApproval.pipe(Effect.provide(PgliteClient.layer(unmigrated())), Effect.orDie),
    120_000,
  )

  it.effect.runIf(databaseUrl !== undefined)(
    "on PostgreSQL (DATABASE_URL): the same",
    () =>
      rejectionWithdrawsApproval.pipe(
        Effect.provide(freshSchema(databaseUrl!, (url) => PgClient.layer({ url: Redacted.make(url) }))),
        Effect.orDie,
      ),
    120_000,
  )
})
