/**
 * Issue 28: a new PGlite store starts from the migrated empty store the build made (adapters/sql/snapshot.ts)
 * instead of initdb and every migration. The snapshot must BE the migrations applied, and a stale one must
 * never be used.
 */
import { assert, describe, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { run } from "../support/run.ts"
import { fileURLToPath } from "node:url"
import { products } from "../../adapters/products.ts"
import { migrate, type Migrating } from "../../adapters/sql/migrate.ts"
import * as PgliteClient from "../../adapters/sql/pglite-client.ts"
import { planNames, seedFor, type SnapshotManifest, staleReason } from "../../adapters/sql/snapshot.ts"
import { PgliteStoreLive } from "../../adapters/sql/store.ts"
import { unmigrated } from "../support/initdb-seed.ts"

const root = fileURLToPath(new URL("../..", import.meta.url))
const shipped = path.join(root, "adapters/sql/store-snapshot")

/** Everything a migration can make, as sorted lines: relations, columns, constraints, indexes, functions, triggers, rows. */
const schemaDump = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const lines = yield* sql<{ line: string }>`
    SELECT 'relation ' || relname || ' ' || relkind::text || ' ' || relpersistence::text AS line
      FROM pg_class WHERE relnamespace = current_schema()::regnamespace
    UNION ALL SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' '
      || coalesce(column_default, '') FROM information_schema.columns WHERE table_schema = current_schema()
    UNION ALL SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
      FROM pg_constraint WHERE connamespace = current_schema()::regnamespace
    UNION ALL SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = current_schema()
    UNION ALL SELECT 'function ' || pg_get_functiondef(oid) FROM pg_proc
      WHERE pronamespace = current_schema()::regnamespace AND prokind = 'f'
    UNION ALL SELECT 'trigger ' || pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL SELECT 'migration ' || product || '/' || number || '/' || name FROM schema_migrations
    ORDER BY 1`
  const tables = yield* sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'schema_migrations'
    ORDER BY 1`
  const rows: Array<string> = []
  for (const { name } of tables) {
    const [{ content }] = yield* sql<{ content: string | null }>`SELECT string_agg(t::text, '|' ORDER BY t::text)
      AS content FROM ${sql(name)} t`
    rows.push(`rows ${name} ${content ?? ""}`)
  }
  return [...lines.map((l) => l.line), ...rows]
})

const dumpOf = (layer: Layer.Layer<SqlClient.SqlClient, unknown>) =>
  Effect.provide(schemaDump, layer).pipe(Effect.orDie)

describe("a new store starts from the snapshot, and the snapshot is the migrations applied", () => {
  it.effect("the test command's setup made a snapshot of every product's migrations", () =>
    Effect.sync(() => {
      const manifest = JSON.parse(fs.readFileSync(path.join(shipped, "manifest.json"), "utf8")) as SnapshotManifest
      assert.deepStrictEqual(manifest.plan, planNames(products))
    }))

  it.effect(
    "a memory:// store loaded from the snapshot has the schema and rows of one migrated from initdb",
    () =>
      Effect.gen(function* () {
        const seeded = yield* Effect.promise(seedFor(products))
        assert.isDefined(seeded, "the snapshot fits the products list")
        const fromSnapshot = yield* dumpOf(
          Layer.effectDiscard(migrate(products)).pipe(
            Layer.provideMerge(PgliteClient.layer({ dataDir: "memory://", seed: seedFor(products) })),
          ),
        )
        const fromMigrations = yield* dumpOf(
          Layer.effectDiscard(migrate(products)).pipe(Layer.provideMerge(PgliteClient.layer(unmigrated()))),
        )
        assert.isAbove(fromMigrations.length, 100)
        assert.deepStrictEqual(fromSnapshot, fromMigrations)
      }),
    60_000,
  )

  it.effect(
    "the snapshot holds only the database PGlite opens: no template databases to unpack or keep in memory",
    () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const databases = yield* sql<{ datname: string }>`SELECT datname FROM pg_database ORDER BY 1`
        assert.deepStrictEqual(databases.map((d) => d.datname), ["postgres"])
        const [{ n }] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM schema_migrations`
        assert.strictEqual(n, planNames(products).length)
      }).pipe(
        Effect.provide(PgliteClient.layer({ dataDir: "memory://", seed: seedFor(products) })),
        Effect.orDie,
      ),
    60_000,
  )

  it.effect("a new data directory starts from the snapshot too, and is reopened as it was left", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pglite-snapshot-"))
    const open = Effect.provide(
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.zipRight(
          sql`INSERT INTO platform_secret (id, secret) VALUES (1, 'kept') ON CONFLICT (id) DO NOTHING`,
          sql<{ secret: string }>`SELECT secret FROM platform_secret`,
        )),
      PgliteStoreLive(dataDir),
    )
    return Effect.gen(function* () {
      assert.deepStrictEqual(yield* open, [{ secret: "kept" }])
      assert.isTrue(fs.existsSync(path.join(dataDir, "PG_VERSION")))
      assert.deepStrictEqual(yield* open, [{ secret: "kept" }])
    }).pipe(Effect.orDie, Effect.ensuring(Effect.sync(() => fs.rmSync(dataDir, { recursive: true, force: true }))))
  }, 60_000)

  it.effect("a directory left half-unpacked (no PG_VERSION, written last) is new: unpacked again and opened", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pglite-snapshot-"))
    fs.mkdirSync(path.join(dataDir, "base"))
    fs.writeFileSync(path.join(dataDir, "base", "half-written"), "x")
    fs.writeFileSync(path.join(dataDir, "postgresql.conf"), "# cut off")
    const open = Effect.provide(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM accounts`),
      PgliteStoreLive(dataDir),
    )
    return Effect.gen(function* () {
      assert.deepStrictEqual(yield* open, [{ n: 0 }])
      assert.isTrue(fs.existsSync(path.join(dataDir, "PG_VERSION")))
      assert.notStrictEqual(fs.readFileSync(path.join(dataDir, "postgresql.conf"), "utf8"), "# cut off")
    }).pipe(Effect.orDie, Effect.ensuring(Effect.sync(() => fs.rmSync(dataDir, { recursive: true, force: true }))))
  }, 60_000)

  it.effect("a product added to the list after the snapshot was made still gets its migrations", () => {
    const notes: Migrating = {
      name: "notes",
      migrations: [{
        number: 1,
        name: "notes",
        run: Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE TABLE notes (id uuid PRIMARY KEY)`),
      }],
    }
    return Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const [{ n }] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM notes`
      assert.strictEqual(n, 0)
    }).pipe(
      Effect.provide(
        Layer.effectDiscard(migrate([...products, notes])).pipe(
          Layer.provideMerge(PgliteClient.layer({ dataDir: "memory://", seed: seedFor([...products, notes]) })),
        ),
      ),
      Effect.orDie,
    )
  }, 60_000)
})

describe("a stale snapshot is never used", () => {
  const manifest: SnapshotManifest = { pglite: "x", sources: "x", plan: planNames(products) }

  it("one holding a migration the list does not (renamed or taken out) is stale, with the reason", () => {
    const renamed = { ...manifest, plan: [...manifest.plan.slice(0, -1), "webhooks/99/renamed"] }
    assert.match(staleReason(renamed, products) ?? "", /webhooks\/99\/renamed.*npm run snapshot/)
    assert.isDefined(staleReason(manifest, products.slice(0, 3)))
  })

  it("one lacking a migration the list has is not stale: the migrator applies the rest", () => {
    assert.isUndefined(staleReason({ ...manifest, plan: manifest.plan.slice(0, 5) }, products))
  })

  it(
    "`npm run snapshot -- --check` fails with a clear message when the migrations changed since it was made",
    async () => {
      const copy = fs.mkdtempSync(path.join(os.tmpdir(), "snapshot-check-"))
      try {
        fs.cpSync(shipped, copy, { recursive: true })
        const check = () =>
          run(process.execPath, ["--import", "tsx", "scripts/snapshot.ts", "--check"], {
            cwd: root,
            env: { ...process.env, SNAPSHOT_DIR: copy },
          })
        const fresh = await check()
        assert.strictEqual(fresh.status, 0, fresh.stderr)
        assert.match(fresh.stdout, /up to date/)
        const file = path.join(copy, "manifest.json")
        const changed = { ...JSON.parse(fs.readFileSync(file, "utf8")), sources: "an older migration" }
        fs.writeFileSync(file, JSON.stringify(changed))
        const failure = await check()
        assert.strictEqual(failure.status, 1)
        assert.match(failure.stderr, /store snapshot is stale: the migrations' sources changed.*npm run snapshot/)
      } finally {
        fs.rmSync(copy, { recursive: true, force: true })
      }
    },
    60_000,
  )
})
