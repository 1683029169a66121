/**
 * HTTP throughput of each host against its runtime's bare server (`npm run bench -- http [node|deno|bun…]`;
 * `bun-serve`: the Bun host on Bun.serve, `BUN_SERVER=serve`, not run unless named).
 *
 * For each host: the bare server (bench/bare/<host>.ts, a fixed JSON) and the platform host with
 * STORE=memory, both measured by wrk with the same request: `GET /v1/verify/<random unknown uuid>`
 * with a valid live key, which runs the rate limit, key, scope, account state and the lookup and
 * answers 404 not_found. The per-key rate limit is 120 a minute, so the request rotates over many keys
 * created through the console (bench/verify-get.lua). Prints requests/s, p50, p99, the status mix and
 * the ratio to bare. A benchmark prints figures; nothing here asserts on timing.
 *
 * The default Bun host runs on Bun's node:http, not Bun.serve (docs/decisions.md): its row adds a second
 * bare server, bench/bare/node.mjs run by Bun, and the platform's ratio to that one ("platform / node:http"),
 * so that the server's own cost and the platform's show apart.
 *
 * The bare server and the platform host of a runtime run side by side and are measured in alternating
 * slices, so that whatever else the machine does weighs on both alike.
 *
 * Settings (env): LOG_LEVEL (none: the hosts' logs off; info: a JSON line a request), BENCH_THREADS (2),
 * BENCH_CONNECTIONS (50), BENCH_DURATION (12s, measured per server, split into BENCH_ROUNDS slices, default 3),
 * BENCH_WARMUP (3s), BENCH_KEYS (enough for the expected request count, at least 2,000), BENCH_PLATFORM_ENV
 * (settings of the platform host, space-separated `NAME=value`: `METRICS=prometheus
 * OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318` measures telemetry on).
 */
import { execFileSync, spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type HostName, hostNames, root, spawnReady, startHost } from "../test/hosts/host-process.ts"

const threads = Number(process.env.BENCH_THREADS ?? 2)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const duration = process.env.BENCH_DURATION ?? "12s"
const warmup = process.env.BENCH_WARMUP ?? "3s"
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3))
const consoleToken = "console-bench-token"
/** The hosts' logs: off unless LOG_LEVEL names a level (`LOG_LEVEL=info`: a JSON line a request, docs/performance.md). */
const logLevel = process.env.LOG_LEVEL ?? "none"
const script = join(root, "bench", "verify-get.lua")
const platformEnv: Record<string, string> = Object.fromEntries(
  (process.env.BENCH_PLATFORM_ENV ?? "").split(/\s+/).filter((w) => w.includes("=")).map((w) => {
    const at = w.indexOf("=")
    return [w.slice(0, at), w.slice(at + 1)]
  }),
)

const seconds = (d: string) => {
  const m = /^(\d+(?:\.\d+)?)(s|m)?$/.exec(d)
  if (!m) throw new Error(`bad duration ${d}`)
  return Number(m[1]) * (m[2] === "m" ? 60 : 1)
}

const ensureWrk = () => {
  if (spawnSync("wrk", ["-v"], { stdio: "ignore" }).error === undefined) return
  if (process.getuid?.() === 0 && spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status === 0) {
    console.log("wrk is missing: installing it (apt-get install -y wrk)")
    const r = spawnSync("sh", ["-c", "apt-get install -y wrk || (apt-get update && apt-get install -y wrk)"], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    })
    if (r.status === 0) return
  }
  console.error(
    "wrk is not installed. Install it, e.g. `sudo apt-get install -y wrk` (Debian/Ubuntu) or `brew install wrk`.",
  )
  process.exit(1)
}

interface WrkResult {
  readonly requests: number
  readonly duration_us: number
  readonly p50_us: number
  readonly p90_us: number
  readonly p99_us: number
  readonly max_us: number
  readonly s2xx: number
  readonly s401: number
  readonly s404: number
  readonly s429: number
  readonly other: number
  readonly not_found: number
  readonly errors: { connect: number; read: number; write: number; timeout: number }
}

/** CPU seconds the process used so far (all its threads), from /proc; undefined elsewhere. */
const clockTicks = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100
  } catch {
    return 100
  }
})()
const cpuSeconds = (pid: number | undefined): number | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) / clockTicks
  } catch {
    return undefined
  }
}

interface Measured extends WrkResult {
  /** Server CPU microseconds a request (user + system, all threads), when /proc tells. */
  readonly cpu_us?: number
}

/** wrk against `url` while watching the server process's CPU time. */
const measure = (pid: number | undefined, url: string, keysFile: string, d: string): Measured => {
  const before = cpuSeconds(pid)
  const r = wrk(url, keysFile, d)
  const after = cpuSeconds(pid)
  return before === undefined || after === undefined || r.requests === 0
    ? r
    : { ...r, cpu_us: ((after - before) * 1e6) / r.requests }
}

const wrk = (url: string, keysFile: string, d: string): WrkResult => {
  const out = execFileSync(
    "wrk",
    [
      `-t${threads}`,
      `-c${connections}`,
      `-d${d}`,
      "--timeout",
      "5s",
      "-s",
      script,
      url,
      "--",
      keysFile,
      String(threads),
    ],
    { encoding: "utf8", maxBuffer: 16 << 20 },
  )
  const line = out.split("\n").find((l) => l.startsWith("BENCH "))
  if (!line) throw new Error(`no BENCH line from wrk:\n${out}`)
  return JSON.parse(line.slice(6)) as WrkResult
}

const rps = (r: WrkResult) => r.requests / (r.duration_us / 1e6)
const ms = (us: number) => (us / 1000).toFixed(2)
const mix = (r: WrkResult) => {
  const parts = [
    r.not_found ? `404 not_found ${r.not_found}` : "",
    r.s404 - r.not_found ? `404 other ${r.s404 - r.not_found}` : "",
    r.s2xx ? `2xx ${r.s2xx}` : "",
    r.s401 ? `401 ${r.s401}` : "",
    r.s429 ? `429 ${r.s429}` : "",
    r.other ? `other ${r.other}` : "",
  ].filter((s) => s !== "")
  const e = r.errors
  const errors = e.connect + e.read + e.write + e.timeout
  return parts.join(", ") + (errors ? `; socket errors ${JSON.stringify(e)}` : "")
}

const post = async (url: string, body: unknown) => {
  const res = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${consoleToken}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  })
  const json = (await res.json()) as any
  if (res.status !== 201) throw new Error(`POST ${url} -> ${res.status} ${JSON.stringify(json)}`)
  return json.data
}

/** Live keys on the demo application, created through the console, 32 at a time. */
const createKeys = async (baseUrl: string, application: string, n: number): Promise<Array<string>> => {
  const keys: Array<string> = []
  let next = 0
  const worker = async () => {
    while (next < n) {
      next++
      keys.push((await post(`${baseUrl}/console/v1/applications/${application}/keys`, { mode: "live" })).key)
    }
  }
  await Promise.all(Array.from({ length: 32 }, worker))
  return keys
}

interface Row {
  readonly host: Target
  /** The runtime's bare server (Node's node:http, Deno.serve, Bun.serve): the ratio the targets are read on. */
  readonly bare: Measured
  /**
   * The default Bun host runs on Bun's node:http (docs/decisions.md): its own server's bare figure, measured
   * in the same alternating slices, shows what of its ratio to Bun.serve is the server and what the platform.
   */
  readonly ownBare?: Measured
  readonly platform: Measured
}

interface Server {
  readonly pid: number | undefined
  readonly baseUrl: string
  readonly keysFile: string
  readonly stop: () => Promise<void>
}

/**
 * What the bench measures: a host as it runs by default, or `bun-serve`, the Bun host with
 * `BUN_SERVER=serve` (Bun.serve over the web handler instead of Bun's node:http; hosts/bun.ts).
 */
type Target = HostName | "bun-serve"
const targets: ReadonlyArray<Target> = [...hostNames, "bun-serve"]
const runtimeOf = (target: Target): HostName => target === "bun-serve" ? "bun" : target
const targetEnv = (target: Target): Record<string, string> => target === "bun-serve" ? { BUN_SERVER: "serve" } : {}

/** A bare server: each runtime's own (`bun` is Bun.serve), or `bun-node-http`, bench/bare/node.mjs run by Bun. */
type Bare = HostName | "bun-node-http"

const startBare = async (host: Bare, dir: string): Promise<Server> => {
  const bun = join(root, "node_modules/.bin/bun")
  const cmd = host === "node" ? { command: process.execPath, args: ["bench/bare/node.mjs"] } : host === "deno"
    ? {
      command: join(root, "node_modules/.bin/deno"),
      args: ["run", "--allow-net", "--allow-env", "bench/bare/deno.ts"],
    }
    : host === "bun-node-http"
    ? { command: bun, args: ["run", "bench/bare/node.mjs"] }
    : { command: bun, args: ["run", "bench/bare/bun.ts"] }
  const p = await spawnReady(`bare ${host}`, cmd.command, cmd.args, {}, /^listening on /m, 60_000)
  const keysFile = join(dir, `bare-${host}-keys.txt`)
  writeFileSync(keysFile, "svc_live_bare\n")
  return { pid: p.child.pid, baseUrl: p.baseUrl, keysFile, stop: async () => void (await p.stop()) }
}

const startPlatform = async (host: Target, dir: string, expected: number): Promise<Server> => {
  // Node as `npm start` runs it: the built dist/ with the start script's flags (tsx would turn on source-mapped stack
  // traces).
  const p = await startHost(
    runtimeOf(host),
    {
      STORE: "memory",
      CONSOLE_TOKEN: consoleToken,
      CLOCK: "system",
      LOG_LEVEL: logLevel,
      ...targetEnv(host),
      ...platformEnv,
    },
  )
  const stop = async () => {
    const code = await p.stop()
    if (code !== 0) console.log(`  ${host}: exited ${code}`)
  }
  try {
    const { demoApplication, demoLiveKey } = p.banner
    if (!demoApplication || !demoLiveKey) throw new Error(`${host}: no demo in the banner\n${p.output()}`)
    // Every key meets the limit at 120 a minute: keys for the whole run (warmup and measurement) with a margin.
    const n = Number(process.env.BENCH_KEYS ?? Math.max(2_000, Math.ceil((expected * 1.5) / 120)))
    const t0 = performance.now()
    const keys = await createKeys(p.baseUrl, demoApplication, n)
    console.log(`  ${host}: ${n} keys created in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
    const keysFile = join(dir, `${host}-keys.txt`)
    writeFileSync(keysFile, keys.join("\n") + "\n")
    // The request is what the bench thinks it is: the route answers 404 not_found with a key, 401 without.
    const probe = `${p.baseUrl}/v1/verify/${crypto.randomUUID()}`
    const withKey = await fetch(probe, { headers: { authorization: `Bearer ${demoLiveKey}` } })
    const withoutKey = await fetch(probe)
    const body = (await withKey.json()) as any
    await withoutKey.text()
    if (withKey.status !== 404 || body.error !== "not_found" || withoutKey.status !== 401) {
      throw new Error(`${host}: probe answered ${withKey.status} ${JSON.stringify(body)} / ${withoutKey.status}`)
    }
    return { pid: p.child.pid, baseUrl: p.baseUrl, keysFile, stop }
  } catch (e) {
    await stop()
    throw e
  }
}

/** Slices of one server's measurement added up: requests over time; the slices' median p50, worst p99. */
const combine = (slices: ReadonlyArray<Measured>): Measured => {
  const sum = (f: (m: Measured) => number) => slices.reduce((n, m) => n + f(m), 0)
  const median = (xs: Array<number>) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  const requests = sum((m) => m.requests)
  const cpuKnown = slices.every((m) => m.cpu_us !== undefined)
  return {
    requests,
    duration_us: sum((m) => m.duration_us),
    p50_us: median(slices.map((m) => m.p50_us)),
    p90_us: median(slices.map((m) => m.p90_us)),
    p99_us: Math.max(...slices.map((m) => m.p99_us)),
    max_us: Math.max(...slices.map((m) => m.max_us)),
    s2xx: sum((m) => m.s2xx),
    s401: sum((m) => m.s401),
    s404: sum((m) => m.s404),
    s429: sum((m) => m.s429),
    other: sum((m) => m.other),
    not_found: sum((m) => m.not_found),
    errors: {
      connect: sum((m) => m.errors.connect),
      read: sum((m) => m.errors.read),
      write: sum((m) => m.errors.write),
      timeout: sum((m) => m.errors.timeout),
    },
    cpu_us: cpuKnown && requests > 0 ? sum((m) => (m.cpu_us ?? 0) * m.requests) / requests : undefined,
  }
}

/**
 * The bare server and the platform host of one runtime, both up, measured in alternating slices
 * (BENCH_ROUNDS, default 3, each a share of BENCH_DURATION), so that whatever else the machine does
 * weighs on both alike.
 */
const measureHost = async (host: Target, dir: string): Promise<Row> => {
  // wrk takes whole seconds.
  const slice = `${Math.max(1, Math.round(seconds(duration) / rounds))}s`
  const bare = await startBare(runtimeOf(host), dir)
  const ownBare = host === "bun" ? await startBare("bun-node-http", dir) : undefined
  try {
    // Enough keys for an upper guess of the platform's rate: half the bare server's, warm-up included.
    wrk(bare.baseUrl, bare.keysFile, warmup)
    if (ownBare) wrk(ownBare.baseUrl, ownBare.keysFile, warmup)
    const guess = rps(wrk(bare.baseUrl, bare.keysFile, "1s")) / 2
    const platform = await startPlatform(host, dir, guess * (seconds(duration) + seconds(warmup)))
    try {
      wrk(platform.baseUrl, platform.keysFile, warmup)
      const slices = { bare: [] as Array<Measured>, ownBare: [] as Array<Measured>, platform: [] as Array<Measured> }
      for (let r = 0; r < rounds; r++) {
        slices.bare.push(measure(bare.pid, bare.baseUrl, bare.keysFile, slice))
        if (ownBare) slices.ownBare.push(measure(ownBare.pid, ownBare.baseUrl, ownBare.keysFile, slice))
        slices.platform.push(measure(platform.pid, platform.baseUrl, platform.keysFile, slice))
        const [b, o, p] = [slices.bare[r], slices.ownBare[r], slices.platform[r]]
        console.log(
          `  round ${r + 1}/${rounds}: bare ${rps(b).toFixed(0)} req/s, ` +
            (o ? `bare node:http ${rps(o).toFixed(0)} req/s, ` : "") + `platform ${rps(p).toFixed(0)} req/s`,
        )
      }
      return {
        host,
        bare: combine(slices.bare),
        ...(ownBare ? { ownBare: combine(slices.ownBare) } : {}),
        platform: combine(slices.platform),
      }
    } finally {
      await platform.stop()
    }
  } finally {
    await ownBare?.stop()
    await bare.stop()
  }
}

const main = async () => {
  ensureWrk()
  const wanted = process.argv.slice(2).filter((a) => (targets as ReadonlyArray<string>).includes(a)) as Array<Target>
  const hosts = wanted.length > 0 ? wanted : hostNames
  if (hosts.includes("node")) {
    execFileSync(process.execPath, ["scripts/ensure-built.mjs"], { cwd: root, stdio: "inherit" })
  }
  const dir = mkdtempSync(join(tmpdir(), "bench-http-"))
  console.log(
    `bench http: wrk -t${threads} -c${connections} -d${duration} per server in ${rounds} alternating slices ` +
      `(after a ${warmup} warmup), ` +
      `GET /v1/verify/<random uuid> with rotating live keys; STORE=memory, LOG_LEVEL=${logLevel}`,
  )
  const rows: Array<Row> = []
  try {
    for (const host of hosts) {
      console.log(`${host}: bare server and platform host, alternating`)
      const row = await measureHost(host, dir)
      console.log(`  ${host}: bare ${rps(row.bare).toFixed(0)} req/s (${mix(row.bare)})`)
      if (row.ownBare) {
        console.log(`  ${host}: bare node:http ${rps(row.ownBare).toFixed(0)} req/s (${mix(row.ownBare)})`)
      }
      console.log(`  ${host}: platform ${rps(row.platform).toFixed(0)} req/s (${mix(row.platform)})`)
      if (row.platform.s429 > 0 || row.platform.not_found !== row.platform.requests) {
        console.log(`  WARNING: not every answer was 404 not_found; the figure is not the measured path`)
      }
      rows.push(row)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }

  console.log("")
  const header = ["host", "server", "requests/s", "p50 ms", "p99 ms", "ratio to bare", "server CPU µs/req", "answers"]
  const table: Array<Array<string>> = [header]
  const cpu = (m: Measured) => (m.cpu_us === undefined ? "-" : m.cpu_us.toFixed(0))
  const line = (host: Target, server: string, m: Measured, ratio: number) => [
    host,
    server,
    rps(m).toFixed(0),
    ms(m.p50_us),
    ms(m.p99_us),
    ratio.toFixed(2),
    cpu(m),
    mix(m),
  ]
  for (const r of rows) {
    table.push(line(r.host, "bare", r.bare, 1))
    if (r.ownBare) table.push(line(r.host, "bare node:http", r.ownBare, rps(r.ownBare) / rps(r.bare)))
    table.push(line(r.host, "platform", r.platform, rps(r.platform) / rps(r.bare)))
    if (r.ownBare) table.push(line(r.host, "platform / node:http", r.platform, rps(r.platform) / rps(r.ownBare)))
  }
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i].length)))
  for (const row of table) {
    console.log(
      row.map((c, i) => (i >= 2 && i <= 6 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join("  ").trimEnd(),
    )
  }
  console.log("")
  const low = rows.filter((r) => rps(r.platform) / rps(r.bare) < 0.4)
  console.log(
    low.length === 0
      ? "every host at ratio >= 0.4 (target 0.4, goal 0.6)"
      : `below 0.4: ${low.map((r) => r.host).join(", ")}`,
  )
}

await main()
