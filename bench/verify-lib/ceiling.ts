/**
 * The ceiling of the Verify benchmark: the statements the project issues for one verification (start,
 * the simulator read, check — as traced by `bench/verify.ts --statements`), run straight through the
 * `pg` driver or straight on `@electric-sql/pglite`, with no HTTP and no Effect, at the same concurrency.
 *
 * Per verification (5 statements, 2 WAL-flushing commits; the simulator's 2 besides):
 *   start: rate-limit upsert with the credential lookup (one statement, rate_windows UNLOGGED);
 *          the send in one statement (the settings it was prepared on, the destination's rolling hour,
 *          the day's spend, the application's pause, the wallet, then the charge with its ledger row,
 *          the verification and the send); simulated SMS row
 *   read:  simulated SMS log of the destination
 *   check: rate-limit upsert with the credential lookup; the verification's row; compare-and-set of its
 *          new state with its outbox event and the guard's credit (one autocommitted statement)
 *
 * The work between statements is the host's too: the settings (as seeded, which the host's hint holds) give
 * the code's length, lifetime and attempts; the code is stored as an HMAC and compared as one; a refused send
 * or compare-and-set stops the run. The schema comes from the project's own migrations; the rows it seeds are
 * those the console makes.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import * as SqlClient from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import { makeCompiler } from "@effect/sql-pg/PgClient"
import * as PgClient from "@effect/sql-pg/PgClient"
import { type messages, Mutex, parse, PGlite, protocol, types as PgliteTypes } from "@electric-sql/pglite"
import { createHmac, randomBytes, randomInt, randomUUID, timingSafeEqual } from "node:crypto"
import { Effect, Layer, Option, Redacted, Stream } from "effect"
import pg from "pg"
import { migrate } from "../../adapters/sql/migrate.ts"
import { pgliteExtensions, PgliteSettings, startParams } from "../../adapters/sql/pglite-client.ts"
import { products } from "../../adapters/products.ts"
import { riyadhDayStart } from "../../core/shared/riyadh.ts"
import { Prices, VerifyLimits } from "../../core/limits.ts"
import { defaultSettings } from "../../core/verify/settings.ts"
import { sendStatements } from "../../adapters/sql/verify.ts"
import { walletChargeSql } from "../../adapters/sql/wallet.ts"
import type { AccountId, Millis } from "../../core/shared/brands.ts"
import type { Verification, VerifySend } from "../../core/verify/model.ts"
import {
  codeIn,
  destination,
  Latencies,
  measureSlice,
  ownCpuSeconds,
  sleep,
  type Slice,
  type SliceFigures,
  type SliceOptions,
} from "./support.ts"

// ---------------------------------------------------------------------------------------------------------------
// The statements, as the adapters write them (whitespace aside): adapters/sql/credentials.ts (presentation),
// adapters/sql/verify.ts (the send, taken from the adapter itself: its text is built from parts; transition:
// with events and the guard's credit).

const statements = sendStatements(walletChargeSql)
const sendText = statements.textFor(false, false, true, true, false)

const verificationColumns =
  `id, application_id, account_id, "to", channel, reference, client_ip, mode, status, attempts, max_attempts, resends, code_hash, expires_at, verified_at, created_at, updated_at`

export const Sql = {
  presentation:
    `WITH hit AS ( INSERT INTO rate_windows (credential_hash, window_start, count) VALUES ($1, $2, 1) ON CONFLICT (credential_hash, window_start) DO UPDATE SET count = rate_windows.count + 1 RETURNING count ) SELECT hit.count AS hit_count, c.id, c.hash, c.account_id, c.application_id, c.kind, c.mode, c.access, c.app_name, c.expires_at, c.ip_allowlist, c.revoked_at, c.created_at, c.member_id, c.role, c.email, c.manage_contacts, a.id AS acc_id, a.name AS acc_name, a.sandbox_only AS acc_sandbox_only, a.partner AS acc_partner, a.status AS acc_status, a.created_at AS acc_created_at, p.id AS ap_id, p.account_id AS ap_account_id, p.name AS ap_name, p.status AS ap_status, p.external_id AS ap_external_id, p.paused AS ap_paused, p.unpaused_at AS ap_unpaused_at, p.approved_at AS ap_approved_at, p.created_at AS ap_created_at FROM hit LEFT JOIN (credentials c JOIN accounts a ON a.id = c.account_id) ON c.hash = $1 LEFT JOIN applications p ON p.id = c.application_id`,
  /** The send as the adapter builds it: an insert, no client IP, with the day's spend and the charge, the guard off. */
  send: sendText.text,
  simSms: `INSERT INTO sim_sms (id, "to", text, sent_at) VALUES ($1, $2, $3, $4)`,
  readSms: `SELECT id, "to", text, sent_at FROM sim_sms WHERE "to" = $1 ORDER BY sent_at DESC, seq DESC LIMIT $2`,
  getVerification: `SELECT ${verificationColumns} FROM verifications WHERE id = $1`,
  /**
   * `$1..$7` the new state, `$8` the id, `$9..$13` the state the row must still hold, `$14` the events (JSON),
   * `$15..$19` the guard's credit (application, epoch, minute, count, shard).
   */
  transition: `WITH moved AS (
      UPDATE verifications SET status = $1, attempts = $2, resends = $3, code_hash = $4, expires_at = $5,
        verified_at = $6, updated_at = $7
      WHERE id = $8 AND status = $9 AND attempts = $10 AND resends = $11 AND code_hash = $12 AND expires_at = $13
      RETURNING id
    ), appended AS (
      INSERT INTO outbox_events (id, event, data, application_id, account_id, external_id, created_at)
      SELECT e.id, e.event, e.data, e.application_id, e.account_id, e.external_id, e.created_at
      FROM moved, jsonb_to_recordset($14::jsonb) AS e(id uuid, event text, data jsonb, application_id uuid,
        account_id uuid, external_id text, created_at bigint, ordinal int)
      ORDER BY e.ordinal
    ), credited AS (
      INSERT INTO verify_guard AS g (application_id, epoch, minute, shard, sends, verified)
      SELECT $15::uuid, $16::bigint, $17::bigint, $19::smallint, 0, $18::int FROM moved
      ON CONFLICT (application_id, epoch, minute, shard) DO UPDATE SET verified = g.verified + EXCLUDED.verified
    ) SELECT count(*) AS n FROM moved`,
} as const

/** The statement texts of one verification in order, for comparison with the host's trace. */
export const ceilingStatements = {
  start: [Sql.presentation, Sql.send, Sql.simSms],
  read: [Sql.readSms],
  check: [Sql.presentation, Sql.getVerification, Sql.transition],
}

/** Statements of the SMS simulator in `ceilingStatements` (they stand in for the gateway). */
export const simulatorStatements = [Sql.simSms, Sql.readSms].length

// ---------------------------------------------------------------------------------------------------------------
// A driver-neutral shape: autocommit statements and transactions

export interface Db {
  readonly query: (name: string, text: string, params: Array<unknown>) => Promise<Array<Record<string, any>>>
  readonly transaction: <A>(f: (q: Db["query"]) => Promise<A>) => Promise<A>
  readonly close: () => Promise<void>
}

export const pgDb = (url: string, opts: { prepared: boolean; poolSize: number }): Db => {
  const pool = new pg.Pool({ connectionString: url, max: opts.poolSize })
  pool.on("error", () => {})
  const on = (c: pg.Pool | pg.PoolClient) => async (name: string, text: string, values: Array<unknown>) =>
    (await c.query(opts.prepared ? { name, text, values } : { text, values })).rows
  return {
    query: on(pool),
    transaction: async (f) => {
      const client = await pool.connect()
      try {
        await client.query("BEGIN")
        const a = await f(on(client))
        await client.query("COMMIT")
        return a
      } catch (e) {
        await client.query("ROLLBACK").catch(() => {})
        throw e
      } finally {
        client.release()
      }
    },
    close: () => pool.end(),
  }
}

/**
 * PGlite through its protocol with named statements: each text parsed once (Parse and Describe), each execution one
 * call of Bind, Execute and Sync, BEGIN and COMMIT one simple Query each, and one lock around each statement and
 * transaction, as PGlite's own `transaction` takes. The least PGlite's driver can be asked for a statement; what
 * adapters/sql/pglite-client.ts does, written here again from PGlite's public API.
 */
export const pglitePreparedDb = (db: PGlite): Db => {
  interface Statement {
    readonly name: string
    readonly types: ReadonlyArray<number>
    readonly description: messages.RowDescriptionMessage | undefined
  }
  const statements = new Map<string, Statement>()
  const lock = new Mutex()
  const { serialize } = protocol
  const joined = (...parts: Array<Uint8Array>) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
    parts.reduce((at, p) => (out.set(p, at), at + p.length), 0)
    return out
  }
  const run = async (text: string, params: Array<unknown>): Promise<Array<Record<string, any>>> => {
    let statement = statements.get(text)
    if (statement === undefined) {
      const name = `c_${statements.size}`
      const described = await db.execProtocolStream(
        joined(serialize.parse({ name, text }), serialize.describe({ type: "S", name }), serialize.sync()),
      )
      statement = {
        name,
        types: described.find((m): m is messages.ParameterDescriptionMessage => m.name === "parameterDescription")
          ?.dataTypeIDs ?? [],
        description: described.find((m): m is messages.RowDescriptionMessage => m.name === "rowDescription"),
      }
      statements.set(text, statement)
    }
    const types = statement.types
    const values = params.map((
      p,
      i,
    ) => (p === null || p === undefined ? null : (db.serializers[types[i]] ?? String)(p)))
    const answer = await db.execProtocolStream(
      joined(serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()),
    )
    const all = statement.description === undefined ? answer : [statement.description, ...answer]
    return parse.parseResults(all, db.parsers)[0].rows as Array<Record<string, any>>
  }
  const simple = (text: string) => db.execProtocolStream(serialize.query(text))
  return {
    query: (_name, text, params) => lock.runExclusive(() => run(text, params)),
    transaction: (f) =>
      lock.runExclusive(async () => {
        await simple("BEGIN")
        try {
          const a = await f((_name, text, params) => run(text, params))
          await simple("COMMIT")
          return a
        } catch (e) {
          await simple("ROLLBACK").catch(() => {})
          throw e
        }
      }),
    close: () => db.close(),
  }
}

export const pgliteDb = (db: PGlite): Db => ({
  query: async (_name, text, params) => (await db.query(text, params)).rows as Array<Record<string, any>>,
  transaction: (f) =>
    db.transaction((tx) =>
      f(async (_name, text, params) => (await tx.query(text, params)).rows as Array<Record<string, any>>)
    ),
  close: () => db.close(),
})

// ---------------------------------------------------------------------------------------------------------------
// Schema and seed rows

/** A minimal `SqlClient` over a raw PGlite, only to run the project's migrations on it. */
export const pgliteSqlClient = (db: PGlite) => {
  const run = (sql: string, params: ReadonlyArray<unknown>) =>
    Effect.tryPromise({
      try: async () => (params.length === 0
        ? (await db.exec(sql)).at(-1)?.rows ?? []
        : (await db.query(sql, [...params])).rows),
      catch: (cause) => new SqlError({ cause, message: String(cause) }),
    })
  const connection: Connection = {
    execute: (sql, params) => run(sql, params),
    executeUnprepared: (sql, params) => run(sql, params),
    executeRaw: (sql, params) => run(sql, params),
    executeValues: (sql, params) =>
      Effect.map(run(sql, params), (rows) => rows.map((r) => Object.values(r as Record<string, unknown>))),
    executeStream: (sql, params) => Stream.fromIterableEffect(run(sql, params)),
  }
  return Layer.effect(
    SqlClient.SqlClient,
    SqlClient.make({ acquirer: Effect.succeed(connection), compiler: makeCompiler(), spanAttributes: [] }),
  ).pipe(Layer.provide(Reactivity.layer))
}

interface Seed {
  readonly accountId: string
  readonly applicationId: string
  readonly keyHashes: ReadonlyArray<string>
  /** The settings as saved: the send is prepared on them. */
  readonly settings: typeof seededSettings
}

const seededSettings = {
  ...defaultSettings,
  code_length: 6,
  code_lifetime_minutes: 10,
  max_attempts: 3,
  hourly_cap_per_destination: 10_000,
  max_per_ip_per_hour: 100_000,
  daily_spend_cap_halalas: null,
  guard: { enabled: false, min_sends: 100, min_verified_percent: 10 },
}

const seed = async (db: Db, keys: number): Promise<Seed> => {
  const now = Date.now()
  const accountId = randomUUID()
  const applicationId = randomUUID()
  await db.query(
    "",
    `INSERT INTO accounts (id, name, sandbox_only, partner, status, created_at) VALUES ($1, $2, false, false, 'active', $3)`,
    [
      accountId,
      "Ceiling merchant",
      now,
    ],
  )
  await db.query(
    "",
    `INSERT INTO applications (id, account_id, name, status, external_id, paused, created_at) VALUES ($1, $2, $3, 'active', NULL, false, $4)`,
    [
      applicationId,
      accountId,
      "Ceiling shop",
      now,
    ],
  )
  await db.query("", `INSERT INTO wallets (account_id, balance_halalas) VALUES ($1, 10000000000)`, [accountId])
  await db.query("", `INSERT INTO verify_settings (application_id, settings) VALUES ($1, $2::jsonb)`, [
    applicationId,
    JSON.stringify(seededSettings),
  ])
  const keyHashes: Array<string> = []
  for (let i = 0; i < keys; i++) {
    const hash = randomBytes(32).toString("hex")
    keyHashes.push(hash)
    await db.query(
      "",
      `INSERT INTO credentials (id, hash, account_id, application_id, kind, mode, access, app_name, expires_at, ip_allowlist, revoked_at, created_at)
      VALUES ($1, $2, $3, $4, 'key', 'live', '"full"'::jsonb, NULL, NULL, '[]'::jsonb, NULL, $5)`,
      [randomUUID(), hash, accountId, applicationId, now],
    )
  }
  return { accountId, applicationId, keyHashes, settings: seededSettings }
}

// ---------------------------------------------------------------------------------------------------------------
// The loop

export interface CeilingRun extends SliceFigures {
  readonly label: string
  readonly start: Latencies
  readonly check: Latencies
  /** CPU of this process while measuring (the driver and, for PGlite, the database). */
  cpuSeconds: number
  /** The start's send statement alone, tx/s, to compare with pgbench-style figures. */
  startTxAlone: number
  nextKey: number
  nextTo: number
}

const emptyRun = (label: string): CeilingRun => ({
  label,
  seconds: 0,
  verifications: 0,
  start: new Latencies(),
  check: new Latencies(),
  slices: [],
  machineBusyPercent: Number.NaN,
  cpuSeconds: 0,
  dbCpuSeconds: Number.NaN,
  startTxAlone: Number.NaN,
  nextKey: 0,
  nextTo: 0,
})

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve))
const windowStart = (now: number) => now - (now % 60_000)
const minuteOf = (at: number) => Math.floor(at / 60_000) * 60_000
const int = (v: unknown) => Number(v)
const price = Prices.verifySmsHalalas

/** The code's hash, as the host's secrets make it (an HMAC of the id and the code, under a platform secret). */
const platformSecret = randomBytes(32)
const codeHash = (id: string, code: string) =>
  createHmac("sha256", platformSecret).update(`verify:${id}:${code}`).digest("hex")
const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

/** One start's send (one statement, autocommitted): answers the code sent. */
const startSend = async (q: Db["query"], s: Seed, id: string, to: string, now: number) => {
  const settings = s.settings
  const code = String(randomInt(10 ** settings.code_length)).padStart(settings.code_length, "0")
  const send = {
    verificationId: id,
    applicationId: s.applicationId,
    to,
    clientIp: null,
    priceHalalas: price,
    sentAt: now,
  } as VerifySend
  const { params } = statements.statement({
    send,
    verification: {
      _tag: "Insert",
      value: {
        id,
        applicationId: s.applicationId,
        accountId: s.accountId,
        to,
        channel: "sms",
        reference: null,
        clientIp: null,
        mode: "live",
        status: "pending",
        attempts: 0,
        maxAttempts: settings.max_attempts,
        resends: 0,
        codeHash: codeHash(id, code),
        expiresAt: now + settings.code_lifetime_minutes * 60_000,
        verifiedAt: null,
        createdAt: now,
        updatedAt: now,
      } as Verification,
    },
    settings: Option.some(settings),
    since: (now - VerifyLimits.capWindowMs) as Millis,
    caps: { destination: settings.hourly_cap_per_destination, clientIp: settings.max_per_ip_per_hour },
    spend: { dayStart: riyadhDayStart(now) as Millis, capHalalas: settings.daily_spend_cap_halalas },
    charge: {
      accountId: s.accountId as AccountId,
      kind: "charge",
      amountHalalas: -price,
      product: "verify",
      reference: id,
      at: now as Millis,
    },
    guardMinute: minuteOf(now) as Millis,
    guardSince: null,
  })
  const [sent] = await q("send", Sql.send, params)
  if (sent.written !== true) throw new Error("ceiling: the send was refused")
  return code
}

const isoMillis = (ms: number) => new Date(ms).toISOString()

/** One verification: start, the read of the simulated SMS, check; answers the two flows' latencies. */
const verification = async (db: Db, s: Seed, run: CeilingRun) => {
  const key = () => s.keyHashes[run.nextKey++ % s.keyHashes.length]
  const to = destination(run.nextTo++)
  const t0 = performance.now()
  // start
  const now = Date.now()
  const [principal] = await db.query("presentation", Sql.presentation, [key(), windowStart(now)])
  if (principal.ap_id !== s.applicationId) throw new Error("ceiling: the key was not found")
  const id = randomUUID()
  const code = await startSend(db.query, s, id, to, now)
  await db.query("simSms", Sql.simSms, [randomUUID(), to, `Your verification code is ${code}`, Date.now()])
  const t1 = performance.now()
  // read
  const sms = await db.query("readSms", Sql.readSms, [to, 100])
  const read = codeIn(sms[0].text)
  // check: the row, the comparison, the compare-and-set of the new state with its event and the guard's credit
  const t2 = performance.now()
  const [p2] = await db.query("presentation", Sql.presentation, [key(), windowStart(Date.now())])
  if (p2.ap_id !== s.applicationId) throw new Error("ceiling: the key was not found")
  const hash = codeHash(id, read)
  const [v] = await db.query("getVerification", Sql.getVerification, [id])
  const at = Date.now()
  if (v.application_id !== s.applicationId || v.status !== "pending" || at >= int(v.expires_at)) {
    throw new Error("ceiling: the verification is not pending")
  }
  if (!sameHash(hash, v.code_hash)) throw new Error("ceiling: the code read does not match")
  const attempts = int(v.attempts) + 1
  const events = JSON.stringify([{
    id: randomUUID(),
    event: "verification.verified",
    data: {
      id,
      status: "verified",
      application_id: v.application_id,
      reference: v.reference,
      channel: v.channel,
      to: v.to,
      mode: v.mode,
      attempts,
      expires_at: isoMillis(int(v.expires_at)),
      verified_at: isoMillis(at),
      created_at: isoMillis(int(v.created_at)),
    },
    application_id: v.application_id,
    account_id: v.account_id,
    external_id: null,
    created_at: at,
    ordinal: 0,
  }])
  const [moved] = await db.query("transition", Sql.transition, [
    "verified",
    attempts,
    v.resends,
    v.code_hash,
    v.expires_at,
    at,
    at,
    id,
    v.status,
    v.attempts,
    v.resends,
    v.code_hash,
    v.expires_at,
    events,
    s.applicationId,
    0,
    minuteOf(int(v.created_at)),
    1 + int(v.resends),
    1 + (parseInt(id.slice(0, 8), 16) % 8),
  ])
  if (int(moved.n) !== 1) throw new Error("ceiling: the compare-and-set found the verification moved")
  return { start: t1 - t0, check: performance.now() - t2 }
}

export interface Ceiling {
  readonly run: CeilingRun
  /** One slice of `seconds` measured after `warmup`, added to `run`. */
  readonly slice: (opts: SliceOptions) => Promise<void>
  /** The start's send alone for `seconds`; sets `run.startTxAlone`. */
  readonly startAlone: (opts: { clients: number; seconds: number }) => Promise<void>
  readonly close: () => Promise<void>
}

const ceilingOver = (label: string, db: Db, s: Seed, close: () => Promise<void>): Ceiling => {
  const run = emptyRun(label)
  return {
    run,
    slice: async (opts) => {
      const client = async (slice: Slice) => {
        while (!slice.stopping) {
          // PGlite answers through microtasks only: without a turn of the event loop, no timer would
          // ever fire (the end of the slice included).
          await yieldToLoop()
          const lat = await verification(db, s, run)
          if (slice.measuring) {
            run.start.add(lat.start)
            run.check.add(lat.check)
            slice.verifications++
          }
        }
      }
      const [cpu] = await measureSlice(opts, client, run, [ownCpuSeconds])
      run.cpuSeconds += cpu
    },
    startAlone: async (opts) => {
      let n = 0
      let stop = false
      const only = async () => {
        while (!stop) {
          await yieldToLoop()
          await startSend(db.query, s, randomUUID(), destination(run.nextTo++), Date.now())
          n++
        }
      }
      const loops = Array.from({ length: opts.clients }, only)
      const a = performance.now()
      await sleep(opts.seconds * 1000)
      const count = n
      const e = (performance.now() - a) / 1000
      stop = true
      await Promise.all(loops)
      run.startTxAlone = count / e
    },
    close,
  }
}

/**
 * `pg` on a fresh schema the project's migrations made; the pool is the project's (pg's default of 10).
 * `prepared`: each statement under a name, so each connection parses it once.
 */
export const openPgCeiling = async (url: string, prepared: boolean, keys: number): Promise<Ceiling> => {
  await Effect.runPromise(
    Effect.provide(migrate(products), PgClient.layer({ url: Redacted.make(url) })).pipe(Effect.scoped),
  )
  const db = pgDb(url, { prepared, poolSize: 10 })
  const s = await seed(db, keys)
  return ceilingOver(prepared ? "pg, named prepared statements" : "pg", db, s, db.close)
}

/**
 * A ceiling's PGlite: in this process, in memory, with the project's int8 parser and extensions, and the server
 * settings the platform's own stores run with (adapters/sql/pglite-client.ts `startParams`, `PgliteSettings.initdb`:
 * a 16 MB buffer pool, 1 MB WAL segments), so that a ratio against it measures the platform, not a store configured
 * otherwise. (Measured against PGlite's defaults, 128 MB of buffers and 16 MB segments, on 2026-11-27: no difference
 * the machine's noise did not swamp.) It does not checkpoint, as the platform's memory store does every 2 MB of WAL.
 */
export const ceilingPglite = (): PGlite =>
  new PGlite("memory://", {
    parsers: {
      [PgliteTypes.INT8]: (v: string) => {
        const n = BigInt(v)
        return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n
      },
    },
    extensions: pgliteExtensions,
    startParams: startParams("memory://"),
    initDbStartParams: [...PgliteSettings.initdb],
  })

/**
 * Every PGlite ceiling's store: `ceilingPglite` in this process, migrated by the project's migrations, queried through
 * PGlite's plain `query` or (`prepared`) its protocol with named statements (`pglitePreparedDb`); with its label.
 */
export const openPgliteDb = async (prepared: boolean): Promise<{ readonly db: Db; readonly label: string }> => {
  const raw = ceilingPglite()
  await raw.waitReady
  await Effect.runPromise(Effect.provide(migrate(products), pgliteSqlClient(raw)))
  return prepared
    ? { db: pglitePreparedDb(raw), label: "@electric-sql/pglite, named statements" }
    : { db: pgliteDb(raw), label: "@electric-sql/pglite" }
}

/** `@electric-sql/pglite` in this process (`openPgliteDb`). */
export const openPgliteCeiling = async (keys: number, prepared = false): Promise<Ceiling> => {
  const { db, label } = await openPgliteDb(prepared)
  return ceilingOver(label, db, await seed(db, keys), db.close)
}
