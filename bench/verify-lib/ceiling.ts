/**
 * The ceiling of the Verify benchmark: the statements the project issues for one verification (start,
 * the simulator read, check — as traced by `bench/verify.ts --statements`), run straight through the
 * `pg` driver or straight on `@electric-sql/pglite`, with no HTTP and no Effect, at the same concurrency.
 *
 * Per verification (17 statements):
 *   start: rate-limit upsert with the credential lookup (one statement); settings read;
 *          BEGIN; application FOR UPDATE; sends to the destination; wallet charge with its ledger row;
 *          verification row; send row; COMMIT; simulated SMS row
 *   read:  simulated SMS log of the destination
 *   check: rate-limit upsert with the credential lookup;
 *          BEGIN; verification FOR UPDATE; verification update; outbox event; COMMIT
 *
 * The schema comes from the project's own migrations; the rows it seeds are those the console makes.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import * as SqlClient from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import { makeCompiler } from "@effect/sql-pg/PgClient"
import * as PgClient from "@effect/sql-pg/PgClient"
import { PGlite, types as PgliteTypes } from "@electric-sql/pglite"
import { randomBytes, randomInt, randomUUID } from "node:crypto"
import { Effect, Layer, Redacted, Stream } from "effect"
import pg from "pg"
import { migrate } from "../../adapters/sql/migrate.ts"
import { products } from "../../adapters/products.ts"
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
// The statements, as the adapters write them (whitespace aside).

const verificationColumns =
  `id, application_id, account_id, "to", channel, reference, client_ip, mode, status, attempts, max_attempts, resends, code_hash, expires_at, verified_at, created_at, updated_at`

export const Sql = {
  presentation:
    `WITH hit AS ( INSERT INTO rate_windows (credential_hash, window_start, count) VALUES ($1, $2, 1) ON CONFLICT (credential_hash, window_start) DO UPDATE SET count = rate_windows.count + 1 RETURNING count ) SELECT hit.count AS hit_count, c.id, c.hash, c.account_id, c.application_id, c.kind, c.mode, c.access, c.app_name, c.expires_at, c.ip_allowlist, c.revoked_at, c.created_at, c.member_id, c.role, c.email, c.manage_contacts, a.id AS acc_id, a.name AS acc_name, a.sandbox_only AS acc_sandbox_only, a.partner AS acc_partner, a.status AS acc_status, a.created_at AS acc_created_at, p.id AS ap_id, p.account_id AS ap_account_id, p.name AS ap_name, p.status AS ap_status, p.external_id AS ap_external_id, p.paused AS ap_paused, p.unpaused_at AS ap_unpaused_at, p.approved_at AS ap_approved_at, p.created_at AS ap_created_at FROM hit LEFT JOIN (credentials c JOIN accounts a ON a.id = c.account_id) ON c.hash = $1 LEFT JOIN applications p ON p.id = c.application_id`,
  settings: `SELECT settings FROM verify_settings WHERE application_id = $1`,
  lockApplication:
    `SELECT id, account_id, name, status, external_id, paused, unpaused_at, approved_at, created_at FROM applications WHERE id = $1 FOR UPDATE`,
  countToDestination:
    `SELECT count(*) AS n FROM verify_sends WHERE application_id = $1 AND "to" = $2 AND sent_at >= $3`,
  charge:
    `WITH charged AS ( UPDATE wallets SET balance_halalas = balance_halalas - $1 WHERE account_id = $2 AND balance_halalas >= $3 RETURNING account_id, balance_halalas ), entry AS ( INSERT INTO ledger (account_id, kind, amount_halalas, product, reference, at) SELECT account_id, $4::text, $5::bigint, $6::text, $7::text, $8::bigint FROM charged ) SELECT c.balance_halalas, s.low_balance_alert_halalas, s.auto_topup_enabled, s.auto_topup_threshold_halalas, s.auto_topup_amount_halalas, s.card_brand, s.card_last4, s.card_token FROM charged c LEFT JOIN wallet_settings s ON s.account_id = c.account_id`,
  insertVerification:
    `INSERT INTO verifications (${verificationColumns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
  insertSend:
    `INSERT INTO verify_sends (verification_id, application_id, "to", client_ip, price_halalas, sent_at) VALUES ($1, $2, $3, $4, $5, $6)`,
  simSms: `INSERT INTO sim_sms (id, "to", text, sent_at) VALUES ($1, $2, $3, $4)`,
  readSms: `SELECT id, "to", text, sent_at FROM sim_sms WHERE "to" = $1 ORDER BY sent_at DESC, seq DESC LIMIT $2`,
  lockVerification: `SELECT ${verificationColumns} FROM verifications WHERE id = $1 FOR UPDATE`,
  updateVerification:
    `UPDATE verifications SET application_id = $1, account_id = $2, "to" = $3, channel = $4, reference = $5, client_ip = $6, mode = $7, status = $8, attempts = $9, max_attempts = $10, resends = $11, code_hash = $12, expires_at = $13, verified_at = $14, created_at = $15, updated_at = $16 WHERE id = $17`,
  outbox:
    `INSERT INTO outbox_events ("id","event","data","application_id","account_id","external_id","created_at") VALUES ($1,$2,$3,$4,$5,$6,$7)`,
} as const

/** The statement texts of one verification in order, for comparison with the host's trace. */
export const ceilingStatements = {
  start: [
    Sql.presentation,
    Sql.settings,
    "BEGIN",
    Sql.lockApplication,
    Sql.countToDestination,
    Sql.charge,
    Sql.insertVerification,
    Sql.insertSend,
    "COMMIT",
    Sql.simSms,
  ],
  read: [Sql.readSms],
  check: [
    Sql.presentation,
    "BEGIN",
    Sql.lockVerification,
    Sql.updateVerification,
    Sql.outbox,
    "COMMIT",
  ],
}

// ---------------------------------------------------------------------------------------------------------------
// A driver-neutral shape: autocommit statements and transactions

interface Db {
  readonly query: (name: string, text: string, params: Array<unknown>) => Promise<Array<Record<string, any>>>
  readonly transaction: <A>(f: (q: Db["query"]) => Promise<A>) => Promise<A>
  readonly close: () => Promise<void>
}

const pgDb = (url: string, opts: { prepared: boolean; poolSize: number }): Db => {
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

const pgliteDb = (db: PGlite): Db => ({
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
const pgliteSqlClient = (db: PGlite) => {
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
    JSON.stringify({
      code_length: 6,
      code_lifetime_minutes: 10,
      max_attempts: 3,
      hourly_cap_per_destination: 10_000,
      max_per_ip_per_hour: 100_000,
      daily_spend_cap_halalas: null,
      guard: { enabled: false, min_sends: 100, min_verified_percent: 10 },
    }),
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
  return { accountId, applicationId, keyHashes }
}

// ---------------------------------------------------------------------------------------------------------------
// The loop

export interface CeilingRun extends SliceFigures {
  readonly label: string
  readonly start: Latencies
  readonly check: Latencies
  /** CPU of this process while measuring (the driver and, for PGlite, the database). */
  cpuSeconds: number
  /** The start transaction alone (BEGIN .. COMMIT), tx/s, to compare with pgbench-style figures. */
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

const hex = () => randomBytes(32).toString("hex")
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve))
const windowStart = (now: number) => now - (now % 60_000)

/** The statements of one start's transaction, between BEGIN and COMMIT. */
const startTx = async (q: Db["query"], s: Seed, id: string, to: string, now: number) => {
  await q("lockApplication", Sql.lockApplication, [s.applicationId])
  await q("countToDestination", Sql.countToDestination, [s.applicationId, to, now - 3_600_000])
  await q("charge", Sql.charge, [9, s.accountId, 9, "charge", -9, "verify", id, now])
  await q("insertVerification", Sql.insertVerification, [
    id,
    s.applicationId,
    s.accountId,
    to,
    "sms",
    null,
    null,
    "live",
    "pending",
    0,
    3,
    0,
    hex(),
    now + 600_000,
    null,
    now,
    now,
  ])
  await q("insertSend", Sql.insertSend, [id, s.applicationId, to, null, 9, now])
}

/** One verification: start, the read of the simulated SMS, check; answers the two flows' latencies. */
const verification = async (db: Db, s: Seed, run: CeilingRun) => {
  const key = () => s.keyHashes[run.nextKey++ % s.keyHashes.length]
  const to = destination(run.nextTo++)
  const t0 = performance.now()
  // start
  const now = Date.now()
  const hash = key()
  await db.query("presentation", Sql.presentation, [hash, windowStart(now)])
  await db.query("settings", Sql.settings, [s.applicationId])
  const id = randomUUID()
  const code = String(randomInt(1_000_000)).padStart(6, "0")
  await db.transaction((q) => startTx(q, s, id, to, now))
  await db.query("simSms", Sql.simSms, [randomUUID(), to, `Your verification code is ${code}`, Date.now()])
  const t1 = performance.now()
  // read
  const sms = await db.query("readSms", Sql.readSms, [to, 100])
  const read = codeIn(sms[0].text)
  // check
  const t2 = performance.now()
  const hash2 = key()
  await db.query("presentation", Sql.presentation, [hash2, windowStart(Date.now())])
  await db.transaction(async (q) => {
    const [v] = await q("lockVerification", Sql.lockVerification, [id])
    const at = Date.now()
    await q("updateVerification", Sql.updateVerification, [
      v.application_id,
      v.account_id,
      v.to,
      v.channel,
      v.reference,
      v.client_ip,
      v.mode,
      read === code ? "verified" : "failed",
      1,
      v.max_attempts,
      v.resends,
      v.code_hash,
      v.expires_at,
      at,
      v.created_at,
      at,
      id,
    ])
    await q("outbox", Sql.outbox, [
      randomUUID(),
      "verification.verified",
      JSON.stringify({ id, status: "verified", application_id: s.applicationId, to }),
      s.applicationId,
      s.accountId,
      null,
      at,
    ])
  })
  return { start: t1 - t0, check: performance.now() - t2 }
}

export interface Ceiling {
  readonly run: CeilingRun
  /** One slice of `seconds` measured after `warmup`, added to `run`. */
  readonly slice: (opts: SliceOptions) => Promise<void>
  /** The start transaction alone for `seconds`; sets `run.startTxAlone`. */
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
          await db.transaction((q) => startTx(q, s, randomUUID(), destination(run.nextTo++), Date.now()))
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

/** `@electric-sql/pglite` in this process, in memory, with the project's int8 parser. */
export const openPgliteCeiling = async (keys: number): Promise<Ceiling> => {
  const raw = new PGlite("memory://", {
    parsers: {
      [PgliteTypes.INT8]: (v: string) => {
        const n = BigInt(v)
        return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n
      },
    },
  })
  await raw.waitReady
  await Effect.runPromise(Effect.provide(migrate(products), pgliteSqlClient(raw)))
  const db = pgliteDb(raw)
  const s = await seed(db, keys)
  return ceilingOver("@electric-sql/pglite", db, s, db.close)
}
