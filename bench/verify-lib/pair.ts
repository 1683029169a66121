/**
 * The minimal Verify pair (/work/shared/bench/minimal-pair, or $MINIMAL_PAIR_DIR): the least SQL a correct
 * start and check need, run by pgbench straight on PostgreSQL (no HTTP, no Node, no Effect). One pgbench
 * transaction is one start+check pair. A ceiling that does not follow the project's own statements: the
 * Verify benchmark runs it in slices alternating with the project's and prints project verifications/s ÷
 * pairs/s.
 */
import { spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import pg from "pg"
import { busyPercent, machineTicks } from "./support.ts"

export const pairDir = process.env.MINIMAL_PAIR_DIR ?? "/work/shared/bench/minimal-pair"
const pgbench = process.env.PGBENCH ?? "/usr/bin/pgbench"
const database = "minbench"

export interface PairRun {
  readonly label: string
  seconds: number
  /** Pairs (pgbench transactions) counted over all slices. */
  pairs: number
  /** pgbench's tps of each slice (without the initial connection time). */
  readonly slices: Array<number>
  /** pgbench's average latency of a pair, ms, per slice. */
  readonly latencies: Array<number>
  machineBusyPercent: number
}

export interface Pair {
  readonly run: PairRun
  readonly slice: (opts: { clients: number; seconds: number }) => Promise<void>
}

/** `url` with its database replaced by `name` and the search_path/application_name options dropped. */
const onDatabase = (url: string, name: string) => {
  const u = new URL(url)
  u.pathname = `/${name}`
  u.search = ""
  return u.toString()
}

const statementsOf = (sql: string) =>
  sql.split("\n").filter((l) => !l.trimStart().startsWith("--")).join("\n").split(/;\s*(?:\n|$)/).map((s) => s.trim())
    .filter((s) => s.length > 0)

/**
 * Makes the `minbench` database from schema.sql when it or its tables are missing (a database made
 * earlier is kept as it is: others may be running the pair on it), then CHECKPOINT. Answers why the pair
 * cannot run, or the pair.
 */
export const openPair = async (databaseUrl: string, script = "pair-1wallet.sql"): Promise<Pair | string> => {
  if (!existsSync(pgbench)) return `no pgbench at ${pgbench} (set PGBENCH)`
  const file = join(pairDir, script)
  if (!existsSync(file)) return `no ${file} (set MINIMAL_PAIR_DIR)`
  const admin = new pg.Client({ connectionString: onDatabase(databaseUrl, "postgres") })
  await admin.connect()
  try {
    const { rowCount } = await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [database])
    if (rowCount === 0) await admin.query(`CREATE DATABASE ${database}`)
  } finally {
    await admin.end()
  }
  const db = new pg.Client({ connectionString: onDatabase(databaseUrl, database) })
  await db.connect()
  try {
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public' AND tablename = ANY($1)`,
      [["rate_windows", "wallets", "verifications", "outbox"]],
    )
    if (rows[0].n < 4) {
      for (const statement of statementsOf(readFileSync(join(pairDir, "schema.sql"), "utf8"))) {
        await db.query(statement)
      }
    }
    await db.query("CHECKPOINT")
  } finally {
    await db.end()
  }
  const u = new URL(databaseUrl)
  const run: PairRun = {
    label: `minimal pair (pgbench, ${script})`,
    seconds: 0,
    pairs: 0,
    slices: [],
    latencies: [],
    machineBusyPercent: Number.NaN,
  }
  return {
    run,
    slice: async ({ clients, seconds }: { clients: number; seconds: number }) => {
      const argv = [
        "-h",
        u.hostname,
        "-p",
        u.port || "5432",
        "-U",
        decodeURIComponent(u.username || "postgres"),
        "-n",
        "-M",
        "prepared",
        "-c",
        String(clients),
        "-j",
        "2",
        "-T",
        String(Math.max(1, Math.round(seconds))),
        "-f",
        file,
        database,
      ]
      const m0 = machineTicks()
      const out = await new Promise<string>((resolve, reject) => {
        const child = spawn(pgbench, argv, {
          env: { ...process.env, ...(u.password ? { PGPASSWORD: decodeURIComponent(u.password) } : {}) },
          stdio: ["ignore", "pipe", "pipe"],
        })
        let text = ""
        child.stdout.on("data", (c: Buffer) => text += c.toString("utf8"))
        child.stderr.on("data", (c: Buffer) => text += c.toString("utf8"))
        child.on("error", reject)
        child.on("exit", (code) => code === 0 ? resolve(text) : reject(new Error(`pgbench exited ${code}:\n${text}`)))
      })
      const m1 = machineTicks()
      const tps = Number(/^tps = ([\d.]+)/m.exec(out)?.[1])
      const processed = Number(/number of transactions actually processed: (\d+)/.exec(out)?.[1])
      const latency = Number(/latency average = ([\d.]+) ms/.exec(out)?.[1])
      if (!Number.isFinite(tps) || !Number.isFinite(processed)) throw new Error(`pgbench: no tps in\n${out}`)
      const elapsed = processed / tps
      const busy = busyPercent(m0, m1)
      run.machineBusyPercent = Number.isNaN(run.machineBusyPercent)
        ? busy
        : (run.machineBusyPercent * run.seconds + busy * elapsed) / (run.seconds + elapsed)
      run.seconds += elapsed
      run.pairs += processed
      run.slices.push(tps)
      run.latencies.push(latency)
    },
  }
}
