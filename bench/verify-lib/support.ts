/**
 * Shared pieces of the Verify benchmark: argument parsing, a keep-alive HTTP client, percentiles,
 * process and machine CPU readings from /proc, one measured slice, the fresh PostgreSQL schema, the
 * host process.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import http from "node:http"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { npmStartFlags } from "../../test/hosts/host-process.ts"
import { freePort } from "../../test/support/net.ts"
import { createSchema, dropSchema, withSearchPath } from "../../test/support/pg.ts"

export const root = fileURLToPath(new URL("../..", import.meta.url))

// ---------------------------------------------------------------------------------------------------------------
// Arguments

export interface Args {
  /** `memory`: the host on its memory store, no ceiling: what HTTP and the core cost without SQL. */
  readonly store: "pglite" | "postgres" | "both" | "memory"
  readonly clients: number
  readonly seconds: number
  readonly warmup: number
  readonly rounds: number
  readonly keys: number
  readonly databaseUrl: string
  readonly statements: boolean
  readonly ceiling: boolean
  readonly project: boolean
  readonly profile: string | undefined
  /**
   * Applications the project's clients are spread over, one run each, in alternating slices: `[1, 16]`
   * compares one application with sixteen of the same account. Undefined: `[1, 16]` on PostgreSQL, `[1]`
   * on PGlite and memory.
   */
  readonly applications: ReadonlyArray<number> | undefined
  /** Run the minimal pair (pgbench) beside the project on PostgreSQL. */
  readonly pair: boolean
  /** Verifications run one at a time for the pg_stat_wal cross-check (0: none). */
  readonly serial: number
}

export const parseArgs = (argv: ReadonlyArray<string>): Args => {
  const named = new Map<string, string>()
  const flags = new Set<string>()
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (!a.startsWith("--")) continue
    const [k, inline] = a.slice(2).split("=", 2)
    if (inline !== undefined) named.set(k, inline)
    else if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) named.set(k, argv[++i])
    else flags.add(k)
  }
  const int = (k: string, d: number) => {
    const v = named.get(k)
    if (v === undefined) return d
    const n = Number(v)
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${k} must be a positive number`)
    return n
  }
  const applications = named.get("applications")
  if (applications !== undefined && applications !== "both" && !/^[1-9]\d*$/.test(applications)) {
    throw new Error("--applications 1|16|both (or any number of applications)")
  }
  const serial = named.get("serial") === "0" ? 0 : Math.floor(int("serial", 100))
  const store = named.get("store") ?? "both"
  if (store !== "pglite" && store !== "postgres" && store !== "both" && store !== "memory") {
    throw new Error("--store pglite|postgres|both|memory")
  }
  return {
    store,
    clients: Math.floor(int("clients", 16)),
    seconds: int("seconds", 15),
    warmup: int("warmup", 2),
    rounds: Math.floor(int("rounds", 3)),
    keys: Math.floor(int("keys", 500)),
    databaseUrl: named.get("database-url") ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
    statements: flags.has("statements"),
    ceiling: !flags.has("no-ceiling"),
    project: !flags.has("no-project"),
    profile: named.get("cpu-prof-dir"),
    applications: applications === undefined ? undefined : applications === "both" ? [1, 16] : [Number(applications)],
    pair: !flags.has("no-pair"),
    serial,
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Figures

/** Latencies in milliseconds, kept whole so percentiles are exact. */
export class Latencies {
  private values: Array<number> = []
  add(ms: number) {
    this.values.push(ms)
  }
  get count() {
    return this.values.length
  }
  percentile(p: number): number {
    if (this.values.length === 0) return Number.NaN
    const sorted = Float64Array.from(this.values).sort()
    return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
  }
  reset() {
    this.values = []
  }
}

/** A counter of answers by status, e.g. `200: 12034`. */
export class StatusMix {
  readonly counts = new Map<string, number>()
  add(status: number | string) {
    const k = String(status)
    this.counts.set(k, (this.counts.get(k) ?? 0) + 1)
  }
  reset() {
    this.counts.clear()
  }
  toString() {
    return [...this.counts.entries()].sort().map(([k, v]) => `${k}: ${v}`).join(", ") || "-"
  }
}

export const fmt = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits }) : "-"

export const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(n < 10 ? 2 : 1)} ms` : "-")

// ---------------------------------------------------------------------------------------------------------------
// /proc readings (Linux)

const clockTick = 100

/** CPU seconds (user + system) a process has used so far. */
export const processCpuSeconds = (pid: number): number => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) / clockTick
  } catch {
    return Number.NaN
  }
}

/** A line of /proc/<pid>/status in kB (VmHWM is the peak resident set). */
export const statusKb = (pid: number, field: "VmHWM" | "VmRSS"): number => {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return m ? Number(m[1]) : Number.NaN
  } catch {
    return Number.NaN
  }
}

/** Busy and total jiffies of the whole machine. */
export const machineTicks = (): { busy: number; total: number } => {
  try {
    const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number)
    const total = cpu.reduce((a, b) => a + b, 0)
    const idle = cpu[3] + (cpu[4] ?? 0)
    return { busy: total - idle, total }
  } catch {
    return { busy: Number.NaN, total: Number.NaN }
  }
}

/** Machine busy share between two readings, in percent of all cores. */
export const busyPercent = (a: ReturnType<typeof machineTicks>, b: ReturnType<typeof machineTicks>) =>
  (100 * (b.busy - a.busy)) / (b.total - a.total)

/** CPU seconds (user + system) this process has used so far. */
export const ownCpuSeconds = (): number => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}

// ---------------------------------------------------------------------------------------------------------------
// One measured slice

export interface SliceOptions {
  readonly clients: number
  /** Seconds the clients run before the measured part. */
  readonly warmup: number
  /** Seconds measured. */
  readonly seconds: number
  /** A CPU reading of the database's server processes (PostgreSQL only). */
  readonly dbCpu?: () => Promise<Map<number, number>>
}

/** What the clients of a slice read (`measuring`, `stopping`) and count (`verifications`, while measuring). */
export interface Slice {
  measuring: boolean
  stopping: boolean
  verifications: number
}

/** The figures of a run that each measured slice adds to. */
export interface SliceFigures {
  seconds: number
  verifications: number
  /** Verifications per second of each slice. */
  readonly slices: Array<number>
  /** CPU of the PostgreSQL server processes serving the run (NaN on PGlite). */
  dbCpuSeconds: number
  machineBusyPercent: number
}

/**
 * Runs `opts.clients` copies of `client` through the warm-up and the measured part, then stops them and
 * waits for them; adds the measured part's figures to `run`. Each of `cpu` (CPU seconds used so far) is
 * read at both ends of the measured part; answers what each used in between.
 */
export const measureSlice = async (
  opts: SliceOptions,
  client: (slice: Slice) => Promise<void>,
  run: SliceFigures,
  cpu: ReadonlyArray<() => number>,
): Promise<Array<number>> => {
  const slice: Slice = { measuring: false, stopping: false, verifications: 0 }
  const loops = Array.from({ length: opts.clients }, () => client(slice))
  await sleep(opts.warmup * 1000)
  const db0 = await opts.dbCpu?.()
  slice.measuring = true
  const cpu0 = cpu.map((read) => read())
  const m0 = machineTicks()
  const t0 = performance.now()
  await sleep(opts.seconds * 1000)
  slice.measuring = false
  const elapsed = (performance.now() - t0) / 1000
  const cpu1 = cpu.map((read) => read())
  const m1 = machineTicks()
  const db1 = await opts.dbCpu?.()
  slice.stopping = true
  await Promise.all(loops)
  if (db0 && db1) run.dbCpuSeconds = (Number.isNaN(run.dbCpuSeconds) ? 0 : run.dbCpuSeconds) + cpuDelta(db0, db1)
  const busy = busyPercent(m0, m1)
  run.machineBusyPercent = Number.isNaN(run.machineBusyPercent)
    ? busy
    : (run.machineBusyPercent * run.seconds + busy * elapsed) / (run.seconds + elapsed)
  run.seconds += elapsed
  run.verifications += slice.verifications
  run.slices.push(slice.verifications / elapsed)
  return cpu1.map((t, i) => t - cpu0[i])
}

// ---------------------------------------------------------------------------------------------------------------
// PostgreSQL: a fresh schema per run

/** `url` on `schema`, its connections named after it (so their server processes can be found). */
const onSchema = (url: string, schema: string): string => {
  const u = new URL(withSearchPath(url, schema))
  u.searchParams.set("application_name", schema)
  return u.toString()
}

/**
 * The PostgreSQL server processes of the connections named `applicationName` (same machine), so their
 * CPU can be read from /proc. Answers none when the server is elsewhere or unreadable.
 */
export const backendPids = async (url: string, applicationName: string): Promise<Array<number>> => {
  const c = new pg.Client({ connectionString: url })
  try {
    await c.connect()
    const { rows } = await c.query(`SELECT pid FROM pg_stat_activity WHERE application_name = $1`, [applicationName])
    return rows.map((r) => Number(r.pid))
  } catch {
    return []
  } finally {
    await c.end().catch(() => {})
  }
}

/** CPU seconds of a set of processes; a process gone by the second reading counts as 0 then. */
export const cpuOf = (pids: ReadonlyArray<number>): Map<number, number> =>
  new Map(pids.map((pid) => [pid, processCpuSeconds(pid)]))

/** CPU used between two readings (a process first seen in `after` counts from zero). */
export const cpuDelta = (before: Map<number, number>, after: Map<number, number>): number => {
  let sum = 0
  for (const [pid, t] of after) {
    if (!Number.isFinite(t)) continue
    const t0 = before.get(pid)
    sum += t - (t0 !== undefined && Number.isFinite(t0) ? t0 : 0)
  }
  return sum
}

export interface FreshSchema {
  /** The url on the schema; its connections carry the schema's name as `application_name`. */
  readonly url: string
  readonly schema: string
  /** CPU seconds the server processes of this schema's connections have used (a reading). */
  readonly backendCpu: () => Promise<Map<number, number>>
  readonly drop: () => Promise<void>
}

export const freshSchema = async (url: string, prefix: string): Promise<FreshSchema> => {
  const schema = `${prefix}_${randomBytes(6).toString("hex")}`
  await createSchema(url, schema)
  return {
    url: onSchema(url, schema),
    schema,
    backendCpu: async () => cpuOf(await backendPids(url, schema)),
    drop: () => dropSchema(url, schema),
  }
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP

export interface Answer {
  readonly status: number
  readonly body: string
}

export const makeHttp = (baseUrl: string, sockets: number) => {
  const u = new URL(baseUrl)
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets })
  const request = (method: string, path: string, token: string, body?: unknown): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body)
      const headers: Record<string, string | number> = { authorization: `Bearer ${token}` }
      if (payload !== undefined) {
        headers["content-type"] = "application/json"
        headers["content-length"] = Buffer.byteLength(payload)
      }
      const req = http.request({ host: u.hostname, port: u.port, method, path, headers, agent }, (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (c: Buffer) => chunks.push(c))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }))
        res.on("error", reject)
      })
      req.on("error", reject)
      req.end(payload)
    })
  return { request, close: () => agent.destroy() }
}

// ---------------------------------------------------------------------------------------------------------------
// The host process

/**
 * The node flags of `npm start` (package.json's `start` script) in the checkout at `dir` (this one by default), for a
 * host measured as it runs there (bench/chat.ts, bench/footprint.ts, bench/startup.ts); the tests run the Node host so.
 */
export { npmStartFlags }

/** `startHost`'s `built`: the host as `npm start` runs it, built first when a source is newer (scripts/ensure-built.mjs). */
export const asNpmStart = (): { readonly nodeFlags: ReadonlyArray<string> } => {
  execFileSync(process.execPath, ["scripts/ensure-built.mjs"], { cwd: root, stdio: "inherit" })
  return { nodeFlags: npmStartFlags() }
}

export interface Host {
  readonly baseUrl: string
  readonly pid: number
  readonly consoleToken: string
  /** Lines the host wrote to stderr (the statement trace, errors). */
  readonly stderr: Array<string>
  readonly stop: () => Promise<void>
}

/**
 * Starts `hosts/node.ts` as its own process: `node --import tsx hosts/node.ts`, which is what
 * `npx tsx hosts/node.ts` runs, but with the host itself as the child so /proc/<pid> is the server's.
 * With `built`, the built host instead, as `npm start` runs it: `node <flags> dist/hosts/node.js`.
 */
export const startHost = async (
  env: Record<string, string>,
  opts: { trace?: boolean; cpuProfDir?: string; built?: { readonly nodeFlags: ReadonlyArray<string> } } = {},
): Promise<Host> => {
  const port = await freePort()
  const consoleToken = `console_bench_${randomBytes(12).toString("hex")}`
  const nodeArgs = opts.built ? [...opts.built.nodeFlags] : ["--import", "tsx"]
  if (opts.trace) nodeArgs.push("--import", "./bench/verify-lib/trace.ts")
  if (opts.cpuProfDir) nodeArgs.push("--cpu-prof", "--cpu-prof-dir", opts.cpuProfDir)
  const entry = opts.built ? "dist/hosts/node.js" : "hosts/node.ts"
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, entry], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      SMS_PROVIDER: "simulator",
      CONSOLE_TOKEN: consoleToken,
      CLOCK: "system",
      STORE: "sql",
      DATABASE_URL: "",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  })
  const stderr: Array<string> = []
  let pending = ""
  child.stderr!.on("data", (c: Buffer) => {
    pending += c.toString("utf8")
    const lines = pending.split("\n")
    pending = lines.pop()!
    stderr.push(...lines)
  })
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  await new Promise<void>((resolve, reject) => {
    let out = ""
    const onData = (c: Buffer) => {
      out += c.toString("utf8")
      if (out.includes("listening on")) {
        child.stdout!.off("data", onData)
        child.stdout!.resume()
        resolve()
      }
    }
    child.stdout!.on("data", onData)
    void exited.then((code) => reject(new Error(`host exited (${code}) before listening:\n${stderr.join("\n")}`)))
  })
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    consoleToken,
    stderr,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM")
      const timer = setTimeout(() => child.exitCode === null && child.kill("SIGKILL"), 10_000)
      await exited
      clearTimeout(timer)
    },
  }
}

export const sleep = (msecs: number) => new Promise((r) => setTimeout(r, msecs))

/** `+96655` and seven digits: distinct Saudi mobiles, never the simulator's refused number. */
export const destination = (n: number) => `+96655${String(n % 10_000_000).padStart(7, "0")}`

/** The code in a simulated SMS text: its one standalone run of digits. */
export const codeIn = (text: string): string => /\b\d{4,8}\b/.exec(text)![0]
