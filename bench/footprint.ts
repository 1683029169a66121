/**
 * Issue 13's embedded-footprint benchmark: the Node host's memory and the store's size on disk over many
 * verifications. Prints figures; asserts nothing about timing.
 *
 *   npx tsx bench/footprint.ts [--store pglite|postgres|both|memory] [--verifications N] [--every N] [--clients C]
 *                              [--keys K] [--database-url URL] [--pglite-dir DIR] [--node-flags "FLAGS"]
 *                              [--source]
 *   (also `npm run bench -- footprint ...`)
 *
 * Defaults: PGlite, 50,000 verifications, a row every 10,000, 16 clients, 500 keys; PostgreSQL at
 * $DATABASE_URL or postgres://postgres@127.0.0.1:5432/test in a fresh schema (dropped at the end). `--store
 * memory` runs the host on its memory store (nothing on disk): what the host itself holds, for comparison.
 *
 * The Node host runs as its own process as `npm start` runs it: the build (dist/hosts/node.js, rebuilt first by
 * scripts/ensure-built.mjs when a source is newer) with the node flags of package.json's `start` script
 * (`--node-flags "..."` replaces them, `--node-flags ""` runs with none). `--source` runs the TypeScript
 * source instead (`node --import tsx hosts/node.ts`, bench/verify-lib's `startHost`, without the flags: Node
 * refuses some of them in NODE_OPTIONS); tsx's loader and the untranspiled modules cost that host about 130 MB
 * more (the memory store's host at rest: 285 MB from source, 155 MB built). Either way the host runs
 * with the SMS simulator: on PGlite with a real data directory (a fresh temporary one, removed at the end,
 * unless --pglite-dir names one, which is kept), or on PostgreSQL. The console sets up one application with
 * many keys (bench/verify-lib's `setupThroughConsole`); each client loops start → the simulator's SMS log →
 * check, which must answer `verified`. Every `--every` verifications it prints:
 * - the host's resident set (VmRSS of /proc/<pid>/status) and its peak so far (VmHWM);
 * - the host's JavaScript heap (used / total) and its external memory (PGlite's WebAssembly memory counts
 *   there in full, 134 MB, though only the pages it touched are resident: about 30 MB), from the host's own
 *   `process.memoryUsage()`: the host runs with `MEMORY_LOG_MS` and prints it on stderr every second; the row
 *   shows the latest line;
 * - the store on disk: PGlite, the data directory as `du` counts it (allocated blocks), and its WAL
 *   (pg_wal) apart; PostgreSQL, the schema's relations (pg_total_relation_size: tables, indexes, TOAST),
 *   since the database is shared with other schemas, and the server's WAL directory (pg_ls_waldir), which is
 *   server-wide;
 * - what the store grew by since the previous row (bytes on disk per `--every` verifications);
 * - verifications per second since the previous row, and the host's CPU time (user + system, /proc/<pid>/stat)
 *   per verification over the same span: on a shared machine the rate follows the load, the CPU time much less.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { setupThroughConsole } from "./verify-lib/project.ts"
import {
  codeIn,
  destination,
  fmt,
  freshSchema,
  type Host,
  makeHttp,
  npmStartFlags,
  root,
  startHost,
  statusKb,
  StatusMix,
} from "./verify-lib/support.ts"

type Store = "pglite" | "postgres" | "memory"

const argv = process.argv.slice(2)
const arg = (name: string): string | undefined => {
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`))
  if (i < 0) return undefined
  return argv[i].includes("=") ? argv[i].slice(argv[i].indexOf("=") + 1) : argv[i + 1]
}
const positive = (name: string, fallback: number): number => {
  const v = arg(name)
  if (v === undefined) return fallback
  const n = Number(v.replaceAll("_", ""))
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive integer`)
  return n
}
const storeArg = arg("store") ?? "pglite"
if (storeArg !== "pglite" && storeArg !== "postgres" && storeArg !== "both" && storeArg !== "memory") {
  throw new Error("--store pglite|postgres|both|memory")
}
const stores: ReadonlyArray<Store> = storeArg === "both" ? ["pglite", "postgres"] : [storeArg]
const verifications = positive("verifications", 50_000)
const every = positive("every", 10_000)
const clients = positive("clients", 16)
const keys = positive("keys", 500)
const databaseUrl = arg("database-url") ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"
const pgliteDir = arg("pglite-dir")
/** The node flags of `npm start` (package.json), for the host to be measured as it runs there. */
const nodeFlags = arg("node-flags") ?? npmStartFlags().join(" ")
const fromSource = argv.includes("--source")

const log = (line = "") => process.stdout.write(`${line}\n`)
const mb = (bytes: number) => `${fmt(bytes / 1e6, 1)} MB`

// ---------------------------------------------------------------------------------------------------------------
// The store on disk

interface Disk {
  /** Bytes the store takes on disk. */
  readonly total: number
  /** Bytes of write-ahead log (server-wide on PostgreSQL). */
  readonly wal: number
  readonly walSegments: number
}

/** Allocated bytes under `path`, as `du` counts them (each inode once). */
const duBytes = (path: string, seen = new Set<number>()): number => {
  const st = statSync(path, { bigint: false })
  if (seen.has(st.ino)) return 0
  seen.add(st.ino)
  let sum = st.blocks * 512
  if (st.isDirectory()) { for (const name of readdirSync(path)) sum += duBytes(join(path, name), seen) }
  return sum
}

const pgliteDisk = (dir: string) => (): Promise<Disk> => {
  const walDir = join(dir, "pg_wal")
  const segments = readdirSync(walDir).filter((f) => /^[0-9A-F]{24}$/.test(f))
  return Promise.resolve({ total: duBytes(dir), wal: duBytes(walDir), walSegments: segments.length })
}

const postgresDisk = (client: pg.Client, schema: string) => async (): Promise<Disk> => {
  const rel = await client.query(
    `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS bytes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'm')`,
    [schema],
  )
  const wal = await client.query(
    `SELECT count(*)::int AS n, coalesce(sum(size), 0)::bigint AS bytes FROM pg_ls_waldir()`,
  )
  return { total: Number(rel.rows[0].bytes), wal: Number(wal.rows[0].bytes), walSegments: wal.rows[0].n }
}

// ---------------------------------------------------------------------------------------------------------------
// One store

interface Row {
  readonly verifications: number
  readonly seconds: number
  readonly rssKb: number
  readonly hwmKb: number
  readonly cpuMs: number
  readonly memory: Memory | undefined
  readonly disk: Disk
}

/** The host's CPU time so far (user + system), in milliseconds, from /proc/<pid>/stat. */
const cpuMs = (pid: number): number => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command's closing parenthesis.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
  } catch {
    return Number.NaN
  }
}

/** The host's latest `process.memoryUsage()` (hosts/node.ts prints it with MEMORY_LOG_MS), in bytes. */
interface Memory {
  readonly heapUsed: number
  readonly heapTotal: number
  readonly external: number
}

const memoryOf = (stderr: ReadonlyArray<string>): Memory | undefined => {
  for (let i = stderr.length - 1; i >= 0; i--) {
    if (!stderr[i].startsWith("memory ")) continue
    const field = (name: string) => Number(new RegExp(`\\b${name}=(\\d+)`).exec(stderr[i])?.[1] ?? Number.NaN)
    return { heapUsed: field("heapUsed"), heapTotal: field("heapTotal"), external: field("external") }
  }
  return undefined
}

const header =
  `| verifications | host RSS | peak RSS | JS heap used / total | external | on disk | WAL (segments) | disk growth | verifications/s | host CPU ms/verification |`

/** The host with its memory printed every second (MEMORY_LOG_MS, read by `memoryOf`). */
const launch = (env: Record<string, string>): Promise<Host> =>
  fromSource ? startHost({ ...env, MEMORY_LOG_MS: "1000" }) : startHost({ ...env, MEMORY_LOG_MS: "1000" }, {
    built: { nodeFlags: nodeFlags.split(/\s+/).filter((f) => f !== "") },
  })

const runStore = async (store: Store) => {
  const cleanups: Array<() => Promise<void>> = []
  try {
    let host: Host
    let disk: () => Promise<Disk>
    let where: string
    if (store === "pglite") {
      const parent = pgliteDir ?? mkdtempSync(join(tmpdir(), "footprint-"))
      if (!pgliteDir) cleanups.unshift(() => Promise.resolve(rmSync(parent, { recursive: true, force: true })))
      const dir = pgliteDir ?? join(parent, "pglite")
      host = await launch({ PGLITE_DIR: dir })
      disk = pgliteDisk(dir)
      where = `PGlite in ${dir}`
    } else if (store === "memory") {
      host = await launch({ STORE: "memory" })
      disk = () => Promise.resolve({ total: 0, wal: 0, walSegments: 0 })
      where = "the memory store (no SQL: what the host holds by itself)"
    } else {
      const fresh = await freshSchema(databaseUrl, "footprint")
      cleanups.unshift(fresh.drop)
      host = await launch({ DATABASE_URL: fresh.url })
      const admin = new pg.Client({ connectionString: databaseUrl })
      await admin.connect()
      cleanups.unshift(() => admin.end())
      disk = postgresDisk(admin, fresh.schema)
      where = `PostgreSQL, schema ${fresh.schema}`
    }
    cleanups.unshift(host.stop)
    const t = performance.now()
    const setup = await setupThroughConsole(host, keys)
    log(`\n## ${store}: ${where}; host pid ${host.pid}`)
    log(`${setup.keys.length} keys made through the console in ${((performance.now() - t) / 1000).toFixed(1)} s`)

    const rows: Array<Row> = []
    const reading = async (n: number, t0: number): Promise<Row> => ({
      verifications: n,
      seconds: (performance.now() - t0) / 1000,
      rssKb: statusKb(host.pid, "VmRSS"),
      hwmKb: statusKb(host.pid, "VmHWM"),
      cpuMs: cpuMs(host.pid),
      memory: memoryOf(host.stderr),
      disk: await disk(),
    })
    const print = (r: Row) => {
      const prev = rows.at(-2)
      const growth = prev ? r.disk.total - prev.disk.total : Number.NaN
      const perEvery = prev ? (growth * every) / (r.verifications - prev.verifications) : Number.NaN
      const rate = prev ? (r.verifications - prev.verifications) / (r.seconds - prev.seconds) : Number.NaN
      const heap = r.memory ? `${mb(r.memory.heapUsed)} / ${mb(r.memory.heapTotal)}` : "-"
      log(
        `| ${fmt(r.verifications)} | ${fmt(r.rssKb / 1024)} MB | ${fmt(r.hwmKb / 1024)} MB | ${heap} | ${
          r.memory ? mb(r.memory.external) : "-"
        } | ${mb(r.disk.total)} | ${mb(r.disk.wal)} (${r.disk.walSegments}) | ${prev ? mb(perEvery) : "-"} | ${
          prev ? fmt(rate) : "-"
        } | ${prev ? fmt((r.cpuMs - prev.cpuMs) / (r.verifications - prev.verifications), 2) : "-"} |`,
      )
    }

    log(
      `${clients} clients, ${fmt(verifications)} verifications; load average ${loadavg()[0].toFixed(1)}; host ${
        fromSource ? "from source (tsx), no node flags" : `dist/hosts/node.js, node flags "${nodeFlags}"`
      }`,
    )
    log(header)
    log(`|---|---|---|---|---|---|---|---|---|---|`)
    const t0 = performance.now()
    rows.push(await reading(0, t0))
    print(rows[0])

    const http = makeHttp(host.baseUrl, clients)
    const request = (...a: Parameters<typeof http.request>) =>
      http.request(...a).catch((e: NodeJS.ErrnoException) => ({ status: e.code ?? "network error", body: String(e) }))
    const startMix = new StatusMix()
    const checkMix = new StatusMix()
    const failures: Array<string> = []
    const fail = (what: string) => failures.length < 5 && failures.push(what)
    let started = 0
    let refused = 0
    let verified = 0
    let nextKey = 0
    let nextRow = every
    let pending: Promise<void> = Promise.resolve()
    const key = () => setup.keys[nextKey++ % setup.keys.length]

    const client = async () => {
      while (started < verifications) {
        const to = destination(started++)
        const s = await request("POST", "/v1/verify/start", key(), { to })
        startMix.add(s.status)
        if (s.status !== 200) {
          fail(`start ${s.status} ${s.body}`)
          if (++refused > 100) throw new Error(`over 100 starts refused: ${failures.join(" | ")}`)
          started--
          continue
        }
        const id = JSON.parse(s.body).id as string
        const r = await request("GET", `/console/v1/simulator/sms?to=${encodeURIComponent(to)}`, host.consoleToken)
        if (r.status !== 200) {
          fail(`read ${r.status} ${r.body}`)
          continue
        }
        const c = await request("POST", "/v1/verify/check", key(), {
          id,
          code: codeIn(JSON.parse(r.body).data[0].text),
        })
        const ok = c.status === 200 && JSON.parse(c.body).status === "verified"
        checkMix.add(ok ? "200 verified" : c.status)
        if (!ok) {
          fail(`check ${c.status} ${c.body}`)
          continue
        }
        verified++
        if (verified === nextRow) {
          nextRow += every
          const n = verified
          // Readings are taken while the other clients keep going; rows are printed in order.
          pending = pending.then(async () => {
            rows.push(await reading(n, t0))
            print(rows.at(-1)!)
          })
        }
      }
    }
    await Promise.all(Array.from({ length: clients }, client))
    await pending
    http.close()
    if (verified % every !== 0) {
      rows.push(await reading(verified, t0))
      print(rows.at(-1)!)
    }
    const first = rows[1] ?? rows[0]
    const last = rows.at(-1)!
    log(
      `\n${fmt(verified)} verified in ${fmt(last.seconds, 0)} s (${fmt(verified / last.seconds)}/s; host CPU ${
        fmt((last.cpuMs - rows[0].cpuMs) / Math.max(1, verified), 2)
      } ms a verification); start {${startMix}}; check {${checkMix}}`,
    )
    log(
      `host RSS: ${fmt(first.rssKb / 1024)} MB at the first row, ${fmt(last.rssKb / 1024)} MB at the last (${
        last.rssKb >= first.rssKb ? "+" : ""
      }${fmt((last.rssKb - first.rssKb) / 1024)} MB); peak ${fmt(last.hwmKb / 1024)} MB`,
    )
    log(
      `on disk: ${mb(rows[0].disk.total)} before, ${mb(last.disk.total)} after: ${
        mb(((last.disk.total - rows[0].disk.total) * every) / Math.max(1, verified))
      } per ${fmt(every)} verifications; WAL ${mb(last.disk.wal)} in ${last.disk.walSegments} segments${
        store === "postgres" ? " (server-wide)" : ""
      }`,
    )
    if (failures.length > 0) log(`first failures: ${failures.join(" | ")}`)
  } finally {
    for (const f of cleanups) await f().catch((e) => console.error(e))
  }
}

const main = async () => {
  if (!fromSource) execFileSync(process.execPath, ["scripts/ensure-built.mjs"], { cwd: root, stdio: "inherit" })
  log(`# Embedded footprint: ${stores.join(", ")}; ${fmt(verifications)} verifications; ${clients} clients`)
  for (const store of stores) await runStore(store)
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e)
    process.exit(1)
  },
)
