/**
 * Issue 15's benchmark: provisioning and the partner feed at scale. Prints figures; asserts nothing about timing.
 *
 *   npx tsx bench/partner.ts [--store pglite|postgres|both] [--count N] [--clients C] [--page P] [--database-url URL]
 *   (also `npm run bench -- partner ...`)
 *
 * Defaults: both stores, 10,000 client applications, 16 concurrent clients, feed pages of 100, PostgreSQL at
 * $DATABASE_URL or postgres://postgres@127.0.0.1:5432/test (a fresh schema, dropped at the end); PGlite in memory.
 *
 * The whole platform runs in this process behind a real node:http socket (the SMS simulator, the simulated
 * clock, no background loop). A partner account with partner keys is made through the console (the rate limit
 * is 120 requests per key per minute, so requests go round robin over enough keys). Then:
 *   1. provision N client applications through `POST /v1/partner/applications` (where that route is served;
 *      else straight through the console's `POST /console/v1/accounts/{account}/applications`, and it says so);
 *   2. approve each in the console: N moves, each with its `service.approved` in the feed;
 *   3. read the feed from the start in pages, and from a cursor in the middle;
 *   4. time one `GET /v1/partner/applications?q=` over the N (where served);
 *   5. print the query plans (EXPLAIN ANALYZE) of the feed's, the list's and the log's statements: as planned
 *      without statistics (a fresh PGlite store: PGlite runs no autovacuum) and after ANALYZE (what PostgreSQL's
 *      autovacuum keeps).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Option } from "effect"
import pg from "pg"
import { type Settings, settingsFromEnv } from "../adapters/config.ts"
import { close, listen, nodeServer } from "../adapters/http/node.ts"
import { makePlatform, type Platform } from "../adapters/platform.ts"

const args = process.argv.slice(2)
const arg = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback
}
const storeArg = arg("store", "both")
const count = Number(arg("count", "10000"))
const clients = Number(arg("clients", "16"))
const pageSize = Number(arg("page", "100"))
const databaseUrl = arg("database-url", process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test")
const consoleToken = "bench-console-token"

const log = (line: string) => console.log(line)
const rate = (n: number, ms: number) => `${Math.round((n * 1000) / ms).toLocaleString("en")}/s`

interface Answer {
  readonly status: number
  readonly body: any
}

const caller =
  (baseUrl: string) => async (method: string, path: string, key: string, body?: unknown): Promise<Answer> => {
    const res = await fetch(baseUrl + path, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = JSON.parse(text)
    } catch { /* not JSON */ }
    return { status: res.status, body: parsed }
  }

/** Runs `task(i)` for i in [0, n) on `concurrency` workers; prints progress every tenth. */
const pool = async (n: number, concurrency: number, label: string, task: (i: number) => Promise<void>) => {
  let next = 0
  let done = 0
  const step = Math.max(1, Math.floor(n / 10))
  await Promise.all(Array.from({ length: concurrency }, async () => {
    for (let i = next++; i < n; i = next++) {
      await task(i)
      if (++done % step === 0) log(`    ${label}: ${done.toLocaleString("en")} / ${n.toLocaleString("en")}`)
    }
  }))
}

/**
 * The plan of `statement`. `settings` are set for it alone (`SET LOCAL` in a transaction of its own): the feed's
 * statement runs inside `partner_feed_page`, whose own settings turn bitmap scans, sequential scans and sorts off
 * (migrations/partner-feed/0002), and a function's plan does not show in its caller's EXPLAIN.
 */
const explain = (platform: Platform, statement: string, settings: ReadonlyArray<string> = []): Promise<string> =>
  platform.runtime.runPromise(
    Effect.flatMap(SqlClient.SqlClient as any, (sql: any) =>
      sql.withTransaction(
        Effect.zipRight(
          Effect.forEach(settings, (s) => sql.unsafe(`SET LOCAL ${s}`)),
          sql.unsafe(`EXPLAIN (ANALYZE, COSTS OFF) ${statement}`),
        ),
      )).pipe(
        Effect.map((rows: any) => rows.map((r: any) => `      ${r["QUERY PLAN"]}`).join("\n")),
      ) as Effect.Effect<string>,
  )

/** `partner_feed_page`'s own settings (migrations/partner-feed/0002). */
const feedSettings = ["enable_bitmapscan = off", "enable_seqscan = off", "enable_sort = off"]

const run = async (store: "pglite" | "postgres") => {
  log(`\n== ${store} ==`)
  const base = await Effect.runPromise(settingsFromEnv)
  let schema: string | undefined
  let url = ""
  if (store === "postgres") {
    schema = `bench_partner_${process.pid}`
    const admin = new pg.Client({ connectionString: databaseUrl })
    await admin.connect()
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    await admin.query(`CREATE SCHEMA ${schema}`)
    await admin.end()
    const u = new URL(databaseUrl)
    u.searchParams.set("options", `-c search_path=${schema}`)
    url = u.toString()
  }
  const settings: Settings = {
    ...base,
    store: "sql",
    pgliteDir: "memory://",
    databaseUrl: store === "postgres" ? Option.some(url) : Option.none(),
    clock: "simulated",
    smsProvider: "simulator",
    consoleToken,
    consoleTokenGenerated: false,
  }
  const platform = await makePlatform(settings, { jobs: false, demo: false })
  const server = nodeServer(platform.dispatch)
  const port = await listen(server, 0, "127.0.0.1")
  const call = caller(`http://127.0.0.1:${port}`)
  const consoleCall = async (method: string, path: string, body: unknown = {}) => {
    const res = await call(method, `/console/v1${path}`, consoleToken, body)
    if (res.status >= 300) throw new Error(`console ${method} ${path} -> ${res.status} ${JSON.stringify(res.body)}`)
    return res.body.data
  }
  try {
    const account = await consoleCall("POST", "/accounts", { name: "Bench platform", partner: true })
    // 120 requests per key per minute: enough keys that no key passes it.
    const keyCount = Math.ceil((count + count / pageSize + 50) / 100) + 2
    const keys: Array<string> = []
    for (let i = 0; i < keyCount; i++) {
      keys.push((await consoleCall("POST", `/accounts/${account.id}/keys`, { mode: "partner" })).key)
    }
    let turn = 0
    const key = () => keys[turn++ % keys.length]
    log(`  partner account ${account.id}, ${keys.length} partner keys`)

    // 1. Provisioning.
    const probe = await call("POST", "/v1/partner/applications", key(), {
      name: "Probe",
      website: "https://probe.example",
    })
    const throughApi = probe.status === 201
    log(
      throughApi
        ? `  provisioning through POST /v1/partner/applications`
        : `  POST /v1/partner/applications answers ${probe.status}: provisioning through the console instead`,
    )
    const ids: Array<string> = throughApi ? [probe.body.id] : []
    let started = performance.now()
    await pool(count, clients, "provisioned", async (i) => {
      const name = `Merchant ${i}`
      const external = `merchant-${i}`
      if (throughApi) {
        const res = await call("POST", "/v1/partner/applications", key(), {
          name,
          website: `https://shop-${i}.example`,
          external_id: external,
        })
        if (res.status !== 201) throw new Error(`provision -> ${res.status} ${JSON.stringify(res.body)}`)
        ids.push(res.body.id)
      } else {
        ids.push(
          (await consoleCall("POST", `/accounts/${account.id}/applications`, { name, external_id: external })).id,
        )
      }
    })
    const provisionMs = performance.now() - started
    log(
      `  provisions: ${count.toLocaleString("en")} in ${(provisionMs / 1000).toFixed(1)} s = ${
        rate(count, provisionMs)
      }`,
    )

    // 2. Console approvals: one service.approved each.
    started = performance.now()
    await pool(ids.length, clients, "approved", async (i) => {
      await consoleCall("POST", `/applications/${ids[i]}/approve`)
    })
    const approveMs = performance.now() - started
    log(
      `  console approvals (each a move and its feed entry): ${ids.length.toLocaleString("en")} = ${
        rate(ids.length, approveMs)
      }`,
    )

    // 3. The feed from the start, in pages.
    started = performance.now()
    let events = 0
    let pages = 0
    let cursor: string | undefined
    let middle: string | undefined
    for (;;) {
      const q = new URLSearchParams({ limit: String(pageSize) })
      if (cursor !== undefined) q.set("cursor", cursor)
      const res = await call("GET", `/v1/partner/events?${q}`, key())
      if (res.status !== 200) throw new Error(`feed -> ${res.status} ${JSON.stringify(res.body)}`)
      events += res.body.data.length
      pages++
      cursor = res.body.next_cursor
      if (pages === Math.floor(ids.length / pageSize / 2)) middle = cursor
      if (res.body.data.length < pageSize) break
    }
    const feedMs = performance.now() - started
    log(
      `  feed from the start: ${events.toLocaleString("en")} events in ${pages} pages of ${pageSize}, ` +
        `${(feedMs / 1000).toFixed(2)} s = ${rate(events, feedMs)} (${(feedMs / pages).toFixed(1)} ms a page)`,
    )
    if (events !== ids.length) log(`  !! expected ${ids.length} events`)

    // 4. One search over the N.
    const t = performance.now()
    const list = await call("GET", "/v1/partner/applications?q=merchant-9999&limit=20", key())
    const listMs = performance.now() - t
    log(
      list.status === 200
        ? `  GET /v1/partner/applications?q=merchant-9999 over ${ids.length.toLocaleString("en")}: ` +
          `${listMs.toFixed(1)} ms, ${list.body.data.length} rows`
        : `  GET /v1/partner/applications answers ${list.status}: not timed`,
    )

    // 5. Query plans.
    const since = Date.now() - 30 * 86_400_000
    // partner_feed_page's statement (migrations/partner-feed/0002), with this account and position.
    const feedStatement = (afterTx: string, afterSeq: number) =>
      `WITH snap AS MATERIALIZED (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin)
       SELECT snap.xmin::text AS xmin, f.seq, f.xid::text AS xid, f.event_id, f.event, f.data, f.created_at
       FROM snap LEFT JOIN LATERAL (
         SELECT seq, xid, event_id, event, data, created_at FROM partner_feed
         WHERE account_id = '${account.id}' AND (xid, seq) > ('${afterTx}'::xid8, ${afterSeq}::bigint)
           AND xid < snap.xmin AND created_at >= ${since}
           AND (NULL::text IS NULL OR event = ANY (string_to_array(NULL::text, ',')))
         ORDER BY xid, seq LIMIT ${pageSize}) f ON true`
    const plans = async (when: string) => {
      log(
        `\n  plan (${when}): the feed's first page (partner_feed_page)\n${await explain(
          platform,
          feedStatement("0", 0),
          feedSettings,
        )}`,
      )
      if (middle !== undefined) {
        const [tx, seq] = JSON.parse(Buffer.from(middle.split(".")[0], "base64url").toString())[2]
        log(
          `\n  plan (${when}): a page from the middle\n${await explain(
            platform,
            feedStatement(tx, seq),
            feedSettings,
          )}`,
        )
      }
      log(
        `\n  plan (${when}): the partner's list with q (adapters/sql/partner.ts' statement)\n${await explain(
          platform,
          `SELECT a.id FROM applications a LEFT JOIN verify_settings s ON s.application_id = a.id
           WHERE a.account_id = '${account.id}' AND a.status <> 'archived'
             AND (strpos(lower(a.name COLLATE "C"), 'merchant-9999') > 0
               OR strpos(lower(coalesce(a.external_id, '') COLLATE "C"), 'merchant-9999') > 0
               OR a.id::text = 'merchant-9999')
           ORDER BY a.created_at DESC, a.id DESC LIMIT 21`,
        )}`,
      )
      log(
        `\n  plan (${when}): a client's verification log (adapters/sql/partner-feed.ts)\n${await explain(
          platform,
          `SELECT id FROM verifications WHERE application_id = '${ids[0]}' AND created_at >= ${since}
             AND (created_at, id) < (${Number.MAX_SAFE_INTEGER}::bigint, '00000000-0000-0000-0000-000000000000'::uuid)
             AND (NULL::text IS NULL OR status = NULL::text)
           ORDER BY created_at DESC, id DESC LIMIT 21`,
        )}`,
      )
    }
    // As the planner sees the tables now (PGlite runs no autovacuum: no statistics until ANALYZE), then with
    // statistics, as PostgreSQL's autovacuum keeps them.
    await plans("no statistics")
    await platform.runtime.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient as any,
        (sql: any) => sql.unsafe("ANALYZE partner_feed, applications, verifications"),
      ) as Effect.Effect<unknown>,
    )
    await plans("after ANALYZE")
  } finally {
    await close(server)
    await platform.dispose()
    if (schema !== undefined) {
      const admin = new pg.Client({ connectionString: databaseUrl })
      await admin.connect()
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      await admin.end()
    }
  }
}

const stores: ReadonlyArray<"pglite" | "postgres"> = storeArg === "both"
  ? ["pglite", "postgres"]
  : [storeArg as "pglite"]
for (const store of stores) await run(store)
