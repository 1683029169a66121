/**
 * Several server processes on one PostgreSQL (DECISIONS 1: "nothing that must be global (rate-limit
 * windows, idempotency, wallet, caps, jobs, webhook delivery) lives only in one process's memory").
 *
 * Two real Node host processes (as `npm start` runs them) on a fresh schema, system clock, simulators. Runs only when
 * DATABASE_URL is set (CI sets it); otherwise the suite is reported as skipped under a name saying so.
 */
import type pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { phone } from "../support/phone.ts"
import { freshPgSchema, type PgSchema, type ServerProcess, spawnServer } from "../support/processes.ts"

const databaseUrl = process.env.DATABASE_URL
const suite = databaseUrl
  ? "two server processes on one PostgreSQL (DATABASE_URL)"
  : "two server processes on one PostgreSQL — SKIPPED: DATABASE_URL is not set"

describe.runIf(databaseUrl !== undefined)(suite, () => {
  let db: PgSchema
  let a: ServerProcess
  let b: ServerProcess
  const consoleToken = `console-mp-${crypto.randomUUID()}`

  beforeAll(async () => {
    db = await freshPgSchema(databaseUrl!) // Both start at once on the empty schema: the migrations and the demo seed must cope.
    ;[a, b] = await Promise.all([
      spawnServer({ databaseUrl: db.url, consoleToken }),
      spawnServer({ databaseUrl: db.url, consoleToken }),
    ])
  }, 180_000)

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()])
    await db?.drop()
  }, 60_000)

  const both = () => [a, b] as const
  const q = async <T extends pg.QueryResultRow = any>(text: string, values: Array<unknown> = []) =>
    (await db.client.query<T>(text, values)).rows

  /** An approved application of a fresh account holding `balance` halalas, with a live key. */
  const setup = async (balance: number) => {
    const account = await a.console("POST", "/accounts", { name: "MP" })
    const app = await b.console("POST", `/accounts/${account.id}/applications`, { name: "MP", approved: true })
    if (balance > 0) await a.console("POST", `/accounts/${account.id}/wallet/credit`, { amount_halalas: balance })
    const key = await b.console("POST", `/applications/${app.id}/keys`, { mode: "live" })
    return { accountId: account.id as string, applicationId: app.id as string, key: key.key as string }
  }
  const smsCount = async (p: ServerProcess, to: string) =>
    (await p.console("GET", `/simulator/sms?to=${encodeURIComponent(to)}`)).length
  const ledger = async (accountId: string) => {
    const rows = await q<{ kind: string; n: string; total: string }>(
      "SELECT kind, count(*) AS n, coalesce(sum(amount_halalas), 0) AS total FROM ledger WHERE account_id = $1 GROUP BY kind",
      [accountId],
    )
    const of = (kind: string) => rows.find((r) => r.kind === kind)
    return { charges: Number(of("charge")?.n ?? 0), refunds: Number(of("refund")?.n ?? 0) }
  }
  const balance = async (accountId: string) =>
    Number(
      (await q<{ b: string }>("SELECT balance_halalas AS b FROM wallets WHERE account_id = $1", [accountId]))[0]?.b ??
        0,
    )

  it("the store is the fresh schema given in DATABASE_URL's search_path, and exactly one process seeded the demo", async () => {
    const tables = await q<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = $1",
      [db.schema],
    )
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(["credentials", "rate_windows", "idempotency", "ledger"]),
    )
    const demos = both().map((p) => p.demo()).filter((d) => d !== undefined)
    expect(demos).toHaveLength(1)
    expect((await q("SELECT id FROM accounts")).length).toBe(1)
    for (const p of both()) expect(p.stdout[1]).toBe(`console token: ${consoleToken}`)
  })

  it(
    '"Rate limit: 120 requests per fixed 60-second window per presented credential ... shared by every process": 70 requests to each process with one key → exactly 120 served and 20 answered 429',
    async () => {
      const demo = both().map((p) => p.demo()).find((d) => d !== undefined)!
      // All 140 requests must fall into one window of the system clock: wait for 25 s of it to be left.
      const left = () => 60_000 - (Date.now() % 60_000)
      if (left() < 25_000) await new Promise((r) => setTimeout(r, left() + 200))
      const fire = (p: ServerProcess) =>
        Promise.all(
          Array.from({ length: 70 }, () => p.call("GET", `/v1/verify/${crypto.randomUUID()}`, { key: demo.liveKey })),
        )
      const answers = (await Promise.all([fire(a), fire(b)])).flat()
      const limited = answers.filter((r) => r.status === 429)
      const served = answers.filter((r) => r.status !== 429)
      expect(served).toHaveLength(120)
      expect(limited).toHaveLength(20)
      for (const r of served) expect(r.body).toEqual({ error: "not_found" })
      for (const r of limited) {
        expect(r.body).toEqual({ error: "too_many_requests" })
        const retryAfter = Number(r.headers.get("retry-after"))
        expect(retryAfter).toBeGreaterThanOrEqual(1)
        expect(retryAfter).toBeLessThanOrEqual(60)
      }
      // Both processes took part in refusing.
      expect((await a.call("GET", `/v1/verify/${crypto.randomUUID()}`, { key: demo.liveKey })).status).toBe(429)
      expect((await b.call("GET", `/v1/verify/${crypto.randomUUID()}`, { key: demo.liveKey })).status).toBe(429)
    },
    120_000,
  )

  it("unknown keys share the window across processes too (counted before authentication)", async () => {
    const left = () => 60_000 - (Date.now() % 60_000)
    if (left() < 15_000) await new Promise((r) => setTimeout(r, left() + 200))
    const unknown = `svc_live_${crypto.randomUUID().replaceAll("-", "")}`
    const fire = (p: ServerProcess, n: number) =>
      Promise.all(Array.from({ length: n }, () => p.call("GET", `/v1/verify/${crypto.randomUUID()}`, { key: unknown })))
    const answers = (await Promise.all([fire(a, 61), fire(b, 61)])).flat()
    expect(answers.filter((r) => r.status === 401)).toHaveLength(120)
    expect(answers.filter((r) => r.status === 429)).toHaveLength(2)
  }, 90_000)

  it("20 concurrent starts with one Idempotency-Key over both processes: one SMS, one charge; every answer is the 200 (identical body) or 409 idempotency_in_progress", async () => {
    const { accountId, key } = await setup(1_000)
    const to = phone()
    const idem = `mp-${crypto.randomUUID()}`
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? a : b).call("POST", "/v1/verify/start", {
          key,
          body: { to },
          headers: { "idempotency-key": idem },
        })),
    )
    const ok = answers.filter((r) => r.status === 200)
    const busy = answers.filter((r) => r.status === 409)
    expect(ok.length + busy.length).toBe(20)
    expect(ok.length).toBeGreaterThanOrEqual(1)
    for (const r of ok) expect(r.body).toEqual(ok[0].body)
    expect(ok.filter((r) => r.headers.get("idempotent-replayed") === null)).toHaveLength(1)
    for (const r of busy) expect(r.body).toEqual({ error: "idempotency_in_progress" })

    expect(await smsCount(a, to)).toBe(1)
    expect(await smsCount(b, to)).toBe(1)
    expect(await ledger(accountId)).toEqual({ charges: 1, refunds: 0 })
    expect(await balance(accountId)).toBe(991)
    // ...and a later retry on either process replays.
    for (const p of both()) {
      const replay = await p.call("POST", "/v1/verify/start", {
        key,
        body: { to },
        headers: { "idempotency-key": idem },
      })
      expect(replay.headers.get("idempotent-replayed")).toBe("true")
      expect(replay.body).toEqual(ok[0].body)
    }
  })

  it('"Same key while the first is still running: `409 idempotency_in_progress`" — on the other process, while the first start waits for a row lock', async () => {
    const { accountId, key } = await setup(100)
    const to = phone()
    const idem = `mp-${crypto.randomUUID()}`
    const locker = await db.connect()
    await locker.query("BEGIN")
    // A start takes no lock on its application; the wallet's row is the last it takes.
    await locker.query("SELECT account_id FROM wallets WHERE account_id = $1 FOR UPDATE", [accountId])
    let first: Promise<{ status: number; body: any; headers: Headers }> | undefined
    try {
      first = a.call("POST", "/v1/verify/start", { key, body: { to }, headers: { "idempotency-key": idem } })
      // The first request claims the key, then waits for the wallet's row.
      const claimed = async () => (await q("SELECT state FROM idempotency WHERE key = $1", [idem])).length === 1
      for (let i = 0; i < 100 && !(await claimed()); i++) await new Promise((r) => setTimeout(r, 50))
      const second = await b.call("POST", "/v1/verify/start", {
        key,
        body: { to },
        headers: { "idempotency-key": idem },
      })
      expect(second.status).toBe(409)
      expect(second.body).toEqual({ error: "idempotency_in_progress" })
    } finally {
      await locker.query("COMMIT")
    }
    const original = await first!
    expect(original.status).toBe(200)
    const replay = await b.call("POST", "/v1/verify/start", { key, body: { to }, headers: { "idempotency-key": idem } })
    expect(replay.headers.get("idempotent-replayed")).toBe("true")
    expect(replay.body).toEqual(original.body)
    expect(await smsCount(a, to)).toBe(1)
  })

  it("10 concurrent correct checks over both processes: every answer says verified with attempts 1, and exactly one verification.verified event is in the outbox", async () => {
    const { key } = await setup(100)
    const to = phone()
    const started = await a.call("POST", "/v1/verify/start", { key, body: { to } })
    expect(started.status).toBe(200)
    const text: string = (await b.console("GET", `/simulator/sms?to=${encodeURIComponent(to)}`))[0].text
    const code = /\b\d{4,8}\b/.exec(text)![0]
    const answers = await Promise.all(
      Array.from(
        { length: 10 },
        (_, i) => (i % 2 === 0 ? a : b).call("POST", "/v1/verify/check", { key, body: { id: started.body.id, code } }),
      ),
    )
    for (const r of answers) {
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({ id: started.body.id, status: "verified", attempts: 1 })
    }
    const events = await q<{ event: string }>(
      "SELECT event FROM outbox_events WHERE data->>'id' = $1",
      [started.body.id],
    )
    expect(events.map((e) => e.event)).toEqual(["verification.verified"])
  })

  it("2N concurrent starts (N = 10) on a wallet holding N codes (90 halalas) over both processes: exactly N sends, N answered 402 insufficient_credits, and a zero balance", async () => {
    const N = 10
    const { accountId, key } = await setup(N * 9)
    const destinations = Array.from({ length: 2 * N }, () => phone())
    const answers = await Promise.all(
      destinations.map((to, i) => (i % 2 === 0 ? a : b).call("POST", "/v1/verify/start", { key, body: { to } })),
    )
    expect(answers.filter((r) => r.status === 200)).toHaveLength(N)
    const refused = answers.filter((r) => r.status !== 200)
    expect(refused).toHaveLength(N)
    for (const r of refused) expect(r.body).toMatchObject({ error: "insufficient_credits", price_halalas: 9 })

    const sent = await q<{ n: string }>('SELECT count(*) AS n FROM sim_sms WHERE "to" = ANY($1)', [destinations])
    expect(Number(sent[0].n)).toBe(N)
    let viaConsole = 0
    for (const to of destinations) viaConsole += await smsCount(a, to)
    expect(viaConsole).toBe(N)
    expect(await balance(accountId)).toBe(0)
    expect(await ledger(accountId)).toEqual({ charges: N, refunds: 0 })
  })

  it("9 concurrent resends of 9 codes over both processes, on a wallet affording 2 (five rounds): each round exactly 2 sent and charged, 7 answered 402 insufficient_credits, never a 5xx, and a zero balance", async () => {
    for (let round = 0; round < 5; round++) {
      const { accountId, key } = await setup((9 + 2) * 9)
      const destinations = Array.from({ length: 9 }, () => phone())
      const ids: Array<string> = []
      for (const [i, to] of destinations.entries()) {
        const started = await (i % 2 === 0 ? a : b).call("POST", "/v1/verify/start", { key, body: { to } })
        expect(started.status).toBe(200)
        ids.push(started.body.id)
      }
      const answers = await Promise.all(
        ids.map((id, i) => (i % 2 === 0 ? b : a).call("POST", `/v1/verify/${id}/resend`, { key, body: {} })),
      )
      expect(answers.map((r) => r.status).filter((st) => st !== 200 && st !== 402), `round ${round}`).toEqual([])
      expect(answers.filter((r) => r.status === 200)).toHaveLength(2)
      for (const r of answers.filter((r) => r.status === 402)) {
        expect(r.body).toMatchObject({ error: "insufficient_credits", price_halalas: 9 })
      }
      const sent = await q<{ n: string }>('SELECT count(*) AS n FROM sim_sms WHERE "to" = ANY($1)', [destinations])
      expect(Number(sent[0].n)).toBe(9 + 2)
      expect(await balance(accountId)).toBe(0)
      expect(await ledger(accountId)).toEqual({ charges: 9 + 2, refunds: 0 })
    }
  })

  it("64 concurrent starts to one destination over both processes, hourly_cap_per_destination 5: exactly 5 sent and charged, 59 answered 429 rate_limited", async () => {
    const { accountId, applicationId, key } = await setup(64 * 9)
    await a.console("PUT", `/applications/${applicationId}/verify-settings`, { hourly_cap_per_destination: 5 })
    const to = phone()
    const answers = await Promise.all(
      Array.from(
        { length: 64 },
        (_, i) => (i % 2 === 0 ? a : b).call("POST", "/v1/verify/start", { key, body: { to } }),
      ),
    )
    expect(answers.filter((r) => r.status === 200)).toHaveLength(5)
    const refused = answers.filter((r) => r.status !== 200)
    expect(refused).toHaveLength(59)
    for (const r of refused) {
      expect(r.status).toBe(429)
      expect(r.body).toEqual({ error: "rate_limited" })
    }
    expect(await smsCount(a, to)).toBe(5)
    expect(await ledger(accountId)).toEqual({ charges: 5, refunds: 0 })
    expect(await balance(accountId)).toBe(59 * 9)
  })

  it("settings changed through one process take effect on the next start in the other, whose sends were prepared on the old ones (code_length 4, then 8, then 5)", async () => {
    const { applicationId, key } = await setup(10 * 9)
    const codeOf = async (to: string) => {
      const [sms] = await a.console("GET", `/simulator/sms?to=${encodeURIComponent(to)}`)
      return /\b(\d+)\b/.exec(sms.text)![1]
    }
    for (const length of [4, 8, 5]) {
      await b.console("PUT", `/applications/${applicationId}/verify-settings`, { code_length: length })
      // Process a's starts: the first of each length after a change made through process b.
      for (let i = 0; i < 2; i++) {
        const to = phone()
        const started = await a.call("POST", "/v1/verify/start", { key, body: { to } })
        expect(started.status).toBe(200)
        const code = await codeOf(to)
        expect(code).toHaveLength(length)
        const checked = await b.call("POST", "/v1/verify/check", { key, body: { id: started.body.id, code } })
        expect(checked.body.status).toBe("verified")
      }
    }
  })

  it("64 concurrent starts of one application over both processes, daily_spend_cap_halalas 90: exactly 10 sent and charged, 54 answered 429 spend_cap_reached", async () => {
    const { accountId, applicationId, key } = await setup(64 * 9)
    await b.console("PUT", `/applications/${applicationId}/verify-settings`, { daily_spend_cap_halalas: 90 })
    const destinations = Array.from({ length: 64 }, () => phone())
    const answers = await Promise.all(
      destinations.map((to, i) => (i % 2 === 0 ? a : b).call("POST", "/v1/verify/start", { key, body: { to } })),
    )
    expect(answers.filter((r) => r.status === 200)).toHaveLength(10)
    const refused = answers.filter((r) => r.status !== 200)
    expect(refused).toHaveLength(54)
    for (const r of refused) expect(r.body).toEqual({ error: "spend_cap_reached" })
    const sent = await q<{ n: string }>('SELECT count(*) AS n FROM sim_sms WHERE "to" = ANY($1)', [destinations])
    expect(Number(sent[0].n)).toBe(10)
    expect(await ledger(accountId)).toEqual({ charges: 10, refunds: 0 })
    expect(await balance(accountId)).toBe(64 * 9 - 90)
  })
})
