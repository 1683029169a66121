/**
 * The Verify benchmark's driver; entry points: bench/verify.ts (project and ceiling) and
 * bench/verify-ceiling.ts (the ceiling alone). See bench/verify.ts for the options.
 */
import {
  type Ceiling,
  type CeilingRun,
  ceilingStatements,
  openPgCeiling,
  openPgliteCeiling,
  simulatorStatements,
} from "./ceiling.ts"
import { loadavg } from "node:os"
import { driveProject, emptyProjectRun, type ProjectRun, type Setup, setupThroughConsole, traceOne } from "./project.ts"
import { countPart, type PartCount, persistenceOf, type WalCheck, walCrossCheck } from "./commits.ts"
import { openPair, type PairRun } from "./pair.ts"
import { type Args, fmt, freshSchema, type Host, ms, parseArgs, startHost } from "./support.ts"

type Store = "pglite" | "postgres" | "memory"

/** One way of spreading the project's clients: over `applications` applications of one account. */
interface ProjectVariant {
  readonly applications: number
  readonly run: ProjectRun
}

interface StoreResult {
  readonly store: Store
  /** The first variant (one application unless `--applications` says otherwise): the ceilings' reference. */
  readonly project?: ProjectRun
  readonly variants: ReadonlyArray<ProjectVariant>
  readonly ceilings: ReadonlyArray<CeilingRun>
  readonly pair?: PairRun
  /** Why the minimal pair did not run, when it was to. */
  readonly pairSkipped?: string
}

const applicationsLabel = (n: number) => n === 1 ? "1 application" : `${n} applications of one account`

const log = (line = "") => process.stdout.write(`${line}\n`)

const normalise = (s: string) => s.replace(/\s+/g, " ").replace(/\s*([(),])\s*/g, "$1").trim()

const printCounts = (
  store: Store,
  traced: { start: ReadonlyArray<string>; read: ReadonlyArray<string>; check: ReadonlyArray<string> },
  persistence: Awaited<ReturnType<typeof persistenceOf>> | undefined,
) => {
  const parts = (["start", "read", "check"] as const).map((part) =>
    [part, countPart(traced[part], persistence)] as const
  )
  const sum = (k: keyof Omit<PartCount, "tables">) => parts.reduce((n, [, c]) => n + c[k], 0)
  log(`\n## Statements and commits of one verification on ${store} (host trace, production path)`)
  log(
    `  statements per verification   ${sum("statements")}  (${
      parts.map(([p, c]) => `${p} ${c.statements}`).join(", ")
    }; BEGIN and COMMIT included; the SMS simulator's ${sum("simulator")} left out)`,
  )
  log(
    `  commits per verification      ${sum("flushing")} WAL-flushing  (${
      parts.map(([p, c]) => `${p} ${c.flushing}`).join(", ")
    }; ${sum("writing")} writing, ${sum("units")} transactions and autocommitted statements in all)`,
  )
  if (store === "postgres") {
    // pg-client.ts sends BEGIN in the round trip of its transaction's first statement when that has values.
    const carried = (lines: ReadonlyArray<string>) =>
      lines.filter((l, i) => l === "BEGIN" && /\$\d/.test(lines[i + 1] ?? "") && !/\bsim_sms\b/.test(lines[i + 1]))
        .length
    const trips = parts.map(([p, c]) => [p, c.statements - carried(traced[p])] as const)
    log(
      `  round trips per verification  ${trips.reduce((n, [, t]) => n + t, 0)}  (${
        trips.map(([p, t]) => `${p} ${t}`).join(", ")
      }; BEGIN travels with its transaction's first statement)`,
    )
  }
  log(
    `  tables written                ${[...new Set(parts.flatMap(([, c]) => c.tables))].join(", ")}${
      persistence ? "" : "  (PGlite in memory: nothing is flushed; persistence not read)"
    }`,
  )
}

const printWal = (w: WalCheck) => {
  log(
    `  measured over ${w.verifications} verifications one at a time (${
      fmt(w.seconds, 1)
    } s; pg_stat_wal and pg_stat_database deltas ÷ ${w.verifications}, after the idle rate of the same span is taken off):`,
  )
  log(
    `    wal_sync ${fmt(w.net.walSync, 2)} (raw ${fmt(w.raw.walSync, 2)}), wal_records ${
      fmt(w.net.walRecords, 1)
    } (raw ${fmt(w.raw.walRecords, 1)}), WAL ${fmt(w.net.walBytes / 1024, 1)} kB, xact_commit ${
      fmt(w.net.xactCommit, 1)
    } (raw ${fmt(w.raw.xactCommit, 1)}) per verification; idle: ${fmt(w.idle.walSync, 1)} wal_sync/s, ${
      fmt(w.idle.xactCommit, 1)
    } xact_commit/s`,
  )
  log(
    `    (xact_commit counts every transaction, read-only ones and the host's background loops included; the WAL figures are the whole server's)`,
  )
}

/**
 * One traced verification on a host of its own (cheap: before the timed part of every run): its
 * statements and WAL-flushing commits, and on PostgreSQL the measured cross-check (`--serial N`).
 */
const runCounts = async (store: Store, args: Args, detailed: boolean) => {
  const fresh = store === "postgres" ? await freshSchema(args.databaseUrl, "bench") : undefined
  const host = await startHost(fresh ? { DATABASE_URL: fresh.url } : { PGLITE_DIR: "memory://" }, { trace: true })
  try {
    const setup = await setupThroughConsole(host, 8)
    const traced = await traceOne(host, setup)
    if (detailed) {
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
    }
    printCounts(store, traced, fresh ? await persistenceOf(args.databaseUrl, fresh.schema) : undefined)
    if (fresh && args.serial > 0) {
      host.stderr.length = 0
      printWal(await walCrossCheck(host, setup, args.databaseUrl, args.serial))
    }
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
    let hostDbCpu: (() => Promise<Map<number, number>>) | undefined
    const variants: Array<ProjectVariant & { setup: Setup }> = []
    if (args.project) {
      const fresh = store === "postgres" ? await freshSchema(args.databaseUrl, "bench") : undefined
      if (fresh) cleanups.unshift(fresh.drop)
      hostDbCpu = fresh?.backendCpu
      host = await startHost(
        fresh ? { DATABASE_URL: fresh.url } : store === "memory" ? { STORE: "memory" } : { PGLITE_DIR: "memory://" },
        args.profile ? { cpuProfDir: args.profile } : {},
      )
      cleanups.unshift(host.stop)
      for (const applications of args.applications ?? (store === "postgres" ? [1, 16] : [1])) {
        const t = performance.now()
        const setup = await setupThroughConsole(host, args.keys, applications)
        log(
          `  host pid ${host.pid}; ${
            applicationsLabel(applications)
          }: ${setup.keys.length} keys made through the console in ${((performance.now() - t) / 1000).toFixed(1)} s`,
        )
        variants.push({ applications, run: emptyProjectRun(), setup })
      }
    }
    const ceilings: Array<Ceiling> = []
    const ceilingDbCpu = new Map<Ceiling, () => Promise<Map<number, number>>>()
    if (args.ceiling && store !== "memory") {
      if (store === "pglite") {
        for (const prepared of [false, true]) {
          const c = await openPgliteCeiling(args.keys, prepared)
          cleanups.unshift(c.close)
          ceilings.push(c)
        }
      } else {
        for (const prepared of [false, true]) {
          const fresh = await freshSchema(args.databaseUrl, "bench_ceiling")
          cleanups.unshift(fresh.drop)
          const c = await openPgCeiling(fresh.url, prepared, args.keys)
          cleanups.unshift(c.close)
          ceilings.push(c)
          ceilingDbCpu.set(c, fresh.backendCpu)
        }
      }
    }
    let pairSkipped: string | undefined
    const pair = store === "postgres" && args.pair && args.project
      ? await openPair(args.databaseUrl).then((p) => {
        if (typeof p === "string") pairSkipped = p
        return typeof p === "string" ? undefined : p
      })
      : undefined
    if (pairSkipped) log(`  minimal pair skipped: ${pairSkipped}`)
    const slice = { clients: args.clients, warmup: args.warmup, seconds: args.seconds / args.rounds }
    for (let round = 1; round <= args.rounds; round++) {
      const parts: Array<string> = []
      for (const v of variants) {
        await driveProject(host!, v.setup, { ...slice, dbCpu: hostDbCpu }, v.run)
        parts.push(
          `project${variants.length > 1 ? ` (${v.applications} app${v.applications > 1 ? "s" : ""})` : ""} ${
            fmt(v.run.slices.at(-1)!)
          }`,
        )
      }
      for (const c of ceilings) {
        await c.slice({ ...slice, dbCpu: ceilingDbCpu.get(c) })
        parts.push(`${c.run.label} ${fmt(c.run.slices.at(-1)!)}`)
      }
      if (pair) {
        await pair.slice({ clients: args.clients, seconds: slice.seconds })
        parts.push(`minimal pair ${fmt(pair.run.slices.at(-1)!)} pairs/s`)
      }
      log(
        `  round ${round}/${args.rounds} (verifications/s): ${parts.join("; ")}; load average ${
          loadavg()[0].toFixed(1)
        }`,
      )
    }
    for (const c of ceilings) await c.startAlone({ clients: args.clients, seconds: 3 })
    return {
      store,
      project: variants[0]?.run,
      variants: variants.map(({ applications, run }) => ({ applications, run })),
      ceilings: ceilings.map((c) => c.run),
      pair: pair?.run,
      pairSkipped,
    }
  } finally {
    for (const f of cleanups) await f().catch((e) => console.error(e))
  }
}

const perSecond = (n: number, s: number) => n / s

/** The ceiling's statements of one verification, the simulator's left out (as the host's count). */
const ceilingStatementCount = Object.values(ceilingStatements).reduce((n, list) => n + list.length, 0) -
  simulatorStatements

const cpuMs = (seconds: number, verifications: number) => `${fmt((1e3 * seconds) / verifications, 2)} ms`

const report = (r: StoreResult, args: Args) => {
  log(
    `\n## ${r.store}: ${args.clients} clients, ${args.seconds} s measured per side in ${args.rounds} rounds (each after ${args.warmup} s of warm-up)`,
  )
  const over = {
    pglite: "PGlite in the host",
    postgres: "PostgreSQL",
    memory: "the memory store (no SQL; diagnostic)",
  }
  for (const { applications, run: p } of r.variants) {
    const rate = perSecond(p.verifications, p.seconds)
    log(`project (HTTP → Node host → ${over[r.store]}; clients over ${applicationsLabel(applications)}):`)
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
      `  verifications/s        ${
        fmt(rate, 0)
      }  (= start tx/s = check tx/s; ${ceilingStatementCount} statements each, the simulator's ${simulatorStatements} besides)`,
    )
    log(`  start  p50 / p99       ${ms(c.start.percentile(50))} / ${ms(c.start.percentile(99))}`)
    log(`  check  p50 / p99       ${ms(c.check.percentile(50))} / ${ms(c.check.percentile(99))}`)
    log(`  start tx alone         ${fmt(c.startTxAlone, 0)} tx/s  (the start's send statement only)`)
    log(
      `  CPU per verification   node ${cpuMs(c.cpuSeconds, c.verifications)}${
        Number.isNaN(c.dbCpuSeconds) ? "" : ` + PostgreSQL ${cpuMs(c.dbCpuSeconds, c.verifications)}`
      }; machine busy ${fmt(c.machineBusyPercent, 0)}% of all cores`,
    )
    log(`  per slice              ${c.slices.map((x) => fmt(x)).join(", ")} verifications/s`)
    const p = r.project
    if (p) {
      log(
        `  ratio project/ceiling  ${fmt(perSecond(p.verifications, p.seconds) / rate, 2)}${
          r.variants.length > 1 ? `  (project on ${applicationsLabel(r.variants[0].applications)})` : ""
        }`,
      )
    }
  }
  if (r.pair) {
    const q = r.pair
    const rate = perSecond(q.pairs, q.seconds)
    log(`ceiling (${q.label}: the least SQL of a start and a check, ${args.clients} clients, -M prepared):`)
    log(`  pairs/s                ${fmt(rate, 0)}  (pgbench tps; one pair = one start and one check transaction)`)
    log(`  pair latency average   ${q.latencies.map((x) => ms(x)).join(", ")} (per slice)`)
    log(`  machine busy           ${fmt(q.machineBusyPercent, 0)}% of all cores`)
    log(`  per slice              ${q.slices.map((x) => fmt(x)).join(", ")} pairs/s`)
    for (const { applications, run: p } of r.variants) {
      log(
        `  ratio project/pair     ${fmt(perSecond(p.verifications, p.seconds) / rate, 2)}  (project on ${
          applicationsLabel(applications)
        })`,
      )
    }
  } else if (r.pairSkipped) log(`minimal pair: skipped (${r.pairSkipped})`)
  for (const { a, b, many, one } of oneAgainstMany(r)) {
    log(
      `one application / ${many.applications} applications: ${fmt(a, 0)} / ${fmt(b, 0)} verifications/s = ${
        fmt(a / b, 2)
      }  (per slice: ${
        one.run.slices.map((x, i) => fmt(x / many.run.slices[i], 2)).join(", ")
      }; the same ${args.clients} clients, the same account and wallet)`,
    )
  }
}

/** The one-application run against each run over more applications, with their verifications/s (`a`, `b`). */
const oneAgainstMany = (r: StoreResult) => {
  const one = r.variants.find((v) => v.applications === 1)
  if (!one) return []
  return r.variants.filter((v) => v.applications > 1).map((many) => ({
    one,
    many,
    a: perSecond(one.run.verifications, one.run.seconds),
    b: perSecond(many.run.verifications, many.run.seconds),
  }))
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
    if (r.pair && p) {
      const pr = perSecond(r.pair.pairs, r.pair.seconds)
      log(`| ${r.store} | ${fmt(rate)} | | | | minimal pair (pgbench) | ${fmt(pr)} pairs/s | ${fmt(rate / pr, 2)} |`)
    }
  }
  for (const r of results) {
    for (const { a, b, many } of oneAgainstMany(r)) {
      log(
        `\n${r.store}: one application ${fmt(a)} verif/s, ${many.applications} applications of one account ${
          fmt(b)
        }: ratio ${fmt(a / b, 2)}`,
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
    for (const store of stores) await runCounts(store, args, true)
    return
  }
  const results: Array<StoreResult> = []
  for (const store of stores) {
    log(`\n# ${store}`)
    if (store !== "memory") await runCounts(store, args, false)
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
