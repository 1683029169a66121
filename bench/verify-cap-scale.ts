/**
 * `npm run bench -- cap-scale`: 100,000 codes for ONE application within one simulated hour, through the
 * real Verify start use case and the real SQL store (PostgreSQL and PGlite), and the start latency of each
 * 10,000 codes. The hourly caps are rolling (DECISIONS: the sends of the last 60 minutes on the platform
 * clock), so every code of the run is inside every window the later starts look at: the target is a flat
 * latency from the first 10,000 to the last. Prints figures; asserts nothing about timing.
 *
 *   npx tsx bench/verify-cap-scale.ts [--store pglite|postgres|both] [--codes N] [--clients C] [--block B]
 *                                     [--keys K] [--ips I] [--database-url URL]
 *
 * The Node host runs as its own process (as in `npm run bench -- verify`) with `CLOCK=simulated` and the
 * SMS simulator. The console sets up one approved application of one account with a deep wallet,
 * `hourly_cap_per_destination` and `max_per_ip_per_hour` at their maximum and the guard off, and K live
 * keys. C clients send POST /v1/verify/start, each code to a new destination (no per-destination cap can
 * trip) and from one of I client addresses (`client_ip`, so the per-address count runs: 100,000 / I codes
 * an address; `--ips 0` sends none). The simulated clock moves forward between chunks of 1,000 codes (the
 * clients idle meanwhile, and the move, with any job that falls due, is not in the latencies), so the
 * codes spread over 59 simulated minutes and the rate limit (120 requests per key per minute, on the
 * platform clock) is never reached.
 *
 * Defaults: both stores, 100,000 codes, 8 clients, blocks of 10,000, 64 keys, 1,000 addresses, PostgreSQL
 * at $DATABASE_URL or postgres://postgres@127.0.0.1:5432/test (a fresh schema, dropped at the end).
 */
import { loadavg } from "node:os"
import { VerifyLimits } from "../core/limits.ts"
import { setupThroughConsole } from "./verify-lib/project.ts"
import {
  destination,
  fmt,
  freshSchema,
  Latencies,
  makeHttp,
  ms,
  processCpuSeconds,
  startHost,
  statusKb,
  StatusMix,
} from "./verify-lib/support.ts"

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i === -1 ? fallback : process.argv[i + 1]
}
const positive = (name: string, fallback: number, zero = false) => {
  const n = Number(arg(name, String(fallback)))
  if (!Number.isInteger(n) || n < (zero ? 0 : 1)) throw new Error(`--${name} must be a whole number`)
  return n
}
const storeArg = arg("store", "both")
if (!["pglite", "postgres", "both"].includes(storeArg)) throw new Error("--store pglite|postgres|both")
const stores = storeArg === "both" ? ["pglite", "postgres"] as const : [storeArg as "pglite" | "postgres"]
const codes = positive("codes", 100_000)
const clients = positive("clients", 8)
const block = positive("block", 10_000)
const keyCount = positive("keys", 64)
const ips = positive("ips", 1_000, true)
const databaseUrl = arg("database-url", process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test")
const chunk = 1_000
const spanMs = 59 * 60_000
const chunks = Math.ceil(codes / chunk)
const stepMs = chunks > 1 ? Math.floor(spanMs / (chunks - 1)) : 0

const log = (line = "") => process.stdout.write(`${line}\n`)
const ipOf = (i: number) => {
  const k = i % ips
  return `10.${(k >> 16) & 255}.${(k >> 8) & 255}.${k & 255}`
}
const mean = (xs: ReadonlyArray<number>) => xs.reduce((a, b) => a + b, 0) / xs.length

interface Block {
  readonly latencies: Latencies
  readonly values: Array<number>
  readonly mix: StatusMix
  seconds: number
  advanceSeconds: number
  hostCpu: number
}

const runStore = async (store: "pglite" | "postgres") => {
  const fresh = store === "postgres" ? await freshSchema(databaseUrl, "bench_cap") : undefined
  const host = await startHost({
    CLOCK: "simulated",
    ...(fresh ? { DATABASE_URL: fresh.url } : { PGLITE_DIR: "memory://" }),
  })
  try {
    const setup = await setupThroughConsole(host, keyCount, 1, {
      hourly_cap_per_destination: VerifyLimits.hourlyCapPerDestination.max,
      max_per_ip_per_hour: VerifyLimits.maxPerIpPerHour.max,
      guard: { enabled: false },
    })
    const keys = setup.keys
    const http = makeHttp(host.baseUrl, clients)
    const advance = async (ms: number) => {
      const res = await http.request("POST", "/console/v1/simulator/clock", host.consoleToken, { advance_ms: ms })
      if (res.status !== 200) throw new Error(`clock advance answered ${res.status}: ${res.body}`)
    }
    log(
      `\n# ${store}: ${fmt(codes)} codes for one application, ${clients} clients, the clock ${
        fmt(stepMs / 1000, 1)
      } s forward after each ${fmt(chunk)} (${fmt(((chunks - 1) * stepMs) / 60_000, 1)} simulated minutes in all); ${
        ips === 0 ? "no client_ip" : `${fmt(ips)} client addresses`
      }; host pid ${host.pid}`,
    )
    log(
      `| codes | start p50 | p95 | mean | starts/s | host CPU per start | clock moves (s) | statuses | load average |`,
    )
    log(`|---|---|---|---|---|---|---|---|---|`)
    let next = 0
    let current: Block | undefined
    const blocks: Array<Block> = []
    const openBlock = () => {
      current = {
        latencies: new Latencies(),
        values: [],
        mix: new StatusMix(),
        seconds: 0,
        advanceSeconds: 0,
        hostCpu: 0,
      }
      blocks.push(current)
    }
    const firstFailures: Array<string> = []
    for (let c = 0; c < chunks; c++) {
      if (c * chunk % block === 0) openBlock()
      const end = Math.min(codes, (c + 1) * chunk)
      const b = current!
      const cpu0 = processCpuSeconds(host.pid)
      const t0 = performance.now()
      await Promise.all(Array.from({ length: clients }, async () => {
        while (next < end) {
          const i = next++
          const body: Record<string, unknown> = { to: destination(i) }
          if (ips > 0) body.client_ip = ipOf(i)
          const a = performance.now()
          const res = await http.request("POST", "/v1/verify/start", keys[i % keys.length], body).catch((
            e: NodeJS.ErrnoException,
          ) => ({ status: e.code ?? "network error", body: String(e) }))
          const ms = performance.now() - a
          b.latencies.add(ms)
          b.values.push(ms)
          b.mix.add(res.status)
          if (res.status !== 200 && firstFailures.length < 5) firstFailures.push(`${res.status} ${res.body}`)
        }
      }))
      if ((b.mix.counts.get("200") ?? 0) === 0) {
        throw new Error(`no start of codes ${c * chunk + 1}-${end} answered 200: ${firstFailures.join(" | ")}`)
      }
      b.seconds += (performance.now() - t0) / 1000
      b.hostCpu += processCpuSeconds(host.pid) - cpu0
      if (c < chunks - 1) {
        const t1 = performance.now()
        await advance(stepMs)
        b.advanceSeconds += (performance.now() - t1) / 1000
      }
      if ((c + 1) * chunk % block === 0 || c === chunks - 1) {
        log(
          `| ${fmt(Math.max(0, end - b.latencies.count + 1))}-${fmt(end)} | ${ms(b.latencies.percentile(50))} | ${
            ms(b.latencies.percentile(95))
          } | ${ms(mean(b.values))} | ${fmt(b.latencies.count / b.seconds)} | ${
            ms((1e3 * b.hostCpu) / b.latencies.count)
          } | ${fmt(b.advanceSeconds, 1)} | ${b.mix} | ${loadavg()[0].toFixed(1)} |`,
        )
      }
    }
    http.close()
    const first = blocks[0], last = blocks.at(-1)!
    log(
      `${store}: start p50 ${ms(first.latencies.percentile(50))} in the first ${fmt(first.latencies.count)}, ${
        ms(last.latencies.percentile(50))
      } in the last ${fmt(last.latencies.count)} (last/first ${
        fmt(last.latencies.percentile(50) / first.latencies.percentile(50), 2)
      }); mean ${ms(mean(first.values))} → ${ms(mean(last.values))} (${
        fmt(mean(last.values) / mean(first.values), 2)
      }); host peak RSS ${fmt(statusKb(host.pid, "VmHWM") / 1024)} MB`,
    )
    if (firstFailures.length > 0) log(`first failures: ${firstFailures.join(" | ")}`)
  } finally {
    await host.stop()
    await fresh?.drop()
  }
}

const main = async () => {
  log(
    `# One application, ${fmt(codes)} codes within one simulated hour: start latency per ${
      fmt(block)
    } codes (target: flat)`,
  )
  for (const store of stores) await runStore(store)
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e)
    process.exit(1)
  },
)
