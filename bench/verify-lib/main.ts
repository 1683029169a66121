/**
 * The Verify benchmark's driver; entry points: bench/verify.ts (project and ceiling) and
 * bench/verify-ceiling.ts (the ceiling alone). See bench/verify.ts for the options.
 */
import { type Ceiling, type CeilingRun, ceilingStatements, openPgCeiling, openPgliteCeiling } from "./ceiling.ts"
import { loadavg } from "node:os"
import { driveProject, emptyProjectRun, type ProjectRun, type Setup, setupThroughConsole, traceOne } from "./project.ts"
import { type Args, fmt, freshSchema, type Host, ms, parseArgs, startHost } from "./support.ts"

type Store = "pglite" | "postgres" | "memory"

interface StoreResult {
  readonly store: Store
  readonly project?: ProjectRun
  readonly ceilings: ReadonlyArray<CeilingRun>
}

const log = (line = "") => process.stdout.write(`${line}\n`)

const normalise = (s: string) => s.replace(/\s+/g, " ").replace(/\s*([(),])\s*/g, "$1").trim()

const runStatements = async (store: Store, args: Args) => {
  const fresh = store === "postgres" ? await freshSchema(args.databaseUrl, "bench") : undefined
  const host = await startHost(fresh ? { DATABASE_URL: fresh.url } : { PGLITE_DIR: "memory://" }, { trace: true })
  try {
    const setup = await setupThroughConsole(host, 2)
    const traced = await traceOne(host, setup)
    log(`\n## Statements of one verification on ${store} (host trace)`)
    let total = 0
    for (const part of ["start", "read", "check"] as const) {
      const lines = traced[part]
      total += lines.length
      const expected = ceilingStatements[part].map(normalise)
      const same = lines.length === expected.length && lines.every((l, i) => normalise(l) === expected[i])
      log(
        `${part}: ${lines.length} statements; the ceiling issues ${expected.length}, ${
          same ? "the same texts" : "DIFFERENT texts"
        }`,
      )
      for (const l of lines) log(`  ${l.length > 150 ? `${l.slice(0, 147)}...` : l}`)
      if (!same) {
        lines.forEach((l, i) => {
          if (normalise(l) !== expected[i]) {
            log(`  differs at ${i + 1}:\n    host:    ${l}\n    ceiling: ${ceilingStatements[part][i] ?? "(none)"}`)
          }
        })
      }
    }
    log(`total: ${total} statements per verification`)
  } finally {
    await host.stop()
    await fresh?.drop()
  }
}

/**
 * The project and its ceilings in alternating slices (`--rounds`), so that whatever else the machine is
 * doing weighs on both alike; figures are summed over the slices.
 */
const runStore = async (store: Store, args: Args): Promise<StoreResult> => {
  const cleanups: Array<() => Promise<void>> = []
  try {
    let host: Host | undefined
    let setup: Setup | undefined
    let hostDbCpu: (() => Promise<Map<number, number>>) | undefined
    if (args.project) {
      const fresh = store === "postgres" ? await freshSchema(args.databaseUrl, "bench") : undefined
      if (fresh) cleanups.unshift(fresh.drop)
      hostDbCpu = fresh?.backendCpu
      host = await startHost(
        fresh ? { DATABASE_URL: fresh.url } : store === "memory" ? { STORE: "memory" } : { PGLITE_DIR: "memory://" },
        args.profile ? { cpuProfDir: args.profile } : {},
      )
      cleanups.unshift(host.stop)
      const t = performance.now()
      setup = await setupThroughConsole(host, args.keys)
      log(
        `  host pid ${host.pid}; ${setup.keys.length} keys made through the console in ${
          ((performance.now() - t) / 1000).toFixed(1)
        } s`,
      )
    }
    const ceilings: Array<Ceiling> = []
    const ceilingDbCpu = new Map<Ceiling, () => Promise<Map<number, number>>>()
    if (args.ceiling && store !== "memory") {
      if (store === "pglite") ceilings.push(await openPgliteCeiling(args.keys))
      else {
        for (const prepared of [false, true]) {
          const fresh = await freshSchema(args.databaseUrl, "bench_ceiling")
          cleanups.unshift(fresh.drop)
          const c = await openPgCeiling(fresh.url, prepared, args.keys)
          cleanups.unshift(c.close)
          ceilings.push(c)
          ceilingDbCpu.set(c, fresh.backendCpu)
        }
      }
      if (store === "pglite") cleanups.unshift(ceilings[0].close)
    }
    const project = host && setup ? emptyProjectRun() : undefined
    const slice = { clients: args.clients, warmup: args.warmup, seconds: args.seconds / args.rounds }
    for (let round = 1; round <= args.rounds; round++) {
      const parts: Array<string> = []
      if (project) {
        await driveProject(host!, setup!, { ...slice, dbCpu: hostDbCpu }, project)
        parts.push(`project ${fmt(project.slices.at(-1)!)}`)
      }
      for (const c of ceilings) {
        await c.slice({ ...slice, dbCpu: ceilingDbCpu.get(c) })
        parts.push(`${c.run.label} ${fmt(c.run.slices.at(-1)!)}`)
      }
      log(
        `  round ${round}/${args.rounds} (verifications/s): ${parts.join("; ")}; load average ${
          loadavg()[0].toFixed(1)
        }`,
      )
    }
    for (const c of ceilings) await c.startAlone({ clients: args.clients, seconds: 3 })
    return { store, project, ceilings: ceilings.map((c) => c.run) }
  } finally {
    for (const f of cleanups) await f().catch((e) => console.error(e))
  }
}

const perSecond = (n: number, s: number) => n / s

const ceilingStatementCount = Object.values(ceilingStatements).reduce((n, list) => n + list.length, 0)

const cpuMs = (seconds: number, verifications: number) => `${fmt((1e3 * seconds) / verifications, 2)} ms`

const report = (r: StoreResult, args: Args) => {
  log(
    `\n## ${r.store}: ${args.clients} clients, ${args.seconds} s measured per side in ${args.rounds} rounds (each after ${args.warmup} s of warm-up)`,
  )
  const p = r.project
  if (p) {
    const rate = perSecond(p.verifications, p.seconds)
    const over = {
      pglite: "PGlite in the host",
      postgres: "PostgreSQL",
      memory: "the memory store (no SQL; diagnostic)",
    }
    log(`project (HTTP → Node host → ${over[r.store]}):`)
    log(`  verifications/s        ${fmt(rate, 0)}  (start → simulator SMS read → check, all three included)`)
    log(`  start  p50 / p99       ${ms(p.start.percentile(50))} / ${ms(p.start.percentile(99))}`)
    log(
      `  read   p50 / p99       ${ms(p.read.percentile(50))} / ${
        ms(p.read.percentile(99))
      }  (GET /console/v1/simulator/sms)`,
    )
    log(`  check  p50 / p99       ${ms(p.check.percentile(50))} / ${ms(p.check.percentile(99))}`)
    log(`  status mix             start {${p.startMix}}; read {${p.readMix}}; check {${p.checkMix}}`)
    const perKey = Math.ceil(((p.keyRequests / p.seconds) * 60) / p.keys)
    log(
      `  keys                   ${p.keys}, ~${fmt(perKey)} keyed requests per key per minute (limit 120)${
        perKey > 100 ? "  WARNING: near the limit, raise --keys" : ""
      }`,
    )
    log(`  host peak RSS (VmHWM)  ${fmt(p.peakRssKb / 1024, 0)} MB`)
    log(
      `  CPU                    host ${fmt((100 * p.hostCpuSeconds) / p.seconds, 0)}%${
        Number.isNaN(p.dbCpuSeconds)
          ? ""
          : `, PostgreSQL server processes ${fmt((100 * p.dbCpuSeconds) / p.seconds, 0)}%`
      }, load generator ${fmt((100 * p.clientCpuSeconds) / p.seconds, 0)}%; machine busy ${
        fmt(p.machineBusyPercent, 0)
      }% of all cores`,
    )
    log(
      `  CPU per verification   host ${cpuMs(p.hostCpuSeconds, p.verifications)}${
        Number.isNaN(p.dbCpuSeconds) ? "" : ` + PostgreSQL ${cpuMs(p.dbCpuSeconds, p.verifications)}`
      } (load generator ${cpuMs(p.clientCpuSeconds, p.verifications)} besides)`,
    )
    log(`  per slice              ${p.slices.map((x) => fmt(x)).join(", ")} verifications/s`)
    if (p.failures.length > 0) log(`  first failures:        ${p.failures.join(" | ")}`)
  }
  for (const c of r.ceilings) {
    const rate = perSecond(c.verifications, c.seconds)
    log(`ceiling (${c.label}, same statements, no HTTP, no Effect):`)
    log(
      `  verifications/s        ${fmt(rate, 0)}  (= start tx/s = check tx/s; ${ceilingStatementCount} statements each)`,
    )
    log(`  start  p50 / p99       ${ms(c.start.percentile(50))} / ${ms(c.start.percentile(99))}`)
    log(`  check  p50 / p99       ${ms(c.check.percentile(50))} / ${ms(c.check.percentile(99))}`)
    log(`  start tx alone         ${fmt(c.startTxAlone, 0)} tx/s  (BEGIN..COMMIT only)`)
    log(
      `  CPU per verification   node ${cpuMs(c.cpuSeconds, c.verifications)}${
        Number.isNaN(c.dbCpuSeconds) ? "" : ` + PostgreSQL ${cpuMs(c.dbCpuSeconds, c.verifications)}`
      }; machine busy ${fmt(c.machineBusyPercent, 0)}% of all cores`,
    )
    log(`  per slice              ${c.slices.map((x) => fmt(x)).join(", ")} verifications/s`)
    if (p) log(`  ratio project/ceiling  ${fmt(perSecond(p.verifications, p.seconds) / rate, 2)}`)
  }
}

const summary = (results: ReadonlyArray<StoreResult>) => {
  log(`\n## Summary`)
  log(`| store | verif/s | start p50/p99 | check p50/p99 | host peak RSS | ceiling | ceiling verif/s | ratio |`)
  log(`|---|---|---|---|---|---|---|---|`)
  for (const r of results) {
    const p = r.project
    const rate = p ? perSecond(p.verifications, p.seconds) : Number.NaN
    const rows = r.ceilings.length > 0 ? r.ceilings : [undefined]
    for (const c of rows) {
      const cr = c ? perSecond(c.verifications, c.seconds) : Number.NaN
      log(
        `| ${r.store} | ${fmt(rate)} | ${p ? `${ms(p.start.percentile(50))} / ${ms(p.start.percentile(99))}` : "-"} | ${
          p ? `${ms(p.check.percentile(50))} / ${ms(p.check.percentile(99))}` : "-"
        } | ${p ? `${fmt(p.peakRssKb / 1024)} MB` : "-"} | ${c?.label ?? "-"} | ${fmt(cr)} | ${fmt(rate / cr, 2)} |`,
      )
    }
  }
}

const main = async (argv: ReadonlyArray<string>) => {
  const args = parseArgs(argv)
  const stores: ReadonlyArray<Store> = args.store === "both" ? ["pglite", "postgres"] : [args.store]
  if (args.statements && stores.includes("memory")) throw new Error("--statements needs an SQL store")
  log(`# Verify benchmark: ${stores.join(", ")}; ${args.clients} clients; ${args.seconds} s; ${args.keys} keys`)
  if (args.statements) {
    for (const store of stores) await runStatements(store, args)
    return
  }
  const results: Array<StoreResult> = []
  for (const store of stores) {
    log(`\n# ${store}`)
    const r = await runStore(store, args)
    results.push(r)
    report(r, args)
  }
  summary(results)
}

/** Runs the benchmark with command-line `argv`, then exits the process. */
export const run = (argv: ReadonlyArray<string>) =>
  main(argv).then(
    () => process.exit(0),
    (e) => {
      console.error(e)
      process.exit(1)
    },
  )
