/**
 * Role-limited facts on every read (DECISIONS 11, 18), over HTTP, on memory, PGlite and PostgreSQL (when
 * DATABASE_URL is set). An owner asks for a proforma (an audit entry whose input carries `amount_halalas` and a
 * buyer), then, with `wallet.proformas.create` in the approval policy, asks again (a pending approval with the
 * same kind of input), which the console approves and the owner resends (an entry naming the approval).
 */
import { describe, expect, it } from "vitest"
import { setupApplication, type TestServer, usePostgresServer, useServer } from "../support/server.ts"

const buyer = { name: "شركة أكمي Acme Trading", vat_number: "300000000000003", address: "Riyadh, King Fahd Road" }
/** What an agent's answer never contains, in any form. */
const hidden = [/_halalas/, /Acme/, /300000000000003/, /King Fahd/]

const tokenOf = async (server: TestServer, account: string, body: Record<string, unknown>) =>
  (await server.console("POST", `/accounts/${account}/account-tokens`, body)).token as string

/** An account with an owner's, an admin's and an agent's tokens, an audit record and a pending approval. */
const scene = async (s: TestServer) => {
  const { account } = await setupApplication(s)
  const owner = await tokenOf(s, account.id, { role: "owner", email: "owner@shop.sa" })
  const admin = await tokenOf(s, account.id, { role: "admin", email: "admin@shop.sa" })
  const agent = await tokenOf(s, account.id, { role: "agent", email: "agent@shop.sa" })
  // The simulated clock stands still: a second between writes orders the audit record (newest first).
  const tick = () => s.call("POST", "/console/v1/simulator/clock", { key: s.consoleToken, body: { advance_ms: 1_000 } })
  const proforma = async (amount: number) => {
    await tick()
    return s.call("POST", "/v1/account/wallet/proformas", { key: owner, body: { amount_halalas: amount, buyer } })
  }
  expect((await proforma(5_000)).status).toBe(201)
  await tick()
  expect((await s.call("POST", "/v1/account/wallet/topups", { key: owner, body: { amount_halalas: 2_000 } })).status)
    .toBe(201)
  await s.console("PUT", `/accounts/${account.id}/approval-policy`, { operations: ["wallet.proformas.create"] })
  const asked = await proforma(7_000)
  expect(asked.status).toBe(428)
  const used: string = asked.body.approval.id
  await s.console("POST", `/approvals/${used}/approve`, {})
  expect((await proforma(7_000)).status).toBe(201)
  const pending = await proforma(9_000)
  expect(pending.status).toBe(428)
  return { owner, admin, agent, used, pending: pending.body.approval.id as string }
}

const expectNothingHidden = (body: unknown) => {
  const text = JSON.stringify(body)
  for (const h of hidden) expect(text).not.toMatch(h)
}

const rule = (server: () => TestServer) => () => {
  it("an agent reading an approval (GET /v1/approvals/{id}) sees its input without amounts or the buyer's name, address and VAT number; otherwise the same", async () => {
    const s = server()
    const { admin, agent, owner, pending } = await scene(s)
    const full = await s.call("GET", `/v1/approvals/${pending}`, { key: owner })
    expect(full.status).toBe(200)
    expect(full.body.data.input.body).toEqual({ amount_halalas: 9_000, buyer })
    expect((await s.call("GET", `/v1/approvals/${pending}`, { key: admin })).body).toEqual(full.body)
    const limited = await s.call("GET", `/v1/approvals/${pending}`, { key: agent })
    expect(limited.status).toBe(200)
    expect(limited.body).toEqual({
      data: { ...full.body.data, input: { ...full.body.data.input, body: { buyer: {} } } },
    })
    expectNothingHidden(limited.body)
  })

  it("the same by name (POST /v1/operations/approvals.show) as by route, for the agent and the owner", async () => {
    const s = server()
    const { agent, owner, pending } = await scene(s)
    for (const key of [agent, owner]) {
      const byRoute = await s.call("GET", `/v1/approvals/${pending}`, { key })
      const byName = await s.call("POST", "/v1/operations/approvals.show", { key, body: { id: pending } })
      expect(byName.status).toBe(200)
      expect(byName.body).toEqual(byRoute.body)
    }
    expectNothingHidden(
      (await s.call("POST", "/v1/operations/approvals.show", { key: agent, body: { id: pending } })).body,
    )
  })

  it("an agent reading the audit log (GET /v1/account/audit) sees the entries without amounts or a buyer's identity; the same ids, order and other fields", async () => {
    const s = server()
    const { admin, agent, owner, used } = await scene(s)
    const full = await s.call("GET", "/v1/account/audit", { key: owner })
    expect(full.status).toBe(200)
    const entries: Array<{ action: string; details: { input: { body: unknown }; approval?: string } }> = full.body.data
    expect(entries.map((e) => e.action)).toEqual([
      "wallet.proformas.create",
      "wallet.topups.link",
      "wallet.proformas.create",
    ])
    expect(entries[0].details).toMatchObject({ input: { body: { amount_halalas: 7_000, buyer } }, approval: used })
    expect((await s.call("GET", "/v1/account/audit", { key: admin })).body).toEqual(full.body)
    const limited = await s.call("GET", "/v1/account/audit", { key: agent })
    expect(limited.status).toBe(200)
    const bodyWithout = (b: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(b).filter(([k]) => !k.endsWith("_halalas")).map((
          [k, v],
        ) => [k, k === "buyer" ? {} : v]),
      )
    expect(limited.body).toEqual({
      data: entries.map((e) => ({
        ...e,
        details: { ...e.details, input: { ...e.details.input, body: bodyWithout(e.details.input.body as never) } },
      })),
      next_cursor: null,
    })
    expect(limited.body.data[0].details).toEqual({
      input: { path: {}, query: {}, body: { buyer: {} } },
      approval: used,
    })
    expect(limited.body.data[1].details.input.body).toEqual({})
    expectNothingHidden(limited.body)
  })

  it("the agent's audit pages (limit=1, cursor) hold the owner's entries, in the owner's order, by route and by name", async () => {
    const s = server()
    const { agent, owner } = await scene(s)
    const pages = async (key: string, byName: boolean) => {
      const ids: Array<string> = []
      let cursor: string | null = null
      do {
        const res: { status: number; body: { data: Array<{ id: string }>; next_cursor: string | null } } = byName
          ? await s.call("POST", "/v1/operations/account.audit.list", {
            key,
            body: cursor === null ? { limit: 1 } : { limit: 1, cursor },
          })
          : await s.call("GET", `/v1/account/audit?limit=1${cursor === null ? "" : `&cursor=${cursor}`}`, { key })
        expect(res.status).toBe(200)
        expectNothingHidden(key === agent ? res.body : {})
        ids.push(...res.body.data.map((e) => e.id))
        cursor = res.body.next_cursor
      } while (cursor !== null)
      return ids
    }
    const ownerIds = await pages(owner, false)
    expect(ownerIds).toHaveLength(3)
    expect(await pages(agent, false)).toEqual(ownerIds)
    expect(await pages(agent, true)).toEqual(ownerIds)
    const byName = await s.call("POST", "/v1/operations/account.audit.list", { key: agent, body: {} })
    expect(byName.body).toEqual((await s.call("GET", "/v1/account/audit", { key: agent })).body)
  })
}

const title =
  "DECISIONS 18: role-limited facts stay limited everywhere: an agent reading the audit log or an approval " +
  "sees neither amounts (`*_halalas`) nor a buyer's name, address or VAT number; the entries and approvals are " +
  "otherwise the same"

describe(title, () => {
  describe("on memory", () => {
    const s = useServer()
    describe("reads", rule(() => s))
  })

  describe("on PGlite", () => {
    const s = useServer({ store: "sql", pgliteDir: "memory://" })
    describe("reads", rule(() => s))
  })

  const databaseUrl = process.env.DATABASE_URL
  describe.runIf(databaseUrl !== undefined)("on PostgreSQL (DATABASE_URL)", () => {
    const s = usePostgresServer(databaseUrl!)
    describe("reads", rule(() => s))
  })
})
