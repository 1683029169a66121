/** The Notifications benchmark's driver (entry point: bench/notifications.ts, which gives the options). */
import { PGlite, types as PgliteTypes } from "@electric-sql/pglite"
import { pgliteExtensions } from "../../adapters/sql/pglite-client.ts"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { alternate, cpuMs, load, log, readFlags, reportSendRun } from "../lib/sends.ts"
import pg from "pg"
import { fmt, freshSchema, type Host, ms, sleep, startHost } from "../verify-lib/support.ts"
import {
  type Ceiling,
  int8,
  type Omissible,
  omissible,
  openPgCeiling,
  openPgliteCeiling,
  sendStatements,
  simulatorStatementCount,
} from "./ceiling.ts"
import {
  checkReports,
  driveReports,
  driveSends,
  emptyPlatformRun,
  makeReports,
  type PlatformRun,
  reportCheckSql,
  sendMessages,
  setupThroughConsole,
  traceOne,
} from "./platform.ts"

type Store = "pglite" | "postgres"

interface Args {
  readonly stores: ReadonlyArray<Store>
  readonly clients: number
  readonly seconds: number
  readonly warmup: number
  readonly rounds: number
  readonly keys: number
  readonly databaseUrl: string
  readonly sends: boolean
  readonly reports: number
  readonly messages: number
  readonly reportClients: number
  readonly seed: number
  readonly quick: boolean
  /** Statements left out of one more ceiling (diagnostic): what they cost the send. */
  readonly ceilingOmit: ReadonlySet<Omissible>
  /** The send benchmark's host writes a V8 CPU profile there when it stops. */
  readonly profile: string | undefined
}

const parseArgs = (argv: ReadonlyArray<string>): Args => {
  const { named, flags, quick, num } = readFlags(argv)
  const store = named.get("store") ?? "both"
  if (store !== "pglite" && store !== "postgres" && store !== "both") throw new Error("--store pglite|postgres|both")
  const omit = (named.get("ceiling-omit") ?? "").split(",").filter((x) => x !== "")
  for (const o of omit) {
    if (!(omissible as ReadonlyArray<string>).includes(o)) throw new Error(`--ceiling-omit ${omissible.join(",")}`)
  }
  return {
    ceilingOmit: new Set(omit as Array<Omissible>),
    profile: named.get("cpu-prof-dir"),
    stores: store === "both" ? ["pglite", "postgres"] : [store],
    clients: Math.max(1, Math.floor(num("clients", 16, 16))),
    seconds: num("seconds", 15, 1),
    warmup: num("warmup", 2, 0.5),
    rounds: Math.max(1, Math.floor(num("rounds", 3, 1))),
    keys: Math.max(1, Math.floor(num("keys", 500, 8))),
    databaseUrl: named.get("database-url") ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
    sends: !flags.has("no-sends"),
    reports: flags.has("no-reports") ? 0 : Math.floor(num("reports", 100_000, 500)),
    messages: Math.max(1, Math.floor(num("messages", 10_000, 50))),
    reportClients: Math.max(1, Math.floor(num("report-clients", 16, 16))),
    seed: Math.floor(num("seed", Date.now() % 1_000_000, Date.now() % 1_000_000)),
    quick,
  }
}

const normalise = (s: string) => s.replace(/\s+/g, " ").replace(/\s*([(),])\s*/g, "$1").trim()

/** One send traced on a host of its own: its statements against the ceiling's. */
const traceSend = async (store: Store, args: Args) => {
  const fresh = store === "postgres" ? await freshSchema(args.databaseUrl, "nbench") : undefined
  const host = await startHost(fresh ? { DATABASE_URL: fresh.url } : { PGLITE_DIR: "memory://" }, { trace: true })
  try {
    const lines = await traceOne(host, await setupThroughConsole(host, 2))
    const expected = sendStatements.map(normalise)
    const same = lines.length === expected.length && lines.every((l, i) => normalise(l) === expected[i])
    log(
      `  statements of one send (host trace): ${lines.length}, BEGIN and COMMIT included, the simulated network's ${simulatorStatementCount} among them; the ceiling issues ${expected.length}: ${
        same ? "the same texts, in the same order" : "DIFFERENT texts"
      }`,
    )
    if (!same) {
      for (let i = 0; i < Math.max(lines.length, expected.length); i++) {
        if (normalise(lines[i] ?? "") !== expected[i]) {
          log(
            `    differs at ${i + 1}:\n      host:    ${lines[i] ?? "(none)"}\n      ceiling: ${
              sendStatements[i] ?? "(none)"
            }`,
          )
        }
      }
    }
  } finally {
    await host.stop()
    await fresh?.drop()
  }
}

interface SendResult {
  readonly store: Store
  readonly platform: PlatformRun
  readonly ceilings: ReadonlyArray<Ceiling["run"]>
}

/** The platform and its ceilings in alternating slices, so whatever else the machine does weighs on both. */
const runSends = async (store: Store, args: Args): Promise<SendResult> => {
  const cleanups: Array<() => Promise<void>> = []
  try {
    const fresh = store === "postgres" ? await freshSchema(args.databaseUrl, "nbench") : undefined
    if (fresh) cleanups.unshift(fresh.drop)
    const host = await startHost(
      fresh ? { DATABASE_URL: fresh.url } : { PGLITE_DIR: "memory://" },
      args.profile ? { cpuProfDir: args.profile } : {},
    )
    cleanups.unshift(host.stop)
    const t = performance.now()
    const setup = await setupThroughConsole(host, args.keys)
    log(
      `  host pid ${host.pid}; ${setup.keys.length} keys made through the console in ${
        fmt((performance.now() - t) / 1000, 1)
      } s`,
    )
    const ceilings: Array<{ c: Ceiling; dbCpu?: () => Promise<Map<number, number>> }> = []
    const omits = args.ceilingOmit.size === 0 ? [new Set<Omissible>()] : [new Set<Omissible>(), args.ceilingOmit]
    if (store === "pglite") {
      for (const [prepared, omit] of [[false, omits[0]], ...omits.map((o) => [true, o] as const)] as const) {
        const c = await openPgliteCeiling(args.keys, omit, prepared)
        cleanups.unshift(c.close)
        ceilings.push({ c })
      }
    } else {
      for (const [prepared, omit] of [[false, omits[0]], ...omits.map((o) => [true, o] as const)] as const) {
        const f = await freshSchema(args.databaseUrl, "nbench_ceiling")
        cleanups.unshift(f.drop)
        const c = await openPgCeiling(f.url, prepared, args.keys, omit)
        cleanups.unshift(c.close)
        ceilings.push({ c, dbCpu: f.backendCpu })
      }
    }
    const platform = emptyPlatformRun()
    const slice = { clients: args.clients, warmup: args.warmup, seconds: args.seconds / args.rounds }
    await alternate(
      args.rounds,
      slice,
      platform,
      (opts) => driveSends(host, setup, { ...opts, dbCpu: fresh?.backendCpu }, platform),
      ceilings,
    )
    return { store, platform, ceilings: ceilings.map(({ c }) => c.run) }
  } finally {
    for (const f of cleanups) await f().catch((e) => console.error(e))
  }
}

const reportSends = (r: SendResult, args: Args) => {
  const p = r.platform
  log(
    `\n## ${r.store}: template sends, ${args.clients} clients, ${
      fmt(args.seconds, 1)
    } s measured per side in ${args.rounds} rounds (each after ${args.warmup} s of warm-up)`,
  )
  reportSendRun(r.store, p, r.ceilings, (rate) => {
    const perKey = Math.ceil((rate * 60) / p.keys)
    return [
      `  keys                   ${p.keys}, ~${perKey} sends per key per minute (limit 120)${
        perKey > 100 ? "  WARNING: near the limit, raise --keys" : ""
      }`,
    ]
  })
}

interface ReportResult {
  readonly store: Store
  readonly line: string
  readonly backwards: number
}

/**
 * `args.messages` messages sent over HTTP, then `args.reports` reports on them through the simulator's console
 * route, shuffled; then the store read directly: events and statuses checked for any step backwards. PGlite
 * runs in a temporary directory here, so that the bench can open the store once the host has stopped.
 */
const runReports = async (store: Store, args: Args): Promise<ReportResult> => {
  const fresh = store === "postgres" ? await freshSchema(args.databaseUrl, "nbench_reports") : undefined
  const dir = store === "pglite" ? mkdtempSync(join(tmpdir(), "nbench-pglite-")) : undefined
  let host: Host | undefined
  try {
    host = await startHost(fresh ? { DATABASE_URL: fresh.url } : { PGLITE_DIR: dir! })
    const setup = await setupThroughConsole(host, Math.max(8, Math.ceil(args.messages / 100)))
    const made = await sendMessages(host, setup, args.messages, args.clients)
    const reports = makeReports(made.ids, args.reports, args.seed)
    log(
      `  ${fmt(args.messages)} messages sent over HTTP (${fmt(made.perSecond)} sends/s); ${
        fmt(args.reports)
      } reports drawn (seed ${args.seed}); load average ${load()}`,
    )
    await sleep(500)
    const r = await driveReports(host, reports, args.reportClients)
    const loadAfter = load()
    let rows: { messages: Array<any>; events: Array<any> }
    if (fresh) {
      const c = new pg.Client({ connectionString: fresh.url })
      await c.connect()
      try {
        rows = {
          messages: (await c.query(reportCheckSql.messages, [setup.applicationId])).rows,
          events: (await c.query(reportCheckSql.events, [setup.applicationId])).rows,
        }
      } finally {
        await c.end()
      }
    } else {
      await host.stop()
      host = undefined
      const db = new PGlite(dir!, { parsers: { [PgliteTypes.INT8]: int8 }, extensions: pgliteExtensions })
      await db.waitReady
      try {
        rows = {
          messages: (await db.query(reportCheckSql.messages, [setup.applicationId])).rows as Array<any>,
          events: (await db.query(reportCheckSql.events, [setup.applicationId])).rows as Array<any>,
        }
      } finally {
        await db.close()
      }
    }
    const check = checkReports(rows.messages, rows.events)
    const rate = r.reports / r.seconds
    log(
      `\n## ${store}: ${fmt(r.reports)} status reports on ${
        fmt(check.messages)
      } messages, ${args.reportClients} clients (POST /console/v1/simulator/chatmsg/messages/{id}/report over HTTP → Notifications.report)`,
    )
    log(`  reports/s              ${fmt(rate, 0)}  (${fmt(r.seconds, 1)} s in all)`)
    log(`  p50 / p99              ${ms(r.latency.percentile(50))} / ${ms(r.latency.percentile(99))}`)
    log(`  status mix             {${r.mix}}`)
    log(
      `  changed a message      ${fmt(check.events)}; changed nothing ${
        fmt(r.reports - check.events)
      }  (one event per change: the events written)`,
    )
    log(`  events written         {${check.eventsByKind}}`)
    log(`  final statuses         {${check.finalStatuses}}`)
    log(`  host CPU per report    ${cpuMs(r.hostCpuSeconds, r.reports)}; load average after ${loadAfter}`)
    log(
      `  moved backwards        ${check.backwards.length} of ${fmt(check.messages)} messages${
        check.backwards.length === 0 ? " (every message's events forward only, its status its last event's)" : ""
      }`,
    )
    for (const b of check.backwards.slice(0, 5)) log(`    ${b}`)
    if (r.failures.length > 0) log(`  first failures:        ${r.failures.join(" | ")}`)
    if (check.messages !== args.messages) throw new Error(`expected ${args.messages} messages, read ${check.messages}`)
    return {
      store,
      line: `| ${store} | ${fmt(r.reports)} | ${fmt(rate, 0)} | ${ms(r.latency.percentile(50))} / ${
        ms(r.latency.percentile(99))
      } | ${fmt(check.events)} | ${fmt(r.reports - check.events)} | ${check.backwards.length} |`,
      backwards: check.backwards.length + r.failures.length,
    }
  } finally {
    await host?.stop()
    await fresh?.drop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  }
}

const main = async (argv: ReadonlyArray<string>) => {
  const args = parseArgs(argv)
  log(
    `# Notifications benchmark${args.quick ? " (--quick)" : ""}: ${args.stores.join(", ")}; ${args.clients} clients; ${
      fmt(args.seconds, 1)
    } s per side; ${args.keys} keys; ${fmt(args.reports)} reports on ${
      fmt(args.messages)
    } messages; load average ${load()}`,
  )
  const sends: Array<SendResult> = []
  const reports: Array<ReportResult> = []
  for (const store of args.stores) {
    log(`\n# ${store}`)
    if (args.sends) {
      await traceSend(store, args)
      const r = await runSends(store, args)
      sends.push(r)
      reportSends(r, args)
    }
    if (args.reports > 0) reports.push(await runReports(store, args))
  }
  log(`\n## Summary (load average ${load()})`)
  if (sends.length > 0) {
    log(`| store | sends/s | p50 / p99 | ceiling | ceiling sends/s | ceiling p50 / p99 | ratio |`)
    log(`|---|---|---|---|---|---|---|`)
    for (const r of sends) {
      const p = r.platform
      const rate = p.verifications / p.seconds
      for (const c of r.ceilings) {
        const cr = c.verifications / c.seconds
        log(
          `| ${r.store} | ${fmt(rate)} | ${ms(p.latency.percentile(50))} / ${
            ms(p.latency.percentile(99))
          } | ${c.label} | ${fmt(cr)} | ${ms(c.latency.percentile(50))} / ${ms(c.latency.percentile(99))} | ${
            fmt(rate / cr, 2)
          } |`,
        )
      }
    }
  }
  if (reports.length > 0) {
    log(`\n| store | reports | reports/s | p50 / p99 | changed | unchanged | moved backwards |`)
    log(`|---|---|---|---|---|---|---|`)
    for (const r of reports) log(r.line)
  }
  if (reports.some((r) => r.backwards > 0)) throw new Error("a report failed or a message moved backwards")
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
