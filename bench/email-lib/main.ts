/** The Email benchmark's driver (entry point: bench/email.ts, which gives the options). */
import { PGlite, types as PgliteTypes } from "@electric-sql/pglite"
import { pgliteExtensions } from "../../adapters/sql/pglite-client.ts"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { alternate, load, log, readFlags, reportSendRun } from "../lib/sends.ts"
import { int8 } from "../notifications-lib/ceiling.ts"
import { type Db, pgDb, pgliteDb } from "../verify-lib/ceiling.ts"
import { fmt, freshSchema, type Host, ms, startHost } from "../verify-lib/support.ts"
import { type Ceiling, openPgCeiling, openPgliteCeiling, sendStatements, simulatorStatementCount } from "./ceiling.ts"
import { bulkInsert, explainAll, listPath, pageLimit } from "./log.ts"
import {
  advanceClock,
  consoleClient,
  driveSends,
  emptyPlatformRun,
  type PlatformRun,
  setupThroughConsole,
  timeGets,
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
  readonly rows: number
  readonly calls: number
  /** Seconds a page's calls may take: fewer calls after (at least 5). */
  readonly pageSeconds: number
  /** The send benchmark's host writes a V8 CPU profile there when it stops. */
  readonly profile: string | undefined
  readonly quick: boolean
}

const parseArgs = (argv: ReadonlyArray<string>): Args => {
  const { named, flags, quick, num } = readFlags(argv)
  const store = named.get("store") ?? "both"
  if (store !== "pglite" && store !== "postgres" && store !== "both") throw new Error("--store pglite|postgres|both")
  return {
    stores: store === "both" ? ["postgres", "pglite"] : [store],
    clients: Math.max(1, Math.floor(num("clients", 16, 16))),
    seconds: num("seconds", 15, 1),
    warmup: num("warmup", 2, 0.5),
    rounds: Math.max(1, Math.floor(num("rounds", 3, 1))),
    keys: Math.max(1, Math.floor(num("keys", 500, 16))),
    databaseUrl: named.get("database-url") ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
    sends: !flags.has("no-sends"),
    rows: flags.has("no-log") ? 0 : Math.floor(num("rows", 1_000_000, 20_000)),
    calls: Math.min(100, Math.max(1, Math.floor(num("calls", 50, 10)))),
    pageSeconds: num("page-seconds", 20, 5),
    profile: named.get("cpu-prof-dir"),
    quick,
  }
}

const normalise = (s: string) => s.replace(/\s+/g, " ").replace(/\s*([(),])\s*/g, "$1").trim()
const hostEnv = { EMAIL_PROVIDER: "simulator", DNS_PROVIDER: "simulator", CLOCK: "simulated" }
/** The domain check's job (its due list) runs beside the send on its own: not the send's statement. */
const isJob = (text: string) => /FROM sender_domains WHERE status = 'pending'/.test(text)

/** One send traced on a host of its own: its statements against the ceiling's. */
const traceSend = async (store: Store, args: Args) => {
  const fresh = store === "postgres" ? await freshSchema(args.databaseUrl, "ebench") : undefined
  const host = await startHost({ ...hostEnv, ...(fresh ? { DATABASE_URL: fresh.url } : { PGLITE_DIR: "memory://" }) }, {
    trace: true,
  })
  try {
    const lines = (await traceOne(host, await setupThroughConsole(host, 2))).filter((l) => !isJob(l))
    const expected = sendStatements.map(normalise)
    const same = lines.length === expected.length && lines.every((l, i) => normalise(l) === expected[i])
    log(
      `  statements of one send (host trace): ${lines.length}, the simulated provider's ${simulatorStatementCount} among them; the ceiling issues ${expected.length}: ${
        same ? "the same texts, in the same order" : "DIFFERENT texts"
      }`,
    )
    if (!same) {
      for (let i = 0; i < Math.max(lines.length, expected.length); i++) {
        if (normalise(lines[i] ?? "") !== expected[i]) {
          log(`    differs at ${i + 1}:\n      host:    ${lines[i] ?? "(none)"}\n      ceiling: ${sendStatements[i]}`)
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
    const fresh = store === "postgres" ? await freshSchema(args.databaseUrl, "ebench") : undefined
    if (fresh) cleanups.unshift(fresh.drop)
    const host = await startHost(
      { ...hostEnv, ...(fresh ? { DATABASE_URL: fresh.url } : { PGLITE_DIR: "memory://" }) },
      args.profile ? { cpuProfDir: args.profile } : {},
    )
    cleanups.unshift(host.stop)
    const t = performance.now()
    const setup = await setupThroughConsole(host, args.keys)
    log(
      `  host pid ${host.pid}; domain verified and ${setup.keys.length} keys made through the console in ${
        fmt((performance.now() - t) / 1000, 1)
      } s`,
    )
    const ceilings: Array<{ c: Ceiling; dbCpu?: () => Promise<Map<number, number>> }> = []
    if (store === "pglite") {
      for (const prepared of [false, true]) {
        const c = await openPgliteCeiling(args.keys, prepared)
        cleanups.unshift(c.close)
        ceilings.push({ c })
      }
    } else {
      for (const prepared of [false, true]) {
        const f = await freshSchema(args.databaseUrl, "ebench_ceiling")
        cleanups.unshift(f.drop)
        const c = await openPgCeiling(f.url, prepared, args.keys)
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
    `\n## ${r.store}: sends, ${args.clients} clients, ${
      fmt(args.seconds, 1)
    } s measured per side in ${args.rounds} rounds (each after ${args.warmup} s of warm-up); load average ${load()}`,
  )
  reportSendRun(r.store, p, r.ceilings)
}

/**
 * The log: the host set up (one key, the account token), `args.rows` rows written straight into its store, the
 * plans printed, then each combination's first page and the page after it timed over HTTP. PGlite runs in a
 * temporary directory: the host stops while the rows go in, then starts again on it.
 */
const runLog = async (store: Store, args: Args): Promise<Array<string>> => {
  const fresh = store === "postgres" ? await freshSchema(args.databaseUrl, "ebench_log") : undefined
  const dir = store === "pglite" ? mkdtempSync(join(tmpdir(), "ebench-pglite-")) : undefined
  const env = { ...hostEnv, ...(fresh ? { DATABASE_URL: fresh.url } : { PGLITE_DIR: dir! }) }
  let host: Host | undefined
  let db: Db | undefined
  const summary: Array<string> = []
  try {
    host = await startHost(env)
    const setup = await setupThroughConsole(host, 1)
    const c = consoleClient(host)
    const domainId = (await c.call(
      "GET",
      `/v1/applications/${setup.applicationId}/email/senders`,
      undefined,
      setup
        .accountToken,
    ))[0].id as string
    c.close()
    if (dir) {
      await host.stop()
      host = undefined
      const raw = new PGlite(dir, { parsers: { [PgliteTypes.INT8]: int8 }, extensions: pgliteExtensions })
      await raw.waitReady
      db = pgliteDb(raw)
    } else db = pgDb(fresh!.url, { prepared: false, poolSize: 1 })
    const t0 = performance.now()
    let lastLog = t0
    await bulkInsert(db, { ...setup, domainId }, args.rows, (done) => {
      if (performance.now() - lastLog > 10_000 || done === args.rows) {
        lastLog = performance.now()
        log(`  ${fmt(done)} rows in ${fmt((lastLog - t0) / 1000, 1)} s; load average ${load()}`)
      }
    })
    log(`  ${fmt(args.rows)} rows written and analysed in ${fmt((performance.now() - t0) / 1000, 1)} s`)
    const plans = await explainAll(db, setup.applicationId, args.calls, args.pageSeconds * 1000)
    await db.close()
    db = undefined
    host ??= await startHost(env)
    log(
      `\n## ${store}: GET /v1/applications/{a}/email/messages over ${
        fmt(args.rows)
      } rows of one application, ${args.calls} calls a page, one at a time (limit ${pageLimit})`,
    )
    for (const p of plans) {
      await advanceClock(host, 60_000) // a new rate window for the account token
      const path = listPath(setup.applicationId, p.combo)
      const first = await timeGets(host, path, setup.accountToken, args.calls, args.pageSeconds * 1000)
      const body = JSON.parse(first.last)
      const cursor = body.next_cursor as string | null
      const figures = [
        `first page ${ms(first.latency.percentile(50))} / ${
          ms(first.latency.percentile(99))
        } (${first.latency.count} calls, ${body.data.length} rows)`,
      ]
      let second: Awaited<ReturnType<typeof timeGets>> | undefined
      if (cursor !== null) {
        await advanceClock(host, 60_000)
        second = await timeGets(
          host,
          listPath(setup.applicationId, p.combo, cursor),
          setup.accountToken,
          args.calls,
          args.pageSeconds * 1000,
        )
        figures.push(
          `cursor page ${ms(second.latency.percentile(50))} / ${
            ms(second.latency.percentile(99))
          } (${second.latency.count} calls)`,
        )
      }
      const statement = `${ms(p.sql.percentile(50))} / ${ms(p.sql.percentile(99))}`
      log(
        `\n### ${p.combo.label}: p50 / p99 ${
          figures.join("; ")
        }; the statement alone ${statement} (${p.sql.count} runs); load average ${load()}`,
      )
      p.plans.forEach((plan, i) => {
        log(`  EXPLAIN (ANALYZE, BUFFERS), ${i === 0 ? "first page" : "cursor page"}:`)
        for (const line of plan.split("\n")) log(`    ${line}`)
      })
      const scan = (plan: string) => /Index Scan(?: Backward)? (?:using|on) (\w+)/.exec(plan)?.[1] ?? "NO index scan"
      summary.push(
        `| ${store} | ${p.combo.label} | ${statement} | ${ms(first.latency.percentile(50))} / ${
          ms(first.latency.percentile(99))
        } | ${second ? `${ms(second.latency.percentile(50))} / ${ms(second.latency.percentile(99))}` : "-"} | ${
          p.plans.map(scan).join(", ")
        } |`,
      )
    }
    return summary
  } finally {
    await db?.close()
    await host?.stop()
    await fresh?.drop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  }
}

const main = async (argv: ReadonlyArray<string>) => {
  const args = parseArgs(argv)
  log(
    `# Email benchmark${args.quick ? " (--quick)" : ""}: ${args.stores.join(", ")}; ${args.clients} clients; ${
      fmt(args.seconds, 1)
    } s per side; ${args.keys} keys; the log over ${
      fmt(args.rows)
    } rows, ${args.calls} calls a page; load average ${load()}`,
  )
  log(`  ${new Date().toISOString()}`)
  const sends: Array<SendResult> = []
  const lists: Array<string> = []
  for (const store of args.stores) {
    log(`\n# ${store}`)
    if (args.sends) {
      await traceSend(store, args)
      const r = await runSends(store, args)
      sends.push(r)
      reportSends(r, args)
    }
    if (args.rows > 0) lists.push(...await runLog(store, args))
  }
  log(`\n## Summary (${new Date().toISOString()}, load average ${load()})`)
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
  if (lists.length > 0) {
    log(
      `\n| store | list (${
        fmt(args.rows)
      } rows) | statement p50 / p99 | first page p50 / p99 | cursor page p50 / p99 | plan |`,
    )
    log(`|---|---|---|---|---|---|`)
    for (const l of lists) log(l)
  }
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
