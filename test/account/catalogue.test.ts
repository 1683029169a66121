/**
 * The operation catalogue and call by name (DECISIONS 10, 16), list envelopes and cursors, over HTTP.
 */
import { describe, expect, it } from "vitest"
import { didYouMean, levenshtein } from "../../core/accounts/catalogue.ts"
import { setupApplication, type TestServer, useServer } from "../support/server.ts"

const s = useServer()

const tokenOf = async (server: TestServer, account: string, body: Record<string, unknown> = {}) =>
  (await server.console("POST", `/accounts/${account}/account-tokens`, body)).token as string

const setup = async () => {
  const { account, app } = await setupApplication(s)
  return { account, app, token: await tokenOf(s, account.id) }
}

describe("DECISIONS 10: GET /v1/operations lists the account operations, input_schema generated from their Schemas", () => {
  it("rows { name, method, path, input_schema, output, requires_approval, idempotent, roles }", async () => {
    const { token } = await setup()
    const res = await s.call("GET", "/v1/operations?limit=100", { key: token })
    expect(res.status).toBe(200)
    expect(res.body.next_cursor).toBeNull()
    const rows = res.body.data as Array<Record<string, any>>
    const names = rows.map((r) => r.name)
    for (
      const name of ["operations.list", "approvals.show", "applications.applications.list", "applications.unpause"]
    ) {
      expect(names).toContain(name)
    }
    expect(names).not.toContain("operations.call")
    const unpause = rows.find((r) => r.name === "applications.unpause")!
    expect(unpause).toEqual({
      name: "applications.unpause",
      method: "POST",
      path: "/v1/applications/{application}/unpause",
      input_schema: expect.objectContaining({
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        required: ["application"],
        properties: { application: expect.objectContaining({ type: "string" }) },
        additionalProperties: false,
      }),
      output: expect.any(String),
      requires_approval: true,
      idempotent: true,
      roles: ["owner", "admin"],
    })
    const list = rows.find((r) => r.name === "applications.applications.list")!
    expect(list.roles).toEqual(["owner", "admin", "agent"])
    expect(Object.keys(list.input_schema.properties).sort()).toEqual(["cursor", "limit"])
  })

  it("pages with limit and a next_cursor; the last page's next_cursor is null", async () => {
    const { token } = await setup()
    const first = await s.call("GET", "/v1/operations?limit=2", { key: token })
    expect(first.body.data).toHaveLength(2)
    expect(typeof first.body.next_cursor).toBe("string")
    const second = await s.call("GET", `/v1/operations?limit=2&cursor=${first.body.next_cursor}`, { key: token })
    expect(second.body.data[0].name).not.toBe(first.body.data[0].name)
    const all = await s.call("GET", "/v1/operations?limit=100", { key: token })
    expect(all.body.data.slice(2, 4)).toEqual(second.body.data)
  })
})

describe("DECISIONS 10: a cursor is a next_cursor as answered; a forged or another account's one answers 400", () => {
  it("forged, altered and foreign cursors are 400 invalid_request (errors.cursor invalid), never rows", async () => {
    const mine = await setup()
    await s.console("POST", `/accounts/${mine.account.id}/applications`, { name: "Second" })
    const page = await s.call("GET", "/v1/applications?limit=1", { key: mine.token })
    expect(page.body.data).toHaveLength(1)
    const cursor = page.body.next_cursor as string
    expect(typeof cursor).toBe("string")
    const next = await s.call("GET", `/v1/applications?limit=1&cursor=${cursor}`, { key: mine.token })
    expect(next.status).toBe(200)
    expect(next.body.data[0].id).not.toBe(page.body.data[0].id)
    expect(next.body.next_cursor).toBeNull()

    const stranger = await setup()
    for (
      const bad of [
        cursor, // another account's
        `${cursor.slice(0, -2)}00`, // altered signature
        "eyJ4IjoxfQ.0000", // forged
        "not a cursor",
      ]
    ) {
      const res = await s.call("GET", `/v1/applications?cursor=${encodeURIComponent(bad)}`, { key: stranger.token })
      expect(res.status, bad).toBe(400)
      expect(res.body).toMatchObject({ error: "invalid_request", errors: { cursor: "invalid" } })
    }
    // A cursor of one list is not a cursor of another.
    const audit = await s.call("GET", `/v1/account/audit?cursor=${cursor}`, { key: mine.token })
    expect(audit.status).toBe(400)
  })

  it("limit outside 1-100, a parameter given twice or an unknown one: 400 with the field's code", async () => {
    const { token } = await setup()
    for (const q of ["limit=0", "limit=101", "limit=x"]) {
      const res = await s.call("GET", `/v1/applications?${q}`, { key: token })
      expect(res.status, q).toBe(400)
      expect(res.body.errors).toHaveProperty("limit")
    }
    const unknown = await s.call("GET", "/v1/applications?colour=red", { key: token })
    expect(unknown.body.errors).toEqual({ colour: "unknown" })
    const twice = await s.call("GET", "/v1/applications?limit=1&limit=2", { key: token })
    expect(twice.status).toBe(400)
    expect(twice.body.errors).toEqual({ limit: "invalid" })
  })
})

describe("DECISIONS 10: POST /v1/operations/{name} answers as the route would (approval and idempotency included)", () => {
  it("a read by name answers as its route", async () => {
    const { token } = await setup()
    const byRoute = await s.call("GET", "/v1/applications", { key: token })
    const byName = await s.call("POST", "/v1/operations/applications.applications.list", { key: token, body: {} })
    expect(byName.status).toBe(200)
    expect(byName.body).toEqual(byRoute.body)
  })

  it("a write by name needs the same approval as its route, and runs once approved (by name or by route)", async () => {
    const { app, token } = await setup()
    const asked = await s.call("POST", "/v1/operations/applications.unpause", {
      key: token,
      body: { application: app.id },
    })
    expect(asked.status).toBe(428)
    expect(asked.body.approval.operation).toBe("applications.unpause")
    // The same request by route finds the same approval (the input is recorded as routed).
    const byRoute = await s.call("POST", `/v1/applications/${app.id}/unpause`, { key: token, body: {} })
    expect(byRoute.body.approval.id).toBe(asked.body.approval.id)
    await s.console("POST", `/approvals/${asked.body.approval.id}/approve`, {})
    const ran = await s.call("POST", "/v1/operations/applications.unpause", {
      key: token,
      body: { application: app.id },
      headers: { "idempotency-key": "by-name-1" },
    })
    expect(ran.status).toBe(200)
    expect(ran.body.data).toMatchObject({ id: app.id, paused: false })
    const replay = await s.call("POST", "/v1/operations/applications.unpause", {
      key: token,
      body: { application: app.id },
      headers: { "idempotency-key": "by-name-1" },
    })
    expect(replay.headers.get("idempotent-replayed")).toBe("true")
    expect(replay.body).toEqual(ran.body)
  })

  it("unknown input properties: 400 with code unknown; a missing path field: required", async () => {
    const { app, token } = await setup()
    const extra = await s.call("POST", "/v1/operations/applications.unpause", {
      key: token,
      body: { application: app.id, colour: "red" },
    })
    expect(extra.status).toBe(400)
    expect(extra.body.errors).toEqual({ colour: "unknown" })
    const missing = await s.call("POST", "/v1/operations/applications.unpause", { key: token, body: {} })
    expect(missing.status).toBe(400)
    expect(missing.body.errors).toEqual({ application: "required" })
    // An approval of the account (unpausing asks for one), read with a field the read does not take.
    const asked = await s.call("POST", `/v1/applications/${app.id}/unpause`, { key: token, body: {} })
    expect(asked.status).toBe(428)
    const readExtra = await s.call("POST", "/v1/operations/approvals.show", {
      key: token,
      body: { id: asked.body.approval.id, x: 1 },
    })
    expect(readExtra.body.errors).toEqual({ x: "unknown" })
    // An unknown id: 404 before the operation's 400 (DECISIONS 10).
    const unknownExtra = await s.call("POST", "/v1/operations/approvals.show", {
      key: token,
      body: { id: crypto.randomUUID(), x: 1 },
    })
    expect([unknownExtra.status, unknownExtra.body.error]).toEqual([404, "not_found"])
  })

  it("the role check applies by name too", async () => {
    const { account, app } = await setup()
    const agent = await tokenOf(s, account.id, { role: "agent" })
    const res = await s.call("POST", "/v1/operations/applications.unpause", {
      key: agent,
      body: { application: app.id },
    })
    expect(res.status).toBe(403)
    expect(res.body.error).toBe("insufficient_role")
  })

  it("404 unknown_operation with did_you_mean: closest first, up to 3, else []", async () => {
    const { token } = await setup()
    const typo = await s.call("POST", "/v1/operations/applications.unpuase", { key: token, body: {} })
    expect(typo.status).toBe(404)
    expect(typo.body).toEqual({
      error: "unknown_operation",
      message: expect.any(String),
      did_you_mean: ["applications.unpause"],
    })
    const part = await s.call("POST", "/v1/operations/unpause", { key: token, body: {} })
    expect(part.body.did_you_mean).toEqual(["applications.unpause"])
    const nothing = await s.call("POST", "/v1/operations/zzzzzzzzzzzzzzzz", { key: token, body: {} })
    expect(nothing.body.did_you_mean).toEqual([])
  })
})

describe("did_you_mean: Levenshtein distance at most 3, or containing the typed name (DECISIONS 16)", () => {
  it("distance", () => {
    expect(levenshtein("kitten", "sitting")).toBe(3)
    expect(levenshtein("", "abc")).toBe(3)
    expect(levenshtein("same", "same")).toBe(0)
  })

  it("closest first, then by name, at most 3", () => {
    const names = ["wallet.show", "wallet.topups.link", "wallet.proformas.create", "approvals.show"]
    expect(didYouMean("wallet.shw", names)).toEqual(["wallet.show"])
    expect(didYouMean("wallet", names)).toEqual(["wallet.show", "wallet.topups.link", "wallet.proformas.create"])
    expect(didYouMean("nothing.like.it", names)).toEqual([])
  })
})

describe("DECISIONS 10: an API key on account routes, or a token on key routes: 401 unauthorized", () => {
  it("a live key on GET /v1/operations is 401; a token on GET /v1/verify/{id} is 401", async () => {
    const { account, key } = await setupApplication(s)
    expect((await s.call("GET", "/v1/operations", { key })).status).toBe(401)
    const token = await tokenOf(s, account.id)
    expect((await s.call("GET", `/v1/verify/${crypto.randomUUID()}`, { key: token })).status).toBe(401)
  })
})
