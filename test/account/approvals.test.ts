/**
 * Roles and approvals of the account API (DECISIONS 10, 11, 14, 16), over HTTP. `applications.unpause` is
 * in every account's default policy, so it is the operation these tests ask approvals for.
 */
import { describe, expect, it } from "vitest"
import { setupApplication, type TestServer, usePostgresServer, useServer } from "../support/server.ts"

const s = useServer()
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

const tokenOf = async (server: TestServer, account: string, body: Record<string, unknown> = {}) =>
  (await server.console("POST", `/accounts/${account}/account-tokens`, body)).token as string

/** An account with an application and an owner's token. */
const setup = async (server: TestServer = s) => {
  const { account, app } = await setupApplication(server)
  return { account, app, token: await tokenOf(server, account.id) }
}

const unpause = (server: TestServer, app: string, token: string, headers: Record<string, string> = {}, body = {}) =>
  server.call("POST", `/v1/applications/${app}/unpause`, { key: token, body, headers })

const advance = (server: TestServer, ms: number) =>
  server.call("POST", "/console/v1/simulator/clock", { key: server.consoleToken, body: { advance_ms: ms } })

describe("DECISIONS 11: roles — writes, `wallet.*` and money for owner and admin; other reads for all", () => {
  it("an agent's token on a write answers 403 insufficient_role with needs [role:owner, role:admin]", async () => {
    const { account, app } = await setup()
    const agent = await tokenOf(s, account.id, { role: "agent", email: "agent@shop.sa" })
    const res = await unpause(s, app.id, agent)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({
      error: "insufficient_role",
      message: expect.any(String),
      needs: ["role:owner", "role:admin"],
    })
    const wallet = await s.call("GET", "/v1/account/wallet", { key: agent })
    expect(wallet.status).toBe(403)
    expect(wallet.body.needs).toEqual(["role:owner", "role:admin"])
  })

  it("an agent reads what every role reads (the applications, the catalogue, the audit record)", async () => {
    const { account, app } = await setup()
    const agent = await tokenOf(s, account.id, { role: "agent" })
    const apps = await s.call("GET", "/v1/applications", { key: agent })
    expect(apps.status).toBe(200)
    expect(apps.body.data.map((a: { id: string }) => a.id)).toContain(app.id)
    expect((await s.call("GET", "/v1/operations", { key: agent })).status).toBe(200)
    expect((await s.call("GET", "/v1/account/audit", { key: agent })).status).toBe(200)
  })

  it("insufficient_role comes before 404 not_found and before the input's 400 (order of checks)", async () => {
    const { account } = await setup()
    const agent = await tokenOf(s, account.id, { role: "agent" })
    const res = await s.call("POST", `/v1/applications/${crypto.randomUUID()}/unpause`, {
      key: agent,
      body: { unexpected: 1 },
    })
    expect(res.body.error).toBe("insufficient_role")
  })

  it("DECISIONS 14: a console token takes { role, email, manage_contacts }; a revoked person's token is 401", async () => {
    const { account } = await setup()
    const made = await s.console("POST", `/accounts/${account.id}/account-tokens`, {
      role: "admin",
      email: "sara@shop.sa",
      manage_contacts: false,
    })
    expect(made).toMatchObject({ role: "admin", email: "sara@shop.sa", manage_contacts: false })
    expect(made.member_id).toMatch(UUID)
    const again = await s.console("POST", `/accounts/${account.id}/account-tokens`, {
      role: "admin",
      email: "sara@shop.sa",
    })
    expect(again.member_id).toBe(made.member_id) // the same person
    await s.console("DELETE", `/keys/${made.id}`)
    expect((await s.call("GET", "/v1/applications", { key: made.token })).status).toBe(401)
    const bad = await s.call("POST", `/console/v1/accounts/${account.id}/account-tokens`, {
      key: s.consoleToken,
      body: { role: "superuser", email: "not an address" },
    })
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.body.fields).sort()).toEqual(["email", "role"])
  })
})

describe("DECISIONS 11: 428 approval_required stores nothing and runs nothing; the approval is bound to op, input and key", () => {
  it("the 428 body: needs, approval, next → approvals.show, human_action with the console URL", async () => {
    const { app, token } = await setup()
    const res = await unpause(s, app.id, token)
    expect(res.status).toBe(428)
    const id = res.body.approval.id
    expect(id).toMatch(UUID)
    expect(res.body).toEqual({
      error: "approval_required",
      message: expect.any(String),
      needs: ["approval"],
      approval: { id, status: "pending", operation: "applications.unpause", expires_at: expect.stringMatching(ISO) },
      next: { operation: "approvals.show", method: "GET", path: `/v1/approvals/${id}` },
      human_action: {
        reason: "approve_operation",
        url: `http://${new URL(s.baseUrl).host}/console/approvals/${id}`,
        say: expect.any(String),
        then: { operation: "applications.unpause", method: "POST", path: `/v1/applications/${app.id}/unpause` },
      },
    })
    const shown = await s.call("GET", `/v1/approvals/${id}`, { key: token })
    expect(shown.status).toBe(200)
    expect(shown.body.data).toEqual({
      id,
      status: "pending",
      operation: "applications.unpause",
      input: { path: { application: app.id }, query: {}, body: {} },
      created_at: expect.stringMatching(ISO),
      expires_at: expect.stringMatching(ISO),
      decided_at: null,
      note: null,
    })
    expect(Date.parse(shown.body.data.expires_at) - Date.parse(shown.body.data.created_at)).toBe(24 * 3600_000)
    // Nothing ran: nothing in the audit record.
    expect((await s.call("GET", "/v1/account/audit", { key: token })).body.data).toEqual([])
  })

  it("pending: the resend answers 428 with the same approval (key order of the body ignored)", async () => {
    const { account, app, token } = await setup()
    await s.console("PUT", `/accounts/${account.id}/approval-policy`, { operations: ["applications.unpause"] })
    const first = await unpause(s, app.id, token)
    const second = await unpause(s, app.id, token)
    expect(second.status).toBe(428)
    expect(second.body.approval.id).toBe(first.body.approval.id)
  })

  it("approved: the resend runs once and the approval becomes `used`; the next resend asks a new approval", async () => {
    const { app, token } = await setup()
    const asked = (await unpause(s, app.id, token)).body.approval.id
    const approved = await s.console("POST", `/approvals/${asked}/approve`, { note: "ok" })
    expect(approved).toMatchObject({
      id: asked,
      status: "approved",
      note: "ok",
      decided_at: expect.stringMatching(ISO),
    })
    const ran = await unpause(s, app.id, token)
    expect(ran.status).toBe(200)
    expect(ran.body.data).toMatchObject({ id: app.id, paused: false })
    expect((await s.call("GET", `/v1/approvals/${asked}`, { key: token })).body.data.status).toBe("used")
    const again = await unpause(s, app.id, token)
    expect(again.status).toBe(428)
    expect(again.body.approval.id).not.toBe(asked)
    // The run is in the audit record, with the approval it used.
    const audit = (await s.call("GET", "/v1/account/audit", { key: token })).body.data
    expect(audit).toHaveLength(1)
    expect(audit[0]).toMatchObject({ action: "applications.unpause", application_id: app.id })
    expect(audit[0].details.approval).toBe(asked)
  })

  it("denied: the resend answers 403 approval_denied with the approval", async () => {
    const { app, token } = await setup()
    const asked = (await unpause(s, app.id, token)).body.approval.id
    await s.console("POST", `/approvals/${asked}/deny`, {})
    const res = await unpause(s, app.id, token)
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({
      error: "approval_denied",
      message: expect.any(String),
      approval: { id: asked, status: "denied", operation: "applications.unpause" },
    })
  })

  it("expired (24 h after it was asked, approved or not): the resend asks a new approval", async () => {
    const { app, token } = await setup()
    const asked = (await unpause(s, app.id, token)).body.approval.id
    await s.console("POST", `/approvals/${asked}/approve`, {})
    await advance(s, 24 * 3600_000)
    expect((await s.call("GET", `/v1/approvals/${asked}`, { key: token })).body.data.status).toBe("expired")
    const res = await unpause(s, app.id, token)
    expect(res.status).toBe(428)
    expect(res.body.approval.id).not.toBe(asked)
  })

  it("another input is another request: a new approval", async () => {
    const { account, app, token } = await setup()
    const other = await s.console("POST", `/accounts/${account.id}/applications`, { name: "Other", approved: true })
    const a = (await unpause(s, app.id, token)).body.approval.id
    const b = (await unpause(s, other.id, token)).body.approval.id
    expect(a).not.toBe(b)
  })

  it("an approval asked under K runs when resent with K or none; another key asks a new one (DECISIONS 16)", async () => {
    const { app, token } = await setup()
    const asked = await unpause(s, app.id, token, { "idempotency-key": "K-1" })
    await s.console("POST", `/approvals/${asked.body.approval.id}/approve`, {})
    const other = await unpause(s, app.id, token, { "idempotency-key": "K-2" })
    expect(other.status).toBe(428)
    expect(other.body.approval.id).not.toBe(asked.body.approval.id)
    const none = await unpause(s, app.id, token)
    expect(none.status).toBe(200)

    // Asked with none: runs when resent with any key.
    const next = await setup()
    const bare = await unpause(s, next.app.id, next.token)
    await s.console("POST", `/approvals/${bare.body.approval.id}/approve`, {})
    const keyed = await unpause(s, next.app.id, next.token, { "idempotency-key": "any-key" })
    expect(keyed.status).toBe(200)
    // Once it ran under a key, the same request with that key is an ordinary idempotent replay.
    const replay = await unpause(s, next.app.id, next.token, { "idempotency-key": "any-key" })
    expect(replay.status).toBe(200)
    expect(replay.headers.get("idempotent-replayed")).toBe("true")
  })

  it("a 428 leaves the Idempotency-Key free: after approval the same key runs", async () => {
    const { app, token } = await setup()
    const asked = await unpause(s, app.id, token, { "idempotency-key": "free-key" })
    expect(asked.status).toBe(428)
    await s.console("POST", `/approvals/${asked.body.approval.id}/approve`, {})
    const ran = await unpause(s, app.id, token, { "idempotency-key": "free-key" })
    expect(ran.status).toBe(200)
    expect(ran.headers.get("idempotent-replayed")).toBeNull()
  })

  it("428 comes last: a 404 or a 400 of the operation is answered first and asks no approval", async () => {
    const { token } = await setup()
    const missing = await unpause(s, crypto.randomUUID(), token)
    expect(missing.status).toBe(404)
    const { app } = await setup()
    const other = await tokenOf(s, (await setupApplication(s)).account.id)
    expect((await unpause(s, app.id, other)).status).toBe(404) // another account's application
    const mine = await setup()
    const bad = await unpause(s, mine.app.id, mine.token, {}, { unexpected: true })
    expect(bad.status).toBe(400)
    expect(bad.body.errors).toEqual({ unexpected: "unknown" })
  })
})

describe("DECISIONS 14: the console approves and denies only a pending approval; the policy names the operations", () => {
  it("approving a decided, used or unknown approval: 409 invalid_state with its status, or 404", async () => {
    const { app, token } = await setup()
    const asked = (await unpause(s, app.id, token)).body.approval.id
    await s.console("POST", `/approvals/${asked}/deny`, {})
    const again = await s.call("POST", `/console/v1/approvals/${asked}/approve`, { key: s.consoleToken, body: {} })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ error: "invalid_state", status: "denied", message: expect.any(String) })
    const unknown = await s.call("POST", `/console/v1/approvals/${crypto.randomUUID()}/approve`, {
      key: s.consoleToken,
      body: {},
    })
    expect(unknown.status).toBe(404)
  })

  it("an empty policy runs unpause at once; an unknown operation name is refused", async () => {
    const { account, app, token } = await setup()
    expect(await s.console("PUT", `/accounts/${account.id}/approval-policy`, { operations: [] })).toEqual({
      operations: [],
    })
    expect((await unpause(s, app.id, token)).status).toBe(200)
    const bad = await s.call("PUT", `/console/v1/accounts/${account.id}/approval-policy`, {
      key: s.consoleToken,
      body: { operations: ["applications.unpawse"] },
    })
    expect(bad.status).toBe(400)
    const listed = (await s.call("GET", "/v1/operations", { key: token })).body.data
    expect(listed.find((r: { name: string }) => r.name === "applications.unpause").requires_approval).toBe(false)
  })

  it("approvals.show of another account's approval is 404 not_found", async () => {
    const { app, token } = await setup()
    const asked = (await unpause(s, app.id, token)).body.approval.id
    const stranger = await setup()
    expect((await s.call("GET", `/v1/approvals/${asked}`, { key: stranger.token })).status).toBe(404)
    expect((await s.call("GET", "/v1/approvals/not-a-uuid", { key: stranger.token })).status).toBe(404)
  })
})

const concurrentResends = (server: () => TestServer) => async () => {
  const { app, token } = await setup(server())
  const asked = (await unpause(server(), app.id, token)).body.approval.id
  await server().console("POST", `/approvals/${asked}/approve`, {})
  const answers = await Promise.all(Array.from({ length: 10 }, () => unpause(server(), app.id, token)))
  expect(answers.filter((a) => a.status === 200)).toHaveLength(1)
  expect(answers.filter((a) => a.status === 428)).toHaveLength(9)
  const audit = (await server().call("GET", "/v1/account/audit", { key: token })).body.data
  expect(audit.filter((e: { action: string }) => e.action === "applications.unpause")).toHaveLength(1)
}

describe("DECISIONS 11: concurrent resends of one approved request run the operation once", () => {
  it("memory store: 10 at once, one runs", concurrentResends(() => s))

  const databaseUrl = process.env.DATABASE_URL
  describe.runIf(databaseUrl !== undefined)("on PostgreSQL (DATABASE_URL)", () => {
    const pg = usePostgresServer(databaseUrl!)
    it("10 at once, one runs", concurrentResends(() => pg), 30_000)
  })
})
