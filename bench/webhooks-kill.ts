/**
 * Webhook delivery across three server processes on one PostgreSQL, one of them SIGKILLed mid-run.
 * Events: console rehearsals (cheap) and some real `verification.verified` events (outbox fan-out).
 * A local receiver verifies every signature and counts deliveries per `webhook-id`.
 *
 *   DATABASE_URL=postgres://… npx tsx bench/webhooks-kill.ts [events=1000]
 *
 * `test/webhooks/multiprocess.test.ts` runs it in short form and asserts on the figures.
 */
import { createServer } from "node:http"
import { Webhook } from "standardwebhooks"
import { apiCall, consoleCall, freshSchema, type Host, startHost, stopHost } from "./webhooks/cluster.ts"

export interface KillFigures {
  readonly events: number
  readonly verifications: number
  readonly rehearsals: number
  readonly requestsReceived: number
  readonly badSignatures: number
  readonly lost: number
  readonly unexpected: number
  readonly duplicates: number
  /** Extra arrivals with no recorded attempt behind them: attempts the kill cut off before they were recorded. */
  readonly duplicatesUnrecorded: number
  /** Duplicated webhook-ids first received around the kill (up to 1 s after the signal) and again after it. */
  readonly duplicatesAcrossKill: number
  /** Attempts recorded in the log (one per delivery when every receipt was answered 2xx first time). */
  readonly attemptsRecorded: number
  readonly deliveredBeforeKill: number
  readonly submitMs: number
  readonly allDeliveredMs: number
  readonly lastDeliveryAfterKillMs: number
  readonly deliveriesPerSecond: number
  readonly firstAttemptLatencyMs: { readonly p50: number; readonly p95: number }
  readonly deliveryStatus: Record<string, number>
  readonly unroutedEvents: number
}

interface Arrival {
  readonly at: number
  readonly key: string
}

const percentile = (xs: Array<number>, p: number) =>
  xs.length === 0 ? 0 : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]

const startCounter = async (maxDelayMs: number) => {
  const byId = new Map<string, Array<Arrival>>()
  const state = { secret: "", received: 0, badSignatures: 0, onArrival: () => {} }
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString()
      try {
        const payload: any = new Webhook(state.secret).verify(body, req.headers as Record<string, string>)
        const id = req.headers["webhook-id"] as string
        const key = payload.test ? id : `${payload.event}:${payload.data.id}`
        byId.set(id, [...(byId.get(id) ?? []), { at: Date.now(), key }])
      } catch {
        state.badSignatures++
      }
      state.received++
      state.onArrival()
      setTimeout(() => res.writeHead(200).end(), Math.floor(Math.random() * maxDelayMs))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return { url, byId, state, close }
}

/** Runs `tasks` with at most `n` at once. */
const pool = async (tasks: Array<() => Promise<void>>, n: number) => {
  let next = 0
  await Promise.all(Array.from({ length: n }, async () => {
    while (next < tasks.length) await tasks[next++]()
  }))
}

export const runKillScenario = async (
  databaseUrl: string,
  events: number,
  log: (line: string) => void = () => {},
): Promise<KillFigures> => {
  const schema = await freshSchema(databaseUrl)
  const token = `console-${crypto.randomUUID()}`
  const counter = await startCounter(300)
  const hosts: Array<Host> = []
  try {
    hosts.push(...await Promise.all([0, 1, 2].map(() => startHost(schema.url, token))))
    const [front, victim, back] = hosts
    log(`3 hosts up: ${hosts.map((h) => h.baseUrl).join(" ")}`)
    const account = await consoleCall(front, token, "POST", "/accounts", { name: "Kill test" })
    const app = await consoleCall(front, token, "POST", `/accounts/${account.id}/applications`, {
      name: "Hooks",
      approved: true,
    })
    await consoleCall(front, token, "POST", `/accounts/${account.id}/wallet/credit`, { amount_halalas: 10_000_000 })
    counter.state.secret =
      (await consoleCall(front, token, "PUT", `/applications/${app.id}/webhook`, { url: counter.url })).secret
    await consoleCall(front, token, "PUT", `/applications/${app.id}/verify-settings`, { guard: false })
    const verifications = Math.floor(events / 10)
    const keys = await Promise.all(
      Array.from(
        { length: Math.ceil(verifications / 40) },
        () =>
          consoleCall(front, token, "POST", `/applications/${app.id}/keys`, { mode: "live" }).then((k) =>
            k.key as string
          ),
      ),
    )

    // Only `front` and `back` take requests: the victim works the shared queue, so nothing is lost with a request.
    const expected = new Map<string, number>()
    const submitters = [front, back]
    const tasks = Array.from({ length: events }, (_, i) => async () => {
      const host = submitters[i % 2]
      if (i % 10 === 9) {
        const key = keys[Math.floor(i / 10) % keys.length]
        const to = `+9665${String(50_000_000 + i).padStart(8, "0")}`
        const started = await apiCall(host, key, "POST", "/v1/verify/start", { to })
        if (started.status !== 200) throw new Error(`start -> ${started.status} ${JSON.stringify(started.body)}`)
        const sms = await consoleCall(host, token, "GET", `/simulator/sms?to=${encodeURIComponent(to)}`)
        const code = /\b\d{4,8}\b/.exec(sms[0].text)![0]
        const checked = await apiCall(host, key, "POST", "/v1/verify/check", { id: started.body.id, code })
        if (checked.body.status !== "verified") throw new Error(`check -> ${JSON.stringify(checked.body)}`)
        expected.set(`verification.verified:${started.body.id}`, Date.now())
      } else {
        const sent = await consoleCall(host, token, "POST", `/applications/${app.id}/webhook/test`, {})
        expected.set(sent.webhook_id, Date.now())
      }
    })

    let killedAt = 0
    let deliveredBeforeKill = 0
    counter.state.onArrival = () => {
      if (killedAt === 0 && counter.state.received >= events * 0.4) {
        killedAt = Date.now()
        deliveredBeforeKill = counter.state.received
        victim.child.kill("SIGKILL")
        log(`SIGKILL victim after ${deliveredBeforeKill} deliveries`)
      }
    }
    const began = Date.now()
    await pool(tasks, 16)
    const submitMs = Date.now() - began
    log(`${events} events submitted in ${submitMs} ms`)

    const keysReceived = () => new Set([...counter.byId.values()].flatMap((arrivals) => arrivals.map((a) => a.key)))
    const deadline = Date.now() + 120_000
    // Settled: every event arrived and no delivery is left pending (a lapsed lease is redelivered first).
    const pending = async () =>
      (await schema.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'`))[0].n
    while (
      Date.now() < deadline && ([...expected.keys()].some((k) => !keysReceived().has(k)) || (await pending()) > 0)
    ) {
      await new Promise((r) => setTimeout(r, 250))
    }
    await new Promise((r) => setTimeout(r, 1_000))

    const received = keysReceived()
    const arrivals = [...counter.byId.values()]
    const firstByKey = new Map<string, number>()
    for (const list of arrivals) {
      for (const a of list) if (!firstByKey.has(a.key) || a.at < firstByKey.get(a.key)!) firstByKey.set(a.key, a.at)
    }
    const lastArrival = Math.max(...arrivals.flat().map((a) => a.at))
    const duplicated = arrivals.filter((list) => list.length > 1)
    for (const list of duplicated) log(`duplicate: ${list.map((a) => a.at - killedAt).join(", ")} ms from the kill`)
    const recorded = new Map((await schema.query(`SELECT d.webhook_id, count(a.seq)::int AS n FROM webhook_deliveries d
      LEFT JOIN webhook_attempts a ON a.delivery_id = d.id GROUP BY d.webhook_id`)).map((
      r,
    ) => [r.webhook_id as string, r.n as number]))
    const window = killedAt + 1_000
    const latencies = [...expected].filter(([k]) => firstByKey.has(k)).map(([k, t]) =>
      Math.max(0, firstByKey.get(k)! - t)
    )
    const status = await schema.query(`SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status`)
    const unrouted = await schema.query(
      `SELECT count(*)::int AS n FROM outbox_events e, outbox_routing r WHERE (e.xid, e.seq) > (r.xid, r.seq)`,
    )
    return {
      events,
      verifications,
      rehearsals: events - verifications,
      requestsReceived: counter.state.received,
      badSignatures: counter.state.badSignatures,
      lost: [...expected.keys()].filter((k) => !received.has(k)).length,
      unexpected: [...received].filter((k) => !expected.has(k)).length,
      duplicates: duplicated.reduce((n, list) => n + list.length - 1, 0),
      duplicatesUnrecorded: [...counter.byId].reduce(
        (n, [id, list]) => n + Math.max(0, list.length - (recorded.get(id) ?? 0)),
        0,
      ),
      duplicatesAcrossKill: duplicated.filter((list) =>
        killedAt > 0 && list[0].at < window && list.slice(1).every((a) => a.at >= window)
      ).length,
      attemptsRecorded: [...recorded.values()].reduce((a, b) => a + b, 0),
      deliveredBeforeKill,
      submitMs,
      allDeliveredMs: lastArrival - began,
      lastDeliveryAfterKillMs: killedAt === 0 ? 0 : lastArrival - killedAt,
      deliveriesPerSecond: Math.round((counter.state.received / ((lastArrival - began) / 1000)) * 10) / 10,
      firstAttemptLatencyMs: { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95) },
      deliveryStatus: Object.fromEntries(status.map((r) => [r.status, r.n])),
      unroutedEvents: unrouted[0].n,
    }
  } finally {
    await Promise.all(hosts.map((h) => stopHost(h)))
    await counter.close()
    await schema.drop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.env.DATABASE_URL
  if (url === undefined) throw new Error("DATABASE_URL is required")
  const figures = await runKillScenario(
    url,
    Number(process.argv[2] ?? process.env.WEBHOOKS_KILL_EVENTS ?? 1000),
    console.log,
  )
  console.log(JSON.stringify(figures, null, 2))
}
