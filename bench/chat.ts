/**
 * The Chat benchmark: simulated customers in conversation with a published auto-attendant over the platform's
 * inbound HTTP path, beside the ceiling of the same statements straight through the driver. Prints figures;
 * asserts nothing about timing (it fails only when the trace's statements are not the ceiling's).
 *
 *   npx tsx bench/chat.ts [--store pglite|postgres|both] [--clients N] [--seconds S] [--rounds R] [--warmup S]
 *                         [--database-url URL] [--quick] [--cpu-prof-dir DIR] [--built] [--node-flags "…"]
 *   (also `npm run bench -- chat ...`)
 *
 * Defaults: both stores, 16 clients, 15 s measured per side in 3 rounds (each slice after 2 s of warm-up),
 * PostgreSQL at $DATABASE_URL or postgres://postgres@127.0.0.1:5432/test. `--quick`: 1 s per side in 1 round after
 * 0.5 s (a smoke run; any option given still wins).
 *
 * Platform: the Node host as its own process (bench/verify-lib/support.ts `startHost`; from the sources, or with
 * `--built` as `npm start` runs it, its node flags included) with the simulated chat network, on PGlite (`PGLITE_DIR=memory://`) or on PostgreSQL in a fresh schema (dropped at the end). The console
 * makes an approved application and a connected app's key, which publishes the attendant (bench/chat-lib/
 * platform.ts `benchMenu`). Each client plays a conversation with a new customer, again and again: a first message
 * (the greeting, sent through the network port from the reply queue into the simulator's log), a tap into the
 * nested menu (its level sent the same way), the tap that hands over to the team (its notice sent the same way), each one
 * `POST /console/v1/simulator/chatmsg/inbound` (the simulator's network delivering the customer's message), each
 * one measured message.
 *
 * Ceiling (bench/chat-lib/ceiling.ts): each message's statements in the host's order, with the engine's own step
 * between them, straight through `pg` (plain, and with named prepared statements; a pool of 10, the project's) or
 * on `@electric-sql/pglite` in memory (plain `query`, and with named statements: bench/verify-lib/ceiling.ts
 * `pglitePreparedDb`), on a schema the project's migrations made, at the same concurrency. Every
 * run first traces one conversation on a host of its own and prints whether its statements are the ceiling's.
 * Every message replies (the greeting, the nested level, the hand-over's notice): 9 statements each (the
 * application read; BEGIN, the customer's lock with the attendant, their ongoing conversation, its upsert, the
 * reply queued claimed, COMMIT; the simulator's log insert, the reply deleted).
 *
 * Platform and ceilings run in alternating slices (platform, ceiling(s), platform, ...); the ratio is platform
 * messages/s ÷ ceiling messages/s, over all slices and per slice.
 */
import { alternate, load, log, readFlags, reportSendRun } from "./lib/sends.ts"
import { type Ceiling, messageStatements, openPgCeiling, openPgliteCeiling } from "./chat-lib/ceiling.ts"
import { driveConversations, setupThroughConsole, traceConversation } from "./chat-lib/platform.ts"
import { emptyPlatformRun, type PlatformRun } from "./notifications-lib/platform.ts"
import { requestStatements } from "./verify-lib/project.ts"
import { asNpmStart, fmt, freshSchema, ms, npmStartFlags, startHost } from "./verify-lib/support.ts"

type Store = "pglite" | "postgres"

const parseArgs = (argv: ReadonlyArray<string>) => {
  const { named, flags, quick, num } = readFlags(argv)
  const store = named.get("store") ?? "both"
  if (store !== "pglite" && store !== "postgres" && store !== "both") throw new Error("--store pglite|postgres|both")
  return {
    stores: (store === "both" ? ["pglite", "postgres"] : [store]) as ReadonlyArray<Store>,
    clients: Math.max(1, Math.floor(num("clients", 16, 16))),
    seconds: num("seconds", 15, 1),
    warmup: num("warmup", 2, 0.5),
    rounds: Math.max(1, Math.floor(num("rounds", 3, 1))),
    databaseUrl: named.get("database-url") ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
    quick,
    /** The conversations' host writes a V8 CPU profile there when it stops. */
    profile: named.get("cpu-prof-dir"),
    /**
     * `--built`: the host as `npm start` runs it (dist/, with its node flags) instead of from the sources (`node
     * --import tsx hosts/node.ts`, as the other send benchmarks run theirs).
     */
    source: !flags.has("built") && !named.has("node-flags"),
    /** `--node-flags "…"`: the built host with these node flags instead of `npm start`'s. */
    nodeFlags: named.get("node-flags")?.split(/\s+/).filter((f) => f !== ""),
  }
}
type Args = ReturnType<typeof parseArgs>

const normalise = (s: string) => s.replace(/\s+/g, " ").replace(/\s*([(),])\s*/g, "$1").trim()
/** The jobs loop's statements, which the trace catches between a request's own. */
const jobs =
  /pg_control_checkpoint|sender_domains|DISTINCT ON \(application_id, phone\)|last_customer_at <=|DELETE FROM chat_conversations|FROM chat_stores WHERE next_read_at/

const traceRun = async (store: Store, args: Args) => {
  const fresh = store === "postgres" ? await freshSchema(args.databaseUrl, "cbench") : undefined
  const host = await startHost(fresh ? { DATABASE_URL: fresh.url } : { PGLITE_DIR: "memory://" }, { trace: true })
  try {
    const traced = await traceConversation(host, await setupThroughConsole(host), requestStatements)
    let same = true
    traced.forEach((lines, i) => {
      const own = lines.filter((l) => !jobs.test(l))
      const expected = messageStatements(true).map(normalise)
      const ok = own.length === expected.length && own.every((l, j) => normalise(l) === expected[j])
      same &&= ok
      log(
        `  message ${i + 1} (host trace): ${own.length} statements; the ceiling's ${expected.length}: ${
          ok ? "the same" : "DIFFERENT"
        }`,
      )
      if (!ok) own.forEach((l, j) => normalise(l) !== expected[j] && log(`    differs at ${j + 1}: ${l}`))
    })
    if (!same) throw new Error("the host's statements are not the ceiling's")
  } finally {
    await host.stop()
    await fresh?.drop()
  }
}

interface Result {
  readonly store: Store
  readonly platform: PlatformRun
  readonly ceilings: ReadonlyArray<Ceiling["run"]>
}

const runConversations = async (store: Store, args: Args): Promise<Result> => {
  const cleanups: Array<() => Promise<void>> = []
  try {
    const fresh = store === "postgres" ? await freshSchema(args.databaseUrl, "cbench") : undefined
    if (fresh) cleanups.unshift(fresh.drop)
    const host = await startHost(
      fresh ? { DATABASE_URL: fresh.url } : { PGLITE_DIR: "memory://" },
      {
        ...(args.profile ? { cpuProfDir: args.profile } : {}),
        ...(args.source ? {} : { built: { nodeFlags: args.nodeFlags ?? asNpmStart().nodeFlags } }),
      },
    )
    cleanups.unshift(host.stop)
    const setup = await setupThroughConsole(host)
    log(
      `  host pid ${host.pid} (${
        args.source
          ? "from the sources, node --import tsx"
          : args.nodeFlags
          ? `built, node ${args.nodeFlags.join(" ")}`
          : `as npm start runs it: node ${npmStartFlags().join(" ")}`
      }); attendant published through a connected app's key`,
    )
    const ceilings: Array<{ c: Ceiling; dbCpu?: () => Promise<Map<number, number>> }> = []
    if (store === "pglite") {
      for (const prepared of [false, true]) {
        const c = await openPgliteCeiling(prepared)
        cleanups.unshift(c.close)
        ceilings.push({ c })
      }
    } else {
      for (const prepared of [false, true]) {
        const f = await freshSchema(args.databaseUrl, "cbench_ceiling")
        cleanups.unshift(f.drop)
        const c = await openPgCeiling(f.url, prepared)
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
      (opts) => driveConversations(host, setup, { ...opts, dbCpu: fresh?.backendCpu }, platform),
      ceilings,
    )
    return { store, platform, ceilings: ceilings.map(({ c }) => c.run) }
  } finally {
    for (const f of cleanups) await f().catch((e) => console.error(e))
  }
}

const main = async (argv: ReadonlyArray<string>) => {
  const args = parseArgs(argv)
  log(
    `# Chat benchmark${args.quick ? " (--quick)" : ""}: ${args.stores.join(", ")}; ${args.clients} clients; ${
      fmt(args.seconds, 1)
    } s per side; load average ${load()}`,
  )
  const results: Array<Result> = []
  for (const store of args.stores) {
    log(`\n# ${store}`)
    await traceRun(store, args)
    const r = await runConversations(store, args)
    results.push(r)
    log(
      `\n## ${store}: inbound messages in conversations (greeting, nested tap, hand-over), ${args.clients} clients, ${
        fmt(args.seconds, 1)
      } s measured per side in ${args.rounds} rounds (each after ${args.warmup} s of warm-up); "sends" below are inbound messages handled`,
    )
    reportSendRun(store, r.platform, r.ceilings)
  }
  log(`\n## Summary (load average ${load()})`)
  log(`| store | messages/s | p50 / p99 | ceiling | ceiling messages/s | ceiling p50 / p99 | ratio |`)
  log(`|---|---|---|---|---|---|---|`)
  for (const r of results) {
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

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (e) => {
    console.error(e)
    process.exit(1)
  },
)
