/**
 * `@effect/sql` client for PGlite (Postgres compiled to WebAssembly, in-process).
 *
 * Built like `@effect/sql-pg`'s PgClient: `SqlClient.make` with the Postgres statement
 * compiler (dialect "pg", `$n` placeholders), so `sql.insert/update/in`, `onDialect` and
 * `@effect/sql/Migrator` behave as they do against a real server.
 *
 * Concurrency: PGlite is ONE connection. A semaphore with one permit guards it. A plain
 * statement holds the permit for that statement; `withTransaction` (and `sql.reserve`)
 * holds it for the whole transaction scope. Statements inside a transaction do not ask
 * for the permit again: the SqlClient finds the transaction connection in the fiber's
 * context (`TransactionConnection`) and skips the acquirer, so the owner cannot deadlock.
 *
 * Row values (PGlite's text-format parsers, with one override):
 * - int2/int4/float4/float8/oid -> number; numeric -> string (as with `pg`)
 * - int8 -> number when it is a safe integer, else bigint (`pg` would give a string)
 * - text/varchar/bpchar/uuid -> string; bool -> boolean; json/jsonb -> parsed JSON
 * - date/timestamp/timestamptz -> Date (as PGlite parses them); bytea -> Uint8Array
 * Parameters are serialized by the type Postgres infers for each placeholder, so a plain
 * object or array bound to a json/jsonb column is JSON-encoded.
 *
 * Server settings and checkpoints: see `PgliteSettings` below; a fresh data directory: `initializeApart`.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import {
  MemoryFS,
  type messages,
  parse,
  PGlite,
  protocol,
  type Results,
  type RowMode,
  types as PgliteTypes,
} from "@electric-sql/pglite"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import * as Client from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import { Effect, Layer, Option, type Scope, Stream } from "effect"
import type { ParsedTarFileItem } from "nanotar"
import { pgCompiler } from "./compiler.ts"
import { SqlDriver, type SqlDriverShape } from "./executor.ts"
import { maxNamedStatements, selectsStar } from "./named-statements.ts"

/**
 * PGlite's settings for an embedded server: the one place they are written. Measured with
 * `npm run bench -- footprint` (docs/performance.md, "The embedded footprint"; docs/decisions.md, "Embedded
 * store (PGlite) settings").
 *
 * PGlite runs Postgres as a single-user backend (`--single`): no checkpointer, so nothing ever checkpoints
 * but an explicit CHECKPOINT (or closing), and WAL segments are never recycled. Before these settings the data
 * directory held 225 MB of WAL after 50,000 verifications. The client checkpoints once
 * `checkpointAfterWalBytes` of WAL were written since the last checkpoint's redo point (polled every
 * `checkpointPollMs` of real time, under the connection's permit); `min_wal_size`/`max_wal_size` then keep
 * two 16 MB segments for reuse (the least Postgres allows) and remove the rest. With `memory://` the WAL
 * lives in memory, so this bounds memory there as well.
 */
export const PgliteSettings = {
  /** Passed as `-c name=value` after PGlite's own start parameters. */
  server: {
    /**
     * Postgres' buffer pool, inside PGlite's WebAssembly memory (which never shrinks). At the default 128MB that
     * memory is 198 MB; at 16MB it stays at the module's initial 134 MB (PGlite refuses a smaller initial
     * memory). Over 10,000 verifications the host held 613-804 MB at 128MB, 484-665 MB at 16MB (two runs) and
     * 444-569 MB at 8MB: the rest is the host's JavaScript heap, which swings by 150 MB between collections.
     * 8MB since issue 28's idle footprint: a host at idle holds 7-15 MB less resident than at 16MB (bench/startup.ts:
     * 156 against 163 MB on an existing directory), and the chat benchmark on PGlite ran at the same rate (296
     * against 298 messages/s, four runs alternating, 2026-11-28): a page the pool lacks is a copy from the store's
     * files (the file system's cache, or memory for `memory://`), which hold every page anyway.
     */
    shared_buffers: "8MB",
    /**
     * WAL segments kept for reuse after a checkpoint: two 16 MB segments, the least Postgres accepts. A
     * single-user backend never checkpoints by WAL volume, so `max_wal_size` only bounds what is kept.
     */
    min_wal_size: "32MB",
    max_wal_size: "32MB",
  },
  /**
   * A CHECKPOINT once this much WAL was written since the last checkpoint's redo point: the data directory's
   * pg_wal then stays at two segments (33.6 MB) instead of growing 16.8 MB every 4,000 verifications or so.
   */
  checkpointAfterWalBytes: 16 * 1024 * 1024,
  checkpointPollMs: 5_000,
  /**
   * initdb's arguments (PGlite's `initDbStartParams`; the snapshot's manifest hashes them, scripts/snapshot.ts):
   * WAL segments of 1 MB instead of 16. A new store's pg_wal then holds a few MB instead of one 16.8 MB segment,
   * which a `memory://` store keeps in memory and every new store unpacks (issue 28). A store keeps the segment
   * size it was made with: directories made before open as they are.
   */
  initdb: ["--wal-segsize=1"],
  /**
   * A `memory://` store is always new, so always made by the `initdb` above: its WAL lives in memory, and is kept
   * to four 1 MB segments, checkpointed every 2 MB. (A directory may hold 16 MB segments, made before: Postgres
   * refuses a `min_wal_size` under two segments, so directories keep the 32MB above.)
   */
  memory: {
    server: { min_wal_size: "4MB", max_wal_size: "4MB" },
    checkpointAfterWalBytes: 2 * 1024 * 1024,
  },
} as const

export interface PgliteClientOptions {
  /** `"memory://"` for an in-memory database, otherwise a directory (created if missing). */
  readonly dataDir: string
  /**
   * A data directory to start a NEW database from (PGlite's `loadDataDir`: the tarball of `dumpDataDir`)
   * instead of running initdb: adapters/sql/snapshot.ts gives the migrated empty store. Asked only when the
   * database is new (`memory://`, or a directory without `PG_VERSION`); undefined runs initdb as before.
   */
  readonly seed?: () => Promise<Blob | undefined>
}

/**
 * The extensions every PGlite store loads: `pg_trgm`, whose GIN indexes the logs' `q` reads (migrations/trigram.ts).
 * A store that has such an index must be opened with it (an insert into the table calls its functions), so
 * whatever opens a store of the project's with PGlite directly passes these too (the benchmarks).
 */
export const pgliteExtensions = { pg_trgm }

type TransformRows = (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined

const INT8 = PgliteTypes.INT8

/** Safe integers come back as numbers; anything larger stays exact as a bigint. */
const parseInt8 = (value: string): number | bigint => {
  const n = BigInt(value)
  return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n
}

const messageOf = (cause: unknown): string => cause instanceof Error ? cause.message : String(cause)

/**
 * The error from PGlite is kept as `cause` untouched: it is a pg-protocol `DatabaseError`
 * with `code` (SQLSTATE, e.g. "23505"), `detail`, `constraint`, `table`, `query`, `params`.
 */
const toSqlError = (message: string) => (cause: unknown): SqlError =>
  new SqlError({ cause, message: `${message}: ${messageOf(cause)}` })

/** Scheme-less paths and `file://` URLs live on the local filesystem. */
const localDirectory = (dataDir: string): string | undefined => {
  if (dataDir.startsWith("file://")) return dataDir.slice("file://".length)
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(dataDir) ? undefined : dataDir
}

/**
 * PGlite's NodeFS creates the data directory with a NON-recursive mkdir, so nested
 * paths whose parents are missing fail. `node:fs` is imported lazily so the module still
 * loads where only `memory://`/`idb://` make sense (Deno and Bun provide `node:fs`).
 */
const ensureDirectory = (dataDir: string): Effect.Effect<void, SqlError> => {
  const directory = localDirectory(dataDir)
  if (directory === undefined) return Effect.void
  return Effect.tryPromise({
    try: async () => {
      const fs = await import("node:fs")
      await fs.promises.mkdir(directory, { recursive: true })
    },
    catch: toSqlError(`PgliteClient: cannot create data directory ${directory}`),
  })
}

const inMemory = (dataDir: string): boolean => dataDir.startsWith("memory://")

/**
 * The server settings a store of the project runs with (PGlite's defaults, then PgliteSettings'): exported so that
 * the benchmarks' ceilings run the same statements on a store configured alike (bench/verify-lib/ceiling.ts).
 */
export const startParams = (dataDir: string): Array<string> => [
  ...PGlite.defaultStartParams,
  ...Object.entries({ ...PgliteSettings.server, ...(inMemory(dataDir) ? PgliteSettings.memory.server : {}) })
    .flatMap(([name, value]) => ["-c", `${name}=${value}`]),
]

/**
 * Run by a child process (`node --input-type=module -e`): opens the directory once, so PGlite runs initdb there.
 * Without `pgliteExtensions`: initdb makes no table, and the store is then opened (and migrated) with them.
 */
const initdbScript = `const { PGlite } = await import(process.env.PGLITE_MODULE)
const pg = new PGlite(process.env.PGLITE_INITDB_DIR, {
  startParams: JSON.parse(process.env.PGLITE_START_PARAMS),
  initDbStartParams: JSON.parse(process.env.PGLITE_INITDB_PARAMS),
})
await pg.waitReady
await pg.close()`

/**
 * On Node, a local data directory without a database (no PG_VERSION) is made by a short-lived child process
 * before the host opens it. PGlite's initdb runs two more WebAssembly instances and a 128 MB copy of one
 * instance's memory beside the one that stays: in the host's own process that took its resident set to
 * 0.8-0.9 GB, and 110-150 MB of it stayed resident after the instances were collected (freed memory the
 * allocator keeps). The child exits and returns all of it; the host then opens an existing database.
 * Elsewhere (Deno, Bun, `memory://`), or when the child cannot run or fails, PGlite runs initdb in process as
 * before.
 */
const initializeApart = async (dataDir: string): Promise<void> => {
  const directory = localDirectory(dataDir)
  const g = globalThis as {
    process?: { execPath?: string; release?: { name?: string }; env?: Record<string, string | undefined> }
  }
  const onNode = g.process?.release?.name === "node" && !("Deno" in globalThis) && !("Bun" in globalThis)
  const resolve = (import.meta as { resolve?: (specifier: string) => string }).resolve
  if (directory === undefined || !onNode || g.process?.execPath === undefined || resolve === undefined) return
  const fs = await import("node:fs")
  const path = await import("node:path")
  if (fs.existsSync(path.join(directory, "PG_VERSION"))) return
  const { execFile } = await import("node:child_process")
  await new Promise<void>((done) => {
    execFile(g.process!.execPath!, ["--input-type=module", "-e", initdbScript], {
      env: {
        ...g.process!.env,
        PGLITE_MODULE: resolve("@electric-sql/pglite"),
        PGLITE_INITDB_DIR: directory,
        PGLITE_START_PARAMS: JSON.stringify(startParams(dataDir)),
        PGLITE_INITDB_PARAMS: JSON.stringify(PgliteSettings.initdb),
      },
      timeout: 120_000,
    }, () => done())
  })
}

/** Whether `dataDir` holds no database yet: always for `memory://`, else a directory without `PG_VERSION`. */
const isNew = async (dataDir: string): Promise<boolean> => {
  const directory = localDirectory(dataDir)
  if (directory === undefined) return dataDir.startsWith("memory://")
  const fs = await import("node:fs")
  return !fs.existsSync(`${directory}/PG_VERSION`)
}

/**
 * The seed's entries (nanotar over node:zlib), or undefined where node:zlib is not there to gunzip it. Where
 * `keepSeedsUnpacked` is set, the last seed's entries are kept, and a seed of the same bytes is not unpacked again.
 */
const entriesOf = async (seed: Blob): Promise<Entries | undefined> => {
  const zlib = await import("node:zlib").catch(() => undefined)
  if (zlib?.gunzipSync === undefined) return undefined
  const gzipped = new Uint8Array(await seed.arrayBuffer())
  if (lastSeed !== undefined && sameBytes(lastSeed.gzipped, gzipped)) return lastSeed.entries
  const { parseTar } = await import("nanotar")
  // node:zlib, not nanotar's `parseTarGzip`: its DecompressionStream took 380 ms for the 4.8 MB snapshot on
  // Node, gunzipSync 60-80.
  const entries = parseTar(zlib.gunzipSync(gzipped))
  if ((globalThis as Record<symbol, unknown>)[keepSeedsUnpacked] === true) lastSeed = { gzipped, entries }
  return entries
}

/**
 * Set to `true` on `globalThis`, keeps the last seed unpacked (its 41 MB) for the next new store of the process:
 * the tests set it (test/support/setup.ts), whose files make a PGlite store per test; a host makes one and keeps
 * nothing. Emscripten's file system copies what it is given, so the kept entries are never written to.
 */
export const keepSeedsUnpacked: unique symbol = Symbol.for("pglite-client.keepSeedsUnpacked")

let lastSeed: { readonly gzipped: Uint8Array; readonly entries: Entries } | undefined

/** Byte for byte (4.8 MB: a few milliseconds, against 60-80 for gunzipping it again). */
const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

type Entries = Array<ParsedTarFileItem>

/** A tar entry's name relative to the data directory (no leading or trailing slash). */
const relativeName = (name: string) => name.replace(/^\/+/, "").replace(/\/+$/, "")

/**
 * A new local directory gets the seed's files written into it before PGlite opens it, which then starts as on an
 * existing store: PGlite's own `loadDataDir` unpacks through Emscripten's file system, and a new directory took
 * 0.9-1.1 s longer than an existing one to answer (issue 28). PG_VERSION is written last, so a directory left
 * half-written by a crash is still new, and unpacked again.
 */
const unpackInto = async (directory: string, entries: Entries): Promise<void> => {
  const fs = await import("node:fs")
  const path = await import("node:path")
  const root = path.resolve(directory)
  const isVersion = (name: string) => relativeName(name) === "PG_VERSION"
  const ordered = [...entries.filter((e) => !isVersion(e.name)), ...entries.filter((e) => isVersion(e.name))]
  const made = new Set<string>()
  const folder = (target: string) => {
    if (made.has(target)) return
    fs.mkdirSync(target, { recursive: true })
    made.add(target)
  }
  for (const entry of ordered) {
    const target = path.resolve(root, relativeName(entry.name))
    if (target !== root && !target.startsWith(root + path.sep)) {
      throw new Error(`the store snapshot names a path outside the directory: ${entry.name}`)
    }
    if (entry.type === "directory") {
      folder(target)
    } else if (entry.type === "file") {
      folder(path.dirname(target))
      fs.writeFileSync(target, entry.data ?? new Uint8Array())
    } else {
      throw new Error(`the store snapshot holds ${entry.name}, of a kind that is not unpacked (${entry.type})`)
    }
  }
}

/**
 * A new `memory://` store: PGlite's in-memory file system with the seed's files written into the data directory
 * once PostgreSQL's module is up and before PGlite looks for a database there, so that it opens it as an existing
 * one. PGlite's `loadDataDir` did the same through a tar reader of its own and a path lookup per file and per
 * folder of its path: a new in-memory store took 2-2.5 times as long to open (issue 28; every PGlite store a test
 * makes is one). The entries are dropped once written: Emscripten's file system keeps copies.
 */
class SeededMemoryFS extends MemoryFS {
  constructor(private pending: Entries | undefined) {
    super()
  }

  override async initialSyncFs(): Promise<void> {
    await super.initialSyncFs()
    const entries = this.pending
    this.pending = undefined
    if (entries === undefined) return
    const FS = (this.pg as unknown as { readonly Module: { readonly FS: EmscriptenFS } }).Module.FS
    const root = PGlite.paths.PGDATA
    const made = new Set<string>()
    const folder = (target: string) => {
      if (made.has(target)) return
      FS.mkdirTree(target)
      made.add(target)
    }
    for (const entry of entries) {
      const name = relativeName(entry.name)
      if (name.split("/").includes("..")) {
        throw new Error(`the store snapshot names a path outside the directory: ${entry.name}`)
      }
      const target = name === "" ? root : `${root}/${name}`
      if (entry.type === "directory") {
        folder(target)
      } else if (entry.type === "file") {
        folder(target.slice(0, target.lastIndexOf("/")))
        FS.writeFile(target, entry.data ?? new Uint8Array())
      } else {
        throw new Error(`the store snapshot holds ${entry.name}, of a kind that is not unpacked (${entry.type})`)
      }
    }
  }
}

/** What SeededMemoryFS uses of Emscripten's file system. */
interface EmscriptenFS {
  mkdirTree(path: string): void
  writeFile(path: string, data: Uint8Array): void
}

const openPglite = (options: PgliteClientOptions): Effect.Effect<PGlite, SqlError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const { dataDir } = options
        const seed = options.seed !== undefined && await isNew(dataDir) ? await options.seed() : undefined
        if (seed === undefined) await initializeApart(dataDir)
        const directory = localDirectory(dataDir)
        const entries = seed === undefined ? undefined : await entriesOf(seed)
        if (entries !== undefined && directory !== undefined) await unpackInto(directory, entries)
        const seededInMemory = entries !== undefined && directory === undefined && inMemory(dataDir)
        const pg = new PGlite(dataDir, {
          parsers: { [INT8]: parseInt8 },
          extensions: pgliteExtensions,
          startParams: startParams(dataDir),
          initDbStartParams: [...PgliteSettings.initdb],
          // Where the entries could not be written first (no node:zlib, or a store in IndexedDB): PGlite's loadDataDir.
          ...(seed === undefined || (entries !== undefined && directory !== undefined)
            ? {}
            : seededInMemory
            ? { fs: new SeededMemoryFS(entries) }
            : { loadDataDir: seed }),
        })
        await pg.waitReady
        return pg
      },
      catch: toSqlError(`PgliteClient: cannot open ${options.dataDir}`),
    }),
    (pg) =>
      pg.closed ? Effect.void : Effect.tryPromise(() => pg.close()).pipe(
        Effect.catchAll((error) => Effect.logWarning("PgliteClient: close failed", error)),
      ),
  )

/**
 * Every `checkpointPollMs`, under the permit: a CHECKPOINT when at least `checkpointAfterWalBytes` of WAL were
 * written since the last checkpoint's redo point, so that the WAL segments before it are recycled. A real-time
 * timer (not the platform clock), unreferenced so it never keeps the process alive; stopped before the
 * instance is closed. A failed poll is logged and the next one tries again.
 */
const checkpointWhenDue = (
  pg: PGlite,
  afterWalBytes: number,
  withPermit: <A, E>(effect: Effect.Effect<A, E>) => Effect.Effect<A, E>,
): Effect.Effect<void, never, Scope.Scope> => {
  const poll = withPermit(Effect.tryPromise({
    try: async () => {
      if (pg.closed) return
      const behind = await pg.query<{ behind: number }>(
        "SELECT (pg_current_wal_insert_lsn() - redo_lsn)::float8 AS behind FROM pg_control_checkpoint()",
      )
      if ((behind.rows[0]?.behind ?? 0) >= afterWalBytes) await pg.exec("CHECKPOINT")
    },
    catch: toSqlError("PgliteClient: checkpoint failed"),
  })).pipe(Effect.catchAll((error) => Effect.logWarning(error.message)))
  let running = false
  return Effect.acquireRelease(
    Effect.sync(() => {
      const timer = setInterval(() => {
        if (running) return
        running = true
        void Effect.runPromise(poll).finally(() => {
          running = false
        })
      }, PgliteSettings.checkpointPollMs)
      ;(timer as { unref?: () => void }).unref?.()
      return timer
    }),
    (timer) => Effect.sync(() => clearInterval(timer)),
  ).pipe(Effect.asVoid)
}

/** One result set comes back as its rows; several (multi-statement SQL) as an array per statement, like `pg`. */
const rowsOf = (results: ReadonlyArray<Results>, transformRows: TransformRows): ReadonlyArray<any> => {
  const transform = (rows: Array<any>) => (transformRows ? transformRows(rows) : rows)
  return results.length === 1 ? transform(results[0].rows) : results.map((result) => transform(result.rows))
}

/** Several protocol messages in one buffer: PGlite runs them in one call into PostgreSQL. */
const joined = (parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

/** A statement text prepared under a name: its parameters' types and its result's description (none: no rows). */
interface Prepared {
  readonly name: string
  readonly types: ReadonlyArray<number>
  readonly description: messages.RowDescriptionMessage | undefined
}

const serialize = protocol.serialize

const makeConnection = (pg: PGlite): Connection => {
  const prepared = new Map<string, Prepared>()

  /**
   * The statement's name, prepared the first time its text is seen (Parse and Describe, one call), or undefined
   * where it stays unnamed (named-statements.ts: `SELECT *`, or the bound reached).
   */
  const preparedOf = async (sql: string): Promise<Prepared | undefined> => {
    const known = prepared.get(sql)
    if (known !== undefined || prepared.size >= maxNamedStatements || selectsStar.test(sql)) return known
    const name = `sa_${prepared.size}`
    const described = await pg.execProtocolStream(
      joined([serialize.parse({ name, text: sql }), serialize.describe({ type: "S", name }), serialize.sync()]),
    )
    const made: Prepared = {
      name,
      types: described.find((m): m is messages.ParameterDescriptionMessage => m.name === "parameterDescription")
        ?.dataTypeIDs ?? [],
      description: described.find((m): m is messages.RowDescriptionMessage => m.name === "rowDescription"),
    }
    prepared.set(sql, made)
    return made
  }

  /** A parameter as PGlite's own `query` serializes it: by the type PostgreSQL gave its placeholder. */
  const valueOf = (param: unknown, type: number | undefined): string | null => {
    if (param === null || param === undefined) return null
    const serializer = type === undefined ? undefined : pg.serializers[type]
    return serializer ? serializer(param) : String(param)
  }

  /**
   * PGlite's `query` makes six calls into PostgreSQL for every statement (Parse, Describe, Bind, Describe, Execute,
   * Sync, each a round of its protocol loop), and PostgreSQL parses and plans the text every time. Here a
   * parameterised text is prepared once under a name (named-statements.ts), and each execution is one call of
   * Bind, Execute and Sync, its rows read with the description kept from the Describe; a statement without
   * parameters is one simple Query. Results are read by PGlite's own `parseResults` with the instance's parsers,
   * so rows are as `query` and `exec` give them. Measured with `npm run bench -- chat` (docs/performance.md).
   *
   * Uninterruptible because PGlite cannot cancel a running statement: the permit must not
   * be handed to another fiber while this one is still executing.
   */
  const run = (
    sql: string,
    params: ReadonlyArray<unknown>,
    rowMode: RowMode,
  ): Effect.Effect<ReadonlyArray<Results>, SqlError> =>
    Effect.uninterruptible(Effect.tryPromise({
      try: async () => {
        if (params.length === 0) {
          return parse.parseResults(await pg.execProtocolStream(serialize.query(sql)), pg.parsers, { rowMode })
        }
        const statement = await preparedOf(sql)
        if (statement === undefined) return [await pg.query(sql, params as Array<unknown>, { rowMode })]
        const values = params.map((param, i) => valueOf(param, statement.types[i]))
        const answer = await pg.execProtocolStream(
          joined([serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()]),
        )
        return parse.parseResults(
          statement.description === undefined ? answer : [statement.description, ...answer],
          pg.parsers,
          { rowMode },
        )
      },
      catch: toSqlError("Failed to execute statement"),
    }))

  const execute = (sql: string, params: ReadonlyArray<unknown>, transformRows: TransformRows) =>
    Effect.map(run(sql, params, "object"), (results) => rowsOf(results, transformRows))

  return {
    execute,
    executeUnprepared: execute,
    executeRaw: (sql, params) =>
      Effect.map(run(sql, params, "object"), (results) => (results.length === 1 ? results[0] : results)),
    executeValues: (sql, params) => Effect.map(run(sql, params, "array"), (results) => rowsOf(results, undefined)),
    // PGlite materialises the whole result anyway, so there is no cursor to page through.
    executeStream: (sql, params, transformRows) => Stream.fromIterableEffect(execute(sql, params, transformRows)),
  }
}

/**
 * A `SqlClient` backed by one PGlite instance, closed when the scope closes, and the executor's driver
 * over the same connection and permit (executor.ts).
 * Uses the `Reactivity` service from the context when there is one, else a private one.
 */
export const makePgliteInstance = (
  options: PgliteClientOptions,
): Effect.Effect<
  { readonly client: Client.SqlClient; readonly driver: SqlDriverShape; readonly pg: PGlite },
  SqlError,
  Scope.Scope
> =>
  Effect.gen(function* () {
    yield* ensureDirectory(options.dataDir)
    const pg = yield* openPglite(options)
    const connection = makeConnection(pg)
    const semaphore = yield* Effect.makeSemaphore(1)

    // Same shape as Semaphore.withPermits, but the release is tied to the caller's scope:
    // one statement for `acquirer`, the whole transaction for `transactionAcquirer`.
    const acquire: Connection.Acquirer = Effect.uninterruptibleMask((restore) =>
      restore(semaphore.take(1)).pipe(
        Effect.zipRight(Effect.addFinalizer(() => semaphore.release(1))),
        Effect.as(connection),
      )
    )
    yield* checkpointWhenDue(
      pg,
      inMemory(options.dataDir)
        ? PgliteSettings.memory.checkpointAfterWalBytes
        : PgliteSettings.checkpointAfterWalBytes,
      semaphore.withPermits(1),
    )
    const driver: SqlDriverShape = {
      execute: (text, params) => semaphore.withPermits(1)(connection.execute(text, params, undefined)),
      lease: Effect.as(semaphore.take(1), { connection, release: () => semaphore.release(1) }),
    }

    const reactivity = yield* Effect.serviceOption(Reactivity.Reactivity).pipe(
      Effect.flatMap(Option.match({ onNone: () => Reactivity.make, onSome: Effect.succeed })),
    )

    const client = yield* Client.make({
      acquirer: acquire,
      transactionAcquirer: acquire,
      compiler: pgCompiler,
      spanAttributes: [
        ["db.system.name", "postgresql"],
        ["db.namespace", "postgres"],
        ["server.address", options.dataDir],
      ],
    }).pipe(Effect.provideService(Reactivity.Reactivity, reactivity))
    return { client, driver, pg }
  })

/** A `SqlClient` backed by one PGlite instance, closed when the scope closes. */
export const makePgliteClient = (
  options: PgliteClientOptions,
): Effect.Effect<Client.SqlClient, SqlError, Scope.Scope> =>
  Effect.map(makePgliteInstance(options), ({ client }) => client)

/** `SqlClient` layer, with the executor's driver; the PGlite instance is closed when the layer is released. */
export const layer = (options: PgliteClientOptions): Layer.Layer<Client.SqlClient | SqlDriver, SqlError> =>
  Layer.unwrapScoped(
    Effect.map(
      makePgliteInstance(options),
      ({ client, driver }) => Layer.merge(Layer.succeed(Client.SqlClient, client), Layer.succeed(SqlDriver, driver)),
    ),
  )
