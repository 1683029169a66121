/**
 * Statements and commits of one verification on the production path, from the host's statement trace
 * (bench/verify-lib/trace.ts): the SMS simulator's own statements (table `sim_sms`) left out, commits
 * counted as WAL-flushing commits: the COMMIT of a transaction that wrote a logged table, and each
 * autocommitted write to a logged table. Whether a table is logged is read from `pg_class.relpersistence`
 * of the run's own schema, so the count follows the migrations (a write that touches only UNLOGGED tables
 * commits without waiting for the WAL to reach disk).
 *
 * Beside it, a measured cross-check on PostgreSQL: the deltas of `pg_stat_wal` (wal_sync, wal_records) and
 * of `pg_stat_database.xact_commit` over N verifications run one at a time, divided by N.
 */
import pg from "pg"
import { codeIn, destination, type Host, makeHttp, sleep } from "./support.ts"
import type { Setup } from "./project.ts"

/** The tables a statement writes (INSERT, UPDATE, DELETE, also inside a WITH) or row-locks (FOR UPDATE...). */
export const tablesWritten = (text: string): Array<string> => {
  const name = (s: string) => s.replace(/"/g, "").split(".").at(-1)!.toLowerCase()
  const out = new Set<string>()
  for (const m of text.matchAll(/\bINSERT\s+INTO\s+("?[\w.]+"?)/gi)) out.add(name(m[1]))
  for (const m of text.matchAll(/\bUPDATE\s+("?[\w.]+"?)\s+(?:AS\s+\w+\s+|\w+\s+)?SET\b/gi)) {
    if (m[1].toUpperCase() !== "SET") out.add(name(m[1]))
  }
  for (const m of text.matchAll(/\bDELETE\s+FROM\s+("?[\w.]+"?)/gi)) out.add(name(m[1]))
  // A row lock writes the row (its xmax) and gives the transaction an id: the locked table is the first
  // after FROM (enough for the statements of this path).
  if (/\bFOR\s+(?:NO\s+KEY\s+)?(?:UPDATE|SHARE)\b|\bFOR\s+KEY\s+SHARE\b/i.test(text)) {
    const m = /\bFROM\s+("?[\w.]+"?)/i.exec(text)
    if (m) out.add(name(m[1]))
  }
  return [...out]
}

export type Persistence = ReadonlyMap<string, "logged" | "unlogged" | "temporary">

/** relpersistence of every table of `schema`. */
export const persistenceOf = async (url: string, schema: string): Promise<Persistence> => {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    const { rows } = await c.query(
      `SELECT c.relname, c.relpersistence FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND c.relkind IN ('r', 'p')`,
      [schema],
    )
    return new Map(
      rows.map((
        r,
      ) => [r.relname, r.relpersistence === "u" ? "unlogged" : r.relpersistence === "t" ? "temporary" : "logged"]),
    )
  } finally {
    await c.end()
  }
}

export interface PartCount {
  /** Statements, the simulator's own left out (BEGIN and COMMIT count as statements). */
  readonly statements: number
  /** Statements of the simulator (`sim_sms`), left out of `statements`. */
  readonly simulator: number
  /** Transactions (BEGIN..COMMIT) and autocommitted statements, the simulator's left out. */
  readonly units: number
  /** WAL-flushing commits: units that write a logged table. */
  readonly flushing: number
  /** The same, were every table logged. */
  readonly writing: number
  /** Tables written, with their persistence, e.g. `rate_windows (unlogged)`. */
  readonly tables: ReadonlyArray<string>
}

/**
 * Counts one request's traced statements (in order, the background loops' already left out): a unit is
 * a BEGIN..COMMIT or one autocommitted statement. `persistence` undefined: every table is taken as logged.
 */
export const countPart = (lines: ReadonlyArray<string>, persistence: Persistence | undefined): PartCount => {
  const simulator = (s: string) => /\bsim_sms\b/.test(s)
  let statements = 0, sim = 0, units = 0, flushing = 0, writing = 0
  const tables = new Set<string>()
  const settle = (unit: ReadonlyArray<string>) => {
    units++
    const written = unit.flatMap(tablesWritten)
    if (written.length > 0) writing++
    for (const t of written) tables.add(`${t} (${persistence?.get(t) ?? (persistence ? "not found" : "logged?")})`)
    if (written.some((t) => (persistence?.get(t) ?? "logged") === "logged")) flushing++
  }
  let open: Array<string> | undefined
  for (const text of lines) {
    if (simulator(text)) {
      // The simulator stands in for the SMS gateway: its statements are no part of the production path.
      sim++
      continue
    }
    statements++
    if (text === "BEGIN") open = [text]
    else if (open !== undefined) {
      open.push(text)
      if (text === "COMMIT" || text === "ROLLBACK") {
        if (text === "COMMIT") settle(open)
        open = undefined
      }
    } else settle([text])
  }
  return { statements, simulator: sim, units, flushing, writing, tables: [...tables].sort() }
}

// ---------------------------------------------------------------------------------------------------------------
// The measured cross-check

interface WalReading {
  readonly walRecords: number
  readonly walSync: number
  readonly walBytes: number
  readonly xactCommit: number
  readonly at: number
}

const readWal = async (url: string): Promise<WalReading> => {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    const { rows: [w] } = await c.query(
      `SELECT w.wal_records::float8 AS r, w.wal_sync::float8 AS s, w.wal_bytes::float8 AS b, d.xact_commit::float8 AS x
       FROM pg_stat_wal w, pg_stat_database d WHERE d.datname = current_database()`,
    )
    return { walRecords: w.r, walSync: w.s, walBytes: w.b, xactCommit: w.x, at: performance.now() }
  } finally {
    await c.end()
  }
}

export interface WalCheck {
  readonly verifications: number
  readonly seconds: number
  /** Per verification, raw deltas. */
  readonly raw: { walSync: number; walRecords: number; walBytes: number; xactCommit: number }
  /** Per verification, the idle rate (same host, no traffic) taken off. */
  readonly net: { walSync: number; walRecords: number; walBytes: number; xactCommit: number }
  /** The idle rates, per second. */
  readonly idle: { walSync: number; walRecords: number; xactCommit: number }
}

/**
 * PostgreSQL's statistics reach pg_stat_wal and pg_stat_database when a backend flushes them: at most once
 * a second while busy, and 10 s after it goes idle. So: wait for the host's pending statistics, read, stay
 * idle `idleSeconds` and read again (the background rate: the host's jobs, other users of the server), run
 * `n` verifications one after the other, wait again and read. Both deltas are cluster-wide (wal) or
 * database-wide (xact_commit): other work on the server shows up in them.
 */
export const walCrossCheck = async (
  host: Host,
  setup: Setup,
  adminUrl: string,
  n: number,
  idleSeconds = 4,
): Promise<WalCheck> => {
  const flushWait = 11_000
  const http = makeHttp(host.baseUrl, 1)
  try {
    await sleep(flushWait)
    const a0 = await readWal(adminUrl)
    await sleep(idleSeconds * 1000)
    const a = await readWal(adminUrl)
    const keys = setup.keys
    for (let i = 0; i < n; i++) {
      const to = destination(8_000_000 + i)
      const s = await http.request("POST", "/v1/verify/start", keys[(2 * i) % keys.length], { to })
      if (s.status !== 200) throw new Error(`serial start: ${s.status} ${s.body}`)
      const r = await http.request("GET", `/console/v1/simulator/sms?to=${encodeURIComponent(to)}`, host.consoleToken)
      const c = await http.request("POST", "/v1/verify/check", keys[(2 * i + 1) % keys.length], {
        id: JSON.parse(s.body).id,
        code: codeIn(JSON.parse(r.body).data[0].text),
      })
      if (c.status !== 200 || JSON.parse(c.body).status !== "verified") {
        throw new Error(`serial check: ${c.status} ${c.body}`)
      }
    }
    const loopEnd = performance.now()
    await sleep(flushWait)
    const b = await readWal(adminUrl)
    const idleS = (a.at - a0.at) / 1000
    const idle = {
      walSync: (a.walSync - a0.walSync) / idleS,
      walRecords: (a.walRecords - a0.walRecords) / idleS,
      walBytes: (a.walBytes - a0.walBytes) / idleS,
      xactCommit: (a.xactCommit - a0.xactCommit) / idleS,
    }
    const span = (b.at - a.at) / 1000
    const per = (k: keyof typeof idle, netOf: boolean) => ((b[k] - a[k]) - (netOf ? idle[k] * span : 0)) / n
    return {
      verifications: n,
      seconds: (loopEnd - a.at) / 1000,
      raw: {
        walSync: per("walSync", false),
        walRecords: per("walRecords", false),
        walBytes: per("walBytes", false),
        xactCommit: per("xactCommit", false),
      },
      net: {
        walSync: per("walSync", true),
        walRecords: per("walRecords", true),
        walBytes: per("walBytes", true),
        xactCommit: per("xactCommit", true),
      },
      idle: { walSync: idle.walSync, walRecords: idle.walRecords, xactCommit: idle.xactCommit },
    }
  } finally {
    http.close()
  }
}
