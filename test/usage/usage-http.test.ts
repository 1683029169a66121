/**
 * `GET /v1/clients/usage` (`clients.usage.show`) over HTTP, as DECISIONS 10, 11, 12 and 16 pin it. Traffic is
 * made with live, test, partner and partner-test keys; +966500000001 is refused by the SMS simulator (and
 * refunded); the simulated clock moves through the console where time matters.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { AccountId } from "../../core/shared/brands.ts"
import { DAY_MS, riyadhDay, riyadhMonth, riyadhMonthStart } from "../../core/shared/riyadh.ts"
import { WalletRepo } from "../../ports/store/wallet.ts"
import { latestCode, type TestServer, useServer } from "../support/server.ts"

let seq = 0
const fresh = () => `+9665541${String(++seq).padStart(5, "0")}`
const refusedNumber = "+966500000001"

const tools = (s: TestServer) => {
  const token = async (accountId: string, role: "owner" | "admin" | "agent" = "owner"): Promise<string> =>
    (await s.console("POST", `/accounts/${accountId}/account-tokens`, { role })).token
  const usage = (key: string, query = "") => s.call("GET", `/v1/clients/usage${query}`, { key })
  /** A code started (and verified when asked) with `key`; partner keys name `application`. */
  const code = async (key: string, opts: { verify?: boolean; application?: string; to?: string } = {}) => {
    const to = opts.to ?? fresh()
    const extra = opts.application === undefined ? {} : { application: opts.application }
    const started = await s.call("POST", "/v1/verify/start", { key, body: { to, ...extra } })
    expect(started.status).toBe(200)
    if (opts.verify) {
      const checked = await s.call("POST", "/v1/verify/check", {
        key,
        body: { id: started.body.id, code: await latestCode(s, to), ...extra },
      })
      expect(checked.body.status).toBe("verified")
    }
    return started.body.id as string
  }
  const account = async (opts: { partner?: boolean; balance?: number } = {}) => {
    const a = await s.console("POST", "/accounts", { name: "Merchant", partner: opts.partner ?? false })
    await s.console("POST", `/accounts/${a.id}/wallet/credit`, { amount_halalas: opts.balance ?? 10_000 })
    return a.id as string
  }
  const app = async (accountId: string, name = "Shop", externalId?: string) =>
    await s.console("POST", `/accounts/${accountId}/applications`, {
      name,
      approved: true,
      ...(externalId === undefined ? {} : { external_id: externalId }),
    })
  const key = async (applicationId: string, mode: "live" | "test" = "live"): Promise<string> =>
    (await s.console("POST", `/applications/${applicationId}/keys`, { mode })).key
  const partnerKey = async (accountId: string, mode: "partner" | "partner_test"): Promise<string> =>
    (await s.console("POST", `/accounts/${accountId}/keys`, { mode })).key
  const clock = async (advanceMs = 0): Promise<number> =>
    (await s.call("POST", "/console/v1/simulator/clock", { key: s.consoleToken, body: { advance_ms: advanceMs } }))
      .body.data.now_ms
  const balance = (accountId: string) =>
    s.platform.runtime.runPromise(Effect.flatMap(WalletRepo, (w) => w.balance(accountId as AccountId)))
  return { token, usage, code, account, app, key, partnerKey, clock, balance }
}

describe('DECISIONS 12: "Live and partner modes: `codes_sent` charged SMS, `codes_verified` verifications verified, `cost_halalas` charges less refunds"', () => {
  const s = useServer()
  const t = tools(s)

  it("live starts and resends count; test-key sends, refused (refunded) sends and unverified codes do not", async () => {
    const accountId = await t.account()
    const shop = await t.app(accountId, "Corner Shop", "corner-1")
    const live = await t.key(shop.id)
    const first = await t.code(live, { verify: true })
    await t.code(live, { verify: true })
    await t.code(live)
    expect((await s.call("POST", `/v1/verify/${first}/resend`, { key: live, body: {} })).status).toBe(409)
    const pending = await t.code(live)
    expect((await s.call("POST", `/v1/verify/${pending}/resend`, { key: live, body: {} })).status).toBe(200)
    // Refused by the network: refunded, as if never attempted (a start, and a resend of a pending code).
    const refused = await s.call("POST", "/v1/verify/start", { key: live, body: { to: refusedNumber } })
    expect(refused.status).toBe(502)
    // Test keys send free to proven numbers: never counted, even verified.
    const proven = fresh()
    await s.console("POST", `/accounts/${accountId}/sandbox-destinations`, { to: proven })
    const test = await t.key(shop.id, "test")
    await t.code(test, { verify: true, to: proven })

    const res = await t.usage(await t.token(accountId))
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      data: {
        period: expect.any(Object),
        price_per_code_halalas: 9,
        rows: [{
          application_id: shop.id,
          external_id: "corner-1",
          name: "Corner Shop",
          codes_sent: 5,
          codes_verified: 2,
          cost_halalas: 45,
        }],
        totals: { applications: 1, codes_sent: 5, codes_verified: 2, cost_halalas: 45 },
      },
      next_cursor: null,
    })
    // Charges less refunds: what left the wallet.
    expect(10_000 - await t.balance(accountId)).toBe(45)
  })

  it("a refused start after a charged one is refunded and not counted; the charged one still is", async () => {
    const accountId = await t.account()
    const shop = await t.app(accountId)
    const live = await t.key(shop.id)
    await s.console("PUT", `/applications/${shop.id}/verify-settings`, { hourly_cap_per_destination: 10 })
    const started = await s.call("POST", "/v1/verify/start", { key: live, body: { to: "+966500000002" } })
    expect(started.status).toBe(200)
    const res = await t.usage(await t.token(accountId))
    expect(res.body.data.totals).toEqual({ applications: 1, codes_sent: 1, codes_verified: 0, cost_halalas: 9 })
    expect(10_000 - await t.balance(accountId)).toBe(9)
    const refused = await s.call("POST", "/v1/verify/start", { key: live, body: { to: refusedNumber } })
    expect(refused.status).toBe(502)
    expect((await t.usage(await t.token(accountId))).body.data.totals.codes_sent).toBe(1)
    expect(10_000 - await t.balance(accountId)).toBe(9)
  })

  it("an account with no live or partner traffic has no rows and zero totals", async () => {
    const accountId = await t.account()
    const shop = await t.app(accountId)
    const proven = fresh()
    await s.console("POST", `/accounts/${accountId}/sandbox-destinations`, { to: proven })
    await t.code(await t.key(shop.id, "test"), { verify: true, to: proven })
    const res = await t.usage(await t.token(accountId))
    expect(res.body.data.rows).toEqual([])
    expect(res.body.data.totals).toEqual({ applications: 0, codes_sent: 0, codes_verified: 0, cost_halalas: 0 })
    expect(res.body.next_cursor).toBeNull()
  })
})

describe('DECISIONS 16: "Any account reads the usage of its own applications; a partner account\'s rows are its clients"', () => {
  const s = useServer()
  const t = tools(s)

  it("a partner's rows are its client applications (partner keys count, partner-test keys do not)", async () => {
    const accountId = await t.account({ partner: true })
    const north = await t.app(accountId, "North Store", "merchant-north")
    const south = await t.app(accountId, "South Store", "merchant-south")
    const partner = await t.partnerKey(accountId, "partner")
    const partnerTest = await t.partnerKey(accountId, "partner_test")
    await t.code(partner, { application: north.id, verify: true })
    await t.code(partner, { application: "merchant-north" })
    await t.code(partner, { application: "merchant-south", verify: true })
    const proven = fresh()
    await s.console("POST", `/accounts/${accountId}/sandbox-destinations`, { to: proven })
    await t.code(partnerTest, { application: south.id, verify: true, to: proven })
    await t.code(partnerTest, { application: north.id, verify: true, to: proven })
    const res = await t.usage(await t.token(accountId))
    expect(res.status).toBe(200)
    expect(res.body.data.rows).toEqual([
      {
        application_id: north.id,
        external_id: "merchant-north",
        name: "North Store",
        codes_sent: 2,
        codes_verified: 1,
        cost_halalas: 18,
      },
      {
        application_id: south.id,
        external_id: "merchant-south",
        name: "South Store",
        codes_sent: 1,
        codes_verified: 1,
        cost_halalas: 9,
      },
    ])
    expect(res.body.data.totals).toEqual({ applications: 2, codes_sent: 3, codes_verified: 2, cost_halalas: 27 })
  })

  it("another account's applications never appear; an API key is 401 unauthorized", async () => {
    const mine = await t.account()
    const theirs = await t.account()
    const myShop = await t.app(mine)
    const theirShop = await t.app(theirs)
    await t.code(await t.key(myShop.id))
    const theirKey = await t.key(theirShop.id)
    await t.code(theirKey)
    await t.code(theirKey)
    const res = await t.usage(await t.token(mine))
    expect(res.body.data.rows.map((r: { application_id: string }) => r.application_id)).toEqual([myShop.id])
    expect(res.body.data.totals.applications).toBe(1)
    const withKey = await t.usage(theirKey)
    expect(withKey.status).toBe(401)
    expect(withKey.body.error).toBe("unauthorized")
  })
})

describe('DECISIONS 16: "Usage rows: busiest is most `codes_sent`; ties by `cost_halalas`, then `application_id`"; "totals of all matching rows"', () => {
  const s = useServer()
  const t = tools(s)

  it("busiest first, ties by application id; pages by limit and cursor, each page with the totals of every row", async () => {
    const accountId = await t.account()
    const quiet = await t.app(accountId, "Quiet")
    const busy = await t.app(accountId, "Busy")
    const tiedA = await t.app(accountId, "Tied A")
    const tiedB = await t.app(accountId, "Tied B")
    for (let i = 0; i < 1; i++) await t.code(await t.key(quiet.id))
    const busyKey = await t.key(busy.id)
    for (let i = 0; i < 4; i++) await t.code(busyKey, { verify: i < 3 })
    for (const app of [tiedA, tiedB]) {
      const key = await t.key(app.id)
      await t.code(key)
      await t.code(key)
    }
    const tied = [tiedA.id, tiedB.id].sort()
    const order = [busy.id, ...tied, quiet.id]
    const token = await t.token(accountId)
    const all = await t.usage(token)
    expect(all.body.data.rows.map((r: { application_id: string }) => r.application_id)).toEqual(order)
    const totals = { applications: 4, codes_sent: 9, codes_verified: 3, cost_halalas: 81 }
    expect(all.body.data.totals).toEqual(totals)
    expect(all.body.next_cursor).toBeNull()

    const one = await t.usage(token, "?limit=3")
    expect(one.body.data.rows.map((r: { application_id: string }) => r.application_id)).toEqual(order.slice(0, 3))
    expect(one.body.data.totals).toEqual(totals)
    expect(typeof one.body.next_cursor).toBe("string")
    const two = await t.usage(token, `?limit=3&cursor=${encodeURIComponent(one.body.next_cursor)}`)
    expect(two.status).toBe(200)
    expect(two.body.data.rows.map((r: { application_id: string }) => r.application_id)).toEqual(order.slice(3))
    expect(two.body.data.totals).toEqual(totals)
    expect(two.body.next_cursor).toBeNull()
  })

  it('DECISIONS 10: "`limit` 1-100, default 20": 21 busy applications answer 20 rows and a next_cursor', async () => {
    const accountId = await t.account()
    for (let i = 0; i < 21; i++) await t.code(await t.key((await t.app(accountId, `Shop ${i}`)).id))
    const token = await t.token(accountId)
    const first = await t.usage(token)
    expect(first.body.data.rows).toHaveLength(20)
    expect(first.body.data.totals.applications).toBe(21)
    const rest = await t.usage(token, `?cursor=${encodeURIComponent(first.body.next_cursor)}`)
    expect(rest.body.data.rows).toHaveLength(1)
    expect(rest.body.next_cursor).toBeNull()
    const ids = [...first.body.data.rows, ...rest.body.data.rows].map((r: { application_id: string }) =>
      r.application_id
    )
    expect(new Set(ids).size).toBe(21)
    expect((await t.usage(token, "?limit=100")).body.data.rows).toHaveLength(21)
  })
})

describe('DECISIONS 11: "money (usage `*_halalas`, absent for agents): owner, admin"', () => {
  const s = useServer()
  const t = tools(s)

  it("an agent reads counts without cost_halalas or price_per_code_halalas; owner and admin see them", async () => {
    const accountId = await t.account()
    const shop = await t.app(accountId)
    await t.code(await t.key(shop.id), { verify: true })
    for (const role of ["owner", "admin"] as const) {
      const res = await t.usage(await t.token(accountId, role))
      expect(res.body.data.price_per_code_halalas).toBe(9)
      expect(res.body.data.rows[0].cost_halalas).toBe(9)
      expect(res.body.data.totals.cost_halalas).toBe(9)
    }
    const agent = await t.usage(await t.token(accountId, "agent"))
    expect(agent.status).toBe(200)
    expect(agent.body.data).not.toHaveProperty("price_per_code_halalas")
    expect(agent.body.data.rows).toEqual([{
      application_id: shop.id,
      external_id: null,
      name: "Shop",
      codes_sent: 1,
      codes_verified: 1,
    }])
    expect(agent.body.data.totals).toEqual({ applications: 1, codes_sent: 1, codes_verified: 1 })
  })

  it("an agent's cursor carries no money either (only the last row's application id)", async () => {
    const accountId = await t.account()
    for (let i = 0; i < 2; i++) await t.code(await t.key((await t.app(accountId, `Shop ${i}`)).id))
    const res = await t.usage(await t.token(accountId, "agent"), "?limit=1")
    const cursor: string = res.body.next_cursor
    const payload = Buffer.from(cursor.slice(0, cursor.lastIndexOf(".")), "base64url").toString()
    expect(JSON.parse(payload)[2]).toEqual([res.body.data.rows[0].application_id])
  })
})

describe('DECISIONS 12: "`q`: part of name or `external_id`, any case, or an id"', () => {
  const s = useServer()
  const t = tools(s)

  it("q narrows the rows and the totals to the matching applications", async () => {
    const accountId = await t.account({ partner: true })
    const riyadh = await t.app(accountId, "Riyadh Dates", "RYD-001")
    const jeddah = await t.app(accountId, "Jeddah Coffee", "jed-002")
    const partner = await t.partnerKey(accountId, "partner")
    await t.code(partner, { application: riyadh.id })
    await t.code(partner, { application: jeddah.id })
    await t.code(partner, { application: jeddah.id })
    const token = await t.token(accountId)
    const names = async (q: string) => {
      const res = await t.usage(token, `?q=${encodeURIComponent(q)}`)
      expect(res.status).toBe(200)
      return [res.body.data.rows.map((r: { name: string }) => r.name), res.body.data.totals.codes_sent]
    }
    expect(await names("dates")).toEqual([["Riyadh Dates"], 1])
    expect(await names("COFFEE")).toEqual([["Jeddah Coffee"], 2])
    expect(await names("ryd-0")).toEqual([["Riyadh Dates"], 1])
    expect(await names("00")).toEqual([["Jeddah Coffee", "Riyadh Dates"], 3])
    expect(await names(riyadh.id)).toEqual([["Riyadh Dates"], 1])
    expect(await names(riyadh.id.toUpperCase())).toEqual([["Riyadh Dates"], 1])
    expect(await names("nowhere")).toEqual([[], 0])
    expect(await names("")).toEqual([["Jeddah Coffee", "Riyadh Dates"], 3])
  })

  it("q of at most 100 characters (code points); longer is 400 too_long", async () => {
    const token = await t.token(await t.account())
    expect((await t.usage(token, `?q=${encodeURIComponent("🌴".repeat(100))}`)).status).toBe(200)
    const res = await t.usage(token, `?q=${"a".repeat(101)}`)
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({
      error: "invalid_request",
      errors: { q: "too_long" },
      fields: { q: expect.any(String) },
    })
    expect((await t.usage(token, "?q=a%00b")).body.errors).toEqual({ q: "invalid" })
  })
})

describe('DECISIONS 10: "Lists `{ data, next_cursor }`: `limit` 1-100, default 20; `cursor` = a `next_cursor`; a bad one: 400"', () => {
  const s = useServer()
  const t = tools(s)

  it("limit outside 1-100 or not a whole number is 400 invalid", async () => {
    const token = await t.token(await t.account())
    for (const limit of ["0", "101", "1.5", "ten", "-1", ""]) {
      const res = await t.usage(token, `?limit=${limit}`)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ error: "invalid_request", errors: { limit: "invalid" } })
    }
    expect((await t.usage(token, "?limit=1")).status).toBe(200)
    expect((await t.usage(token, "?limit=100")).status).toBe(200)
  })

  it("a forged cursor, another account's, or one of another period or q is 400 (errors.cursor)", async () => {
    const mine = await t.account()
    const theirs = await t.account()
    for (const accountId of [mine, theirs]) {
      for (let i = 0; i < 2; i++) await t.code(await t.key((await t.app(accountId, `Shop ${i}`)).id))
    }
    const myToken = await t.token(mine)
    const theirCursor = (await t.usage(await t.token(theirs), "?limit=1")).body.next_cursor
    const myCursor: string = (await t.usage(myToken, "?limit=1")).body.next_cursor
    const refused = async (query: string) => {
      const res = await t.usage(myToken, query)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ error: "invalid_request", errors: { cursor: "invalid" } })
    }
    await refused(`?cursor=${encodeURIComponent(theirCursor)}`)
    await refused(`?cursor=${encodeURIComponent(myCursor.slice(0, -1) + (myCursor.endsWith("a") ? "b" : "a"))}`)
    await refused("?cursor=not-a-cursor")
    await refused(`?q=shop&cursor=${encodeURIComponent(myCursor)}`)
    const forged = Buffer.from(JSON.stringify(["clients.usage", mine, ["x"]])).toString("base64url")
    await refused(`?cursor=${forged}.0123456789abcdef0123456789abcdef`)
    expect((await t.usage(myToken, `?limit=1&cursor=${encodeURIComponent(myCursor)}`)).status).toBe(200)
  })

  it('DECISIONS 10: "Unknown input properties: 400, code `unknown`"; a parameter given twice is 400 invalid', async () => {
    const token = await t.token(await t.account())
    const res = await t.usage(token, "?month_=2026-01&page=2")
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ error: "invalid_request", errors: { month_: "unknown", page: "unknown" } })
    expect(typeof res.body.message).toBe("string")
    const twice = await t.usage(token, "?limit=1&limit=2")
    expect(twice.status).toBe(400)
    expect(twice.body.errors).toEqual({ limit: "invalid" })
  })
})

describe('DECISIONS 12: "`month` (this or the two before; default this) or `from`+`to` (inclusive, within those months, up to today); else 400"', () => {
  const s = useServer()
  const t = tools(s)

  it("traffic stays in its Riyadh month: a month later it is read with `month` or `from`/`to`, not by default", async () => {
    const accountId = await t.account()
    const shop = await t.app(accountId)
    const live = await t.key(shop.id)
    const token = await t.token(accountId)
    const start = await t.clock()
    const thisMonth = riyadhMonth(start)
    const byDefault = await t.usage(token)
    expect(byDefault.body.data.period).toEqual({
      from: `${thisMonth}-01`,
      to: riyadhDay(riyadhMonthStart(riyadhMonthStart(start) + 32 * DAY_MS) - 1),
      month: thisMonth,
    })
    await t.code(live, { verify: true })
    const sentDay = riyadhDay(start)
    // The last Riyadh millisecond of this month (20:59:59.999 UTC on its last day) still counts in it …
    const nextMonthStart = riyadhMonthStart(riyadhMonthStart(start) + 32 * DAY_MS)
    expect(await t.clock(nextMonthStart - 1 - start)).toBe(nextMonthStart - 1)
    await t.code(live)
    // … and 21:00 UTC is the first of the next month.
    const now = await t.clock(1)
    expect(now).toBe(nextMonthStart)
    expect(new Date(now).getUTCHours()).toBe(21)
    const nextMonth = riyadhMonth(now)
    await t.code(live)
    await t.code(live)

    const current = await t.usage(token)
    expect(current.body.data.period.month).toBe(nextMonth)
    expect(current.body.data.totals).toMatchObject({ codes_sent: 2, codes_verified: 0, cost_halalas: 18 })
    const previous = await t.usage(token, `?month=${thisMonth}`)
    expect(previous.body.data.period).toMatchObject({ from: `${thisMonth}-01`, month: thisMonth })
    expect(previous.body.data.totals).toMatchObject({ codes_sent: 2, codes_verified: 1, cost_halalas: 18 })
    const range = await t.usage(token, `?from=${sentDay}&to=${riyadhDay(now)}`)
    expect(range.body.data.period).toEqual({ from: sentDay, to: riyadhDay(now), month: null })
    expect(range.body.data.totals).toMatchObject({ codes_sent: 4, codes_verified: 1, cost_halalas: 36 })
    const firstDay = await t.usage(token, `?from=${riyadhDay(now)}&to=${riyadhDay(now)}`)
    expect(firstDay.body.data.totals).toMatchObject({ codes_sent: 2 })
    const lastDay = riyadhDay(nextMonthStart - 1)
    const oneDay = await t.usage(token, `?from=${lastDay}&to=${lastDay}`)
    expect(oneDay.body.data.totals).toMatchObject({ codes_sent: lastDay === sentDay ? 2 : 1 })

    // Two months on, the traffic's month is still readable; three months on it is out of range.
    const twoOn = riyadhMonthStart(riyadhMonthStart(now) + 32 * DAY_MS)
    await t.clock(twoOn - now)
    expect((await t.usage(token, `?month=${thisMonth}`)).body.data.totals.codes_sent).toBe(2)
    const threeOn = riyadhMonthStart(twoOn + 32 * DAY_MS)
    await t.clock(threeOn - twoOn)
    const tooOld = await t.usage(token, `?month=${thisMonth}`)
    expect(tooOld.status).toBe(400)
    expect(tooOld.body).toMatchObject({ error: "invalid_request", errors: { month: "out_of_range" } })
  })

  it("anything else is 400 invalid_request naming the field", async () => {
    const token = await t.token(await t.account())
    const now = await t.clock()
    const today = riyadhDay(now)
    const tomorrow = riyadhDay(now + DAY_MS)
    const month = riyadhMonth(now)
    const cases: ReadonlyArray<[string, Record<string, string>]> = [
      [`?month=${month}&from=${today}&to=${today}`, { month: "conflict" }],
      [`?from=${today}`, { to: "required" }],
      [`?to=${today}`, { from: "required" }],
      [`?from=${today}&to=${tomorrow}`, { to: "out_of_range" }],
      [`?from=${riyadhDay(riyadhMonthStart(now) - 1)}&to=${today}`, {}],
      [`?month=2026-13`, { month: "invalid" }],
      [`?month=2026-1`, { month: "invalid" }],
      [`?from=2026-02-30&to=${today}`, { from: "invalid" }],
      [`?from=${today}&to=${riyadhDay(riyadhMonthStart(now) - 1)}`, { from: "after_to" }],
    ]
    for (const [query, errors] of cases) {
      const res = await t.usage(token, query)
      if (Object.keys(errors).length === 0) {
        expect(res.status, query).toBe(200)
        continue
      }
      expect(res.status, query).toBe(400)
      expect(res.body, query).toMatchObject({ error: "invalid_request", errors, fields: expect.any(Object) })
      expect(Object.keys(res.body.errors), query).toEqual(Object.keys(errors))
    }
  })
})

describe('DECISIONS 10: "Call by name: `POST /operations/{name}`, body = the input object, answers as the route would"', () => {
  const s = useServer()
  const t = tools(s)

  it("clients.usage.show is in the catalogue for every role, and answers by name as by route", async () => {
    const accountId = await t.account()
    for (let i = 0; i < 2; i++) await t.code(await t.key((await t.app(accountId, `Shop ${i}`)).id))
    const token = await t.token(accountId, "agent")
    const listed = await s.call("GET", "/v1/operations?limit=100", { key: token })
    const row = listed.body.data.find((r: { name: string }) => r.name === "clients.usage.show")
    expect(row).toMatchObject({
      name: "clients.usage.show",
      method: "GET",
      path: "/v1/clients/usage",
      output: expect.any(String),
      requires_approval: false,
      idempotent: true,
      roles: ["owner", "admin", "agent"],
    })
    const now = await t.clock()
    const byRoute = await t.usage(token, `?month=${riyadhMonth(now)}&limit=1`)
    const byName = await s.call("POST", "/v1/operations/clients.usage.show", {
      key: token,
      body: { month: riyadhMonth(now), limit: 1 },
    })
    expect(byName.status).toBe(200)
    expect(byName.body.data).toEqual(byRoute.body.data)
    expect(typeof byName.body.next_cursor).toBe("string")
    const unknown = await s.call("POST", "/v1/operations/clients.usage.show", { key: token, body: { page: 2 } })
    expect(unknown.status).toBe(400)
    expect(unknown.body.errors).toEqual({ page: "unknown" })
  })
})
