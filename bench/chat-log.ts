/**
 * The Chat attendant log benchmark: `GET /v1/applications/{a}/chat/attendant/log` (chat.attendant.log.list) and
 * its `q` over 1,000,000 conversations of one application, through the trigram indexes of
 * migrations/chat/0006_log_search.ts and (a `q` without a trigram) the grams' of chat/0008. Prints figures; asserts
 * nothing about timing.
 *
 *   npx tsx bench/chat-log.ts [--store postgres|pglite|both] [--rows N] [--calls C] [--page-seconds S]
 *                             [--database-url URL] [--quick]
 *   (also `npm run bench -- chat-log ...`)
 *
 * Defaults: PostgreSQL (at $DATABASE_URL or postgres://postgres@127.0.0.1:5432/test, in a fresh schema dropped at
 * the end), 1,000,000 rows, 50 calls a page (fewer once a page's calls have taken 20 s, at least 5). `--quick`:
 * 20,000 rows, 10 calls a page within 5 s (a smoke run; any option given still wins). PGlite (`--store pglite`)
 * runs in a temporary directory: the host is stopped while the rows go in, then started again on it.
 *
 * The host: the Node host as its own process (bench/verify-lib/support.ts `startHost`, `CLOCK=simulated`); an
 * account and an approved application made through the console, two account tokens: one whose person manages
 * contacts (the default: names and numbers searched) and one whose person does not (names only). The clock moves a
 * minute before each page's calls: a new rate window.
 *
 * The rows, written straight with SQL (`INSERT ... SELECT ... FROM generate_series`, 100,000 a statement, progress
 * printed), then ANALYZE: newest first 5 s apart (1,000,000 rows: 58 days, inside the log's 90); none ongoing
 * (the expiry job would end them as the host starts); outcome by n % 20: answered 10, team 4, expired 4,
 * stopped 2; the number `+9665` and 8 digits (n·7919 mod 10⁸: every row its own); the name: none for one row in
 * 10, else one of 16 first names and 16 family names, Latin and Arabic script (each pair about 1 row in 280), and
 * for one row in 10,007 the rare family name Bin Sulaiman (بن سليمان in Arabic for half of those).
 *
 * For each search (below): the plan of the repository's own statement (adapters/sql/chat-conversations.ts
 * `logStatement`), `EXPLAIN (ANALYZE, BUFFERS)`; the first page's statement timed alone through the driver, `--calls`
 * times; then its first page and the page after it over HTTP, one call at a time: p50 / p99 of each.
 */
import { PGlite, types as PgliteTypes } from "@electric-sql/pglite"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { logStatement } from "../adapters/sql/chat-conversations.ts"
import { pgliteExtensions } from "../adapters/sql/pglite-client.ts"
import type { ApplicationId } from "../core/shared/brands.ts"
import { advanceClock, consoleClient, timeGets } from "./email-lib/platform.ts"
import { load, log, readFlags } from "./lib/sends.ts"
import { int8 } from "./notifications-lib/ceiling.ts"
import { type Db, pgDb, pgliteDb } from "./verify-lib/ceiling.ts"
import { fmt, freshSchema, type Host, Latencies, ms, startHost } from "./verify-lib/support.ts"

type Store = "pglite" | "postgres"

const flags = readFlags(process.argv.slice(2))
const storeArg = flags.named.get("store") ?? "postgres"
if (storeArg !== "pglite" && storeArg !== "postgres" && storeArg !== "both") {
  throw new Error("--store postgres|pglite|both")
}
const args = {
  stores: (storeArg === "both" ? ["postgres", "pglite"] : [storeArg]) as ReadonlyArray<Store>,
  rows: Math.floor(flags.num("rows", 1_000_000, 20_000)),
  calls: Math.min(100, Math.max(1, Math.floor(flags.num("calls", 50, 10)))),
  pageSeconds: flags.num("page-seconds", 20, 5),
  databaseUrl: flags.named.get("database-url") ?? process.env.DATABASE_URL ??
    "postgres://postgres@127.0.0.1:5432/test",
}

const pageLimit = 20
const phoneOf = (n: number) => `+9665${String((n * 7919) % 100_000_000).padStart(8, "0")}`

interface Search {
  readonly label: string
  readonly q: string
  /** Searched by the person who does not manage contacts (names only). */
  readonly namesOnly?: boolean
}

/** The searches timed: common, rare, absent, short (no trigram), a number's part and a local number. */
const searches = (rows: number): ReadonlyArray<Search> => {
  const known = Math.max(1, rows - 4_242)
  return [
    { label: "no q" },
    { label: "q=ahmed (common: a name of 16)", q: "ahmed" },
    { label: "q=sulaiman (rare: 1 row in 10,007)", q: "sulaiman" },
    { label: "q=SULAIMAN, names only (rare, upper case)", q: "SULAIMAN", namesOnly: true },
    { label: "q=سليمان (rare, Arabic)", q: "سليمان" },
    { label: "q=zubaidi (absent)", q: "zubaidi" },
    { label: "q=al (short: no trigram, common)", q: "al" },
    { label: "q=zq (short: no trigram, absent: the grams' index)", q: "zq" },
    { label: "q=ژ (one letter no name has: the grams' index)", q: "ژ", namesOnly: true },
    { label: `q=${phoneOf(known).slice(-7)} (a number's last 7 digits)`, q: phoneOf(known).slice(-7) },
    { label: `q=0${phoneOf(known).slice(4)} (a local number, 05…: 1 row)`, q: `0${phoneOf(known).slice(4)}` },
    { label: "q=4242 (a part of numbers: about 1 row in 1,000)", q: "4242" },
    { label: "q=4242, names only (no name has digits: none)", q: "4242", namesOnly: true },
  ].map((s) => ({ ...s, q: s.q ?? "" }))
}

const firstNames = ["Sara", "Ahmed", "Omar", "Fatimah", "Khalid", "Noura", "Abdullah", "Reem"]
  .concat(["سارة", "أحمد", "عمر", "فاطمة", "خالد", "نورة", "عبدالله", "ريم"])
const familyNames = ["Alharbi", "Alqahtani", "Alghamdi", "Alzahrani", "Aldosari", "Alotaibi", "Almutairi", "Alshehri"]
  .concat(["الحربي", "القحطاني", "الغامدي", "الزهراني", "الدوسري", "العتيبي", "المطيري", "الشهري"])
const sqlArray = (xs: ReadonlyArray<string>) => `ARRAY[${xs.map((x) => `'${x}'`).join(", ")}]`

/** `rows` conversations of the application, 100,000 a statement, then ANALYZE. */
const bulkInsert = async (db: Db, applicationId: string, rows: number, progress: (done: number) => void) => {
  const now = Date.now()
  for (let from = 1; from <= rows; from += 100_000) {
    const to = Math.min(rows, from + 99_999)
    await db.query(
      "",
      `INSERT INTO chat_conversations (id, application_id, phone, customer_name, version, level, choices, outcome,
        collected, started_at, last_customer_at, ended_at)
      SELECT md5('chat-log' || i)::uuid, $1::uuid, '+9665' || lpad(((i::bigint * 7919) % 100000000)::text, 8, '0'),
        CASE WHEN i % 10 = 3 THEN NULL
          WHEN i % 10007 = 0 THEN (CASE WHEN i % 2 = 0 THEN 'Haya Bin Sulaiman' ELSE 'هيا بن سليمان' END)
          ELSE (${sqlArray(firstNames)})[1 + i % 16] || ' ' || (${sqlArray(familyNames)})[1 + (i / 16) % 16] END,
        1, NULL, '[]',
        CASE WHEN i % 20 < 10 THEN 'answered' WHEN i % 20 < 14 THEN 'team' WHEN i % 20 < 18 THEN 'expired'
          ELSE 'stopped' END,
        '{}', $2::bigint - ($3::bigint - i) * 5000, $2::bigint - ($3::bigint - i) * 5000,
        $2::bigint - ($3::bigint - i) * 5000 + 60000
      FROM generate_series($4::int, $5::int) AS i`,
      [applicationId, now - 60_000, rows, from, to],
    )
    progress(to)
  }
  await db.query("", "ANALYZE chat_conversations", [])
}

const setup = async (host: Host) => {
  const c = consoleClient(host)
  try {
    const account = await c.console("POST", "/accounts", { name: "Bench merchant", sandbox_only: false })
    const app = await c.console("POST", `/accounts/${account.id}/applications`, { name: "Bench shop", approved: true })
    const full = await c.console("POST", `/accounts/${account.id}/account-tokens`, {})
    const namesOnly = await c.console("POST", `/accounts/${account.id}/account-tokens`, { manage_contacts: false })
    return { applicationId: app.id as string, full: full.token as string, namesOnly: namesOnly.token as string }
  } finally {
    c.close()
  }
}

/** The repository's statement for a search's page, as the service asks it (Conversations.log). */
const statementFor = (applicationId: string, s: Search, after?: { startedAt: number; id: string }) =>
  logStatement({
    applicationId: applicationId as ApplicationId,
    q: s.q === "" ? null : s.q,
    qPhone: s.q === "" || s.namesOnly ? null : /^05\d*$/.test(s.q) ? s.q.slice(1) : s.q,
    outcomes: null,
    after: after === undefined ? null : { startedAt: after.startedAt as never, id: after.id },
    limit: pageLimit + 1,
  })

/**
 * Each search's plans (first page, and the page after it when there is one), and its first page's statement timed
 * `calls` times straight through the driver (fewer once `budgetMs` is spent, at least 5): the statement's own time,
 * without HTTP and the host.
 */
const explainAll = async (db: Db, applicationId: string, list: ReadonlyArray<Search>, budgetMs: number) => {
  const out: Array<{ search: Search; plans: Array<string>; rows: number; sql: Latencies }> = []
  for (const s of list) {
    const [text, params] = statementFor(applicationId, s)
    const first = await db.query("", text, [...params])
    const sql = new Latencies()
    const start = performance.now()
    for (let i = 0; i < args.calls && (i < 5 || performance.now() - start < budgetMs); i++) {
      const t0 = performance.now()
      await db.query("", text, [...params])
      sql.add(performance.now() - t0)
    }
    const last = first.length > pageLimit ? first[pageLimit - 1] : undefined
    const plans: Array<string> = []
    for (
      const a of last === undefined
        ? [undefined]
        : [undefined, { startedAt: Number(last.started_at), id: String(last.id) }]
    ) {
      const [t, p] = statementFor(applicationId, s, a)
      const rows = await db.query("", `EXPLAIN (ANALYZE, BUFFERS) ${t}`, [...p])
      plans.push(rows.map((r) => r["QUERY PLAN"]).join("\n"))
    }
    out.push({ search: s, plans, rows: Math.min(first.length, pageLimit), sql })
  }
  return out
}

const path = (applicationId: string, q: string, cursor?: string) => {
  const p = new URLSearchParams()
  if (q !== "") p.set("q", q)
  if (cursor !== undefined) p.set("cursor", cursor)
  const s = p.toString()
  return `/v1/applications/${applicationId}/chat/attendant/log${s === "" ? "" : `?${s}`}`
}

const runStore = async (store: Store): Promise<Array<string>> => {
  const fresh = store === "postgres" ? await freshSchema(args.databaseUrl, "chatlog_bench") : undefined
  const dir = store === "pglite" ? mkdtempSync(join(tmpdir(), "chatlog-pglite-")) : undefined
  const env = { CLOCK: "simulated", ...(fresh ? { DATABASE_URL: fresh.url } : { PGLITE_DIR: dir! }) }
  let host: Host | undefined
  let db: Db | undefined
  const summary: Array<string> = []
  try {
    host = await startHost(env)
    const s = await setup(host)
    if (dir) {
      await host.stop()
      host = undefined
      const raw = new PGlite(dir, { parsers: { [PgliteTypes.INT8]: int8 }, extensions: pgliteExtensions })
      await raw.waitReady
      db = pgliteDb(raw)
    } else db = pgDb(fresh!.url, { prepared: false, poolSize: 1 })
    log(`\n## ${store}: ${fmt(args.rows)} conversations of one application`)
    const t0 = performance.now()
    await bulkInsert(
      db,
      s.applicationId,
      args.rows,
      (done) => log(`  ${fmt(done)} rows in ${fmt((performance.now() - t0) / 1000, 1)} s; load average ${load()}`),
    )
    log(`  ${fmt(args.rows)} rows written and analysed in ${fmt((performance.now() - t0) / 1000, 1)} s`)
    const list = searches(args.rows)
    const plans = await explainAll(db, s.applicationId, list, args.pageSeconds * 1000)
    await db.close()
    db = undefined
    host ??= await startHost(env)
    log(
      `\n## ${store}: GET /v1/applications/{a}/chat/attendant/log over ${
        fmt(args.rows)
      } conversations, ${args.calls} calls a page, one at a time (limit ${pageLimit})`,
    )
    for (const p of plans) {
      const token = p.search.namesOnly ? s.namesOnly : s.full
      await advanceClock(host, 60_000)
      const first = await timeGets(host, path(s.applicationId, p.search.q), token, args.calls, args.pageSeconds * 1000)
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
          path(s.applicationId, p.search.q, cursor),
          token,
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
        `\n### ${p.search.label}: p50 / p99 ${
          figures.join("; ")
        }; the statement alone ${statement} (${p.sql.count} runs); load average ${load()}`,
      )
      p.plans.forEach((plan, i) => {
        log(`  EXPLAIN (ANALYZE, BUFFERS), ${i === 0 ? "first page" : "cursor page"}:`)
        for (const line of plan.split("\n")) log(`    ${line}`)
      })
      const scan = (plan: string) =>
        [...plan.matchAll(/Index Scan(?: Backward)? (?:using|on) (\w+)/g)].map((m) => m[1]).join(" + ") ||
        "NO index scan"
      summary.push(
        `| ${store} | ${p.search.label} | ${body.data.length} | ${statement} | ${ms(first.latency.percentile(50))} / ${
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

const main = async () => {
  log(
    `# Chat attendant log benchmark${flags.quick ? " (--quick)" : ""}: ${args.stores.join(", ")}; ${
      fmt(args.rows)
    } conversations, ${args.calls} calls a page; load average ${load()}`,
  )
  log(`  ${new Date().toISOString()}`)
  const summary: Array<string> = []
  for (const store of args.stores) summary.push(...await runStore(store))
  log(`\n## Summary (${new Date().toISOString()}, load average ${load()})`)
  log(
    `\n| store | search (${
      fmt(args.rows)
    } rows) | rows | statement p50 / p99 | first page p50 / p99 | cursor page p50 / p99 | plan |`,
  )
  log(`|---|---|---|---|---|---|---|`)
  for (const l of summary) log(l)
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e)
    process.exit(1)
  },
)
