/**
 * The console API (DECISIONS 2): "Base `{base_url}/console/v1`, header `Authorization: Bearer
 * <CONSOLE_TOKEN>`. Bodies are JSON; success is `{ "data": ... }` (201 for creates, 200 otherwise); an
 * error is `{ "error": code, "message": text }` with 400 `invalid_request` (plus `fields`), 401
 * `unauthorized`, 404 `not_found`."
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, type ManagedRuntime } from "effect"
import { describe, expect, it } from "vitest"
import { Secrets } from "../../ports/secrets.ts"
import { phone } from "../support/phone.ts"
import { startServer, useServer } from "../support/server.ts"
import { fixture as fixtureWith, type Ids, missing, prepare as prepareWith, routes } from "./routes.ts"

const s = useServer()
const fixture = () => fixtureWith(s.console)
const prepare = (name: string, ids: Ids) => prepareWith(s.console, name, ids)

/** A console call; `token` null sends none. */
const call = (method: string, path: string, body?: unknown, token: string | null = s.consoleToken) =>
  s.call(method, `/console/v1${path}`, {
    ...(token === null ? {} : { key: token }),
    ...(body === undefined ? {} : { body }),
  })

describe("every console route of DECISIONS 2 is reachable with the console token: `{ data }`, 201 for creates, 200 otherwise", () => {
  for (const [name, r] of Object.entries(routes)) {
    it(`${name} → ${r.status} { data }`, async () => {
      const ids = await fixture()
      await prepare(name, ids)
      const res = await call(r.method, r.path(ids), r.body(ids))
      expect(res.status, JSON.stringify(res.body)).toBe(r.status)
      expect(Object.keys(res.body)).toEqual(["data"])
      expect(res.headers.get("x-request-id")).toBeTruthy()
      r.data(res.body.data, ids)
    })
  }
})

describe('"401 `unauthorized`" without the console token (missing, wrong, an API key, or in x-api-key) — before any id is looked up', () => {
  for (const [name, r] of Object.entries(routes)) {
    it(`${name} → 401 {error: unauthorized, message}`, async () => {
      const ids = await fixture()
      const { key } = await s.console("POST", `/applications/${ids.application}/keys`, { mode: "live" })
      const paths = [r.path(ids), ...(r.unknown ?? []).map((u) => u(ids))]
      for (const path of paths) {
        for (const token of [null, "wrong-token", `${s.consoleToken}x`, key]) {
          const res = await call(r.method, path, r.body(ids), token)
          expect(res.status, `${path} with ${token}`).toBe(401)
          expect(res.body).toEqual({ error: "unauthorized", message: expect.any(String) })
        }
        const viaApiKeyHeader = await s.call(r.method, `/console/v1${path}`, {
          headers: { "x-api-key": s.consoleToken },
          ...(r.body(ids) === undefined ? {} : { body: r.body(ids) }),
        })
        expect(viaApiKeyHeader.status).toBe(401)
      }
    })
  }
})

describe('"404 `not_found`" for unknown ids (and ids that are not UUIDs)', () => {
  for (const [name, r] of Object.entries(routes)) {
    if (r.unknown === undefined) continue
    it(`${name} → 404 {error: not_found, message}`, async () => {
      const ids = await fixture()
      for (const u of r.unknown!) {
        const res = await call(r.method, u(ids), r.body(ids))
        expect(res.status, u(ids)).toBe(404)
        expect(res.body).toEqual({ error: "not_found", message: expect.any(String) })
      }
    })
  }

  it("a revoked key's id is still known (revoking again answers the same), but an account id is not a key id", async () => {
    const ids = await fixture()
    expect((await call("DELETE", `/keys/${ids.key}`)).body.data).toEqual({ id: ids.key, revoked: true })
    expect((await call("DELETE", `/keys/${ids.key}`)).body.data).toEqual({ id: ids.key, revoked: true })
    expect((await call("DELETE", `/keys/${ids.account}`)).status).toBe(404)
  })

  it("an application id is not an account id and the other way round", async () => {
    const ids = await fixture()
    expect((await call("POST", `/accounts/${ids.application}/applications`, { name: "x" })).status).toBe(404)
    expect((await call("POST", `/applications/${ids.account}/keys`, { mode: "live" })).status).toBe(404)
  })
})

describe('"400 `invalid_request` (plus `fields`)" for bad bodies', () => {
  const cases: Array<[string, string, (i: Ids) => string, unknown, Array<string>]> = [
    ["POST /accounts without name", "POST", () => "/accounts", {}, ["name"]],
    ["POST /accounts with a blank name", "POST", () => "/accounts", { name: "  " }, ["name"]],
    [
      "POST /accounts with non-boolean flags",
      "POST",
      () => "/accounts",
      { name: "x", sandbox_only: "yes", partner: 1 },
      ["sandbox_only", "partner"],
    ],
    ["POST applications without name", "POST", (i) => `/accounts/${i.account}/applications`, { approved: true }, [
      "name",
    ]],
    ["POST applications with bad approved / external_id", "POST", (i) => `/accounts/${i.account}/applications`, {
      name: "x",
      approved: "true",
      external_id: 5,
    }, ["approved", "external_id"]],
    ["POST keys without mode", "POST", (i) => `/applications/${i.application}/keys`, {}, ["mode"]],
    ["POST keys with a partner mode", "POST", (i) => `/applications/${i.application}/keys`, { mode: "partner" }, [
      "mode",
    ]],
    ["POST keys with unknown access", "POST", (i) => `/applications/${i.application}/keys`, {
      mode: "live",
      access: "read",
    }, ["access"]],
    [
      "POST keys with empty scopes",
      "POST",
      (i) => `/applications/${i.application}/keys`,
      { mode: "live", access: [] },
      ["access"],
    ],
    ["POST keys with an unknown scope", "POST", (i) => `/applications/${i.application}/keys`, {
      mode: "live",
      access: ["verify:everything"],
    }, ["access"]],
    ["POST keys with a bad expires_at", "POST", (i) => `/applications/${i.application}/keys`, {
      mode: "live",
      expires_at: "tomorrow",
    }, ["expires_at"]],
    ["POST keys with a bad ip_allowlist entry", "POST", (i) => `/applications/${i.application}/keys`, {
      mode: "live",
      ip_allowlist: ["10.0.0.0/8", "300.1.2.3"],
    }, ["ip_allowlist"]],
    ["POST keys with a bad CIDR prefix", "POST", (i) => `/applications/${i.application}/keys`, {
      mode: "live",
      ip_allowlist: ["10.0.0.0/33"],
    }, ["ip_allowlist"]],
    ["POST keys with ip_allowlist not an array", "POST", (i) => `/applications/${i.application}/keys`, {
      mode: "live",
      ip_allowlist: "10.0.0.0/8",
    }, ["ip_allowlist"]],
    ["POST account keys with an application mode", "POST", (i) => `/accounts/${i.partner}/keys`, { mode: "live" }, [
      "mode",
    ]],
    ["POST account keys on a non-partner account", "POST", (i) => `/accounts/${i.account}/keys`, { mode: "partner" }, [
      "mode",
    ]],
    ["POST account keys with check access", "POST", (i) => `/accounts/${i.partner}/keys`, {
      mode: "partner",
      access: "check",
    }, ["access"]],
    [
      "POST connected-app-keys without app_name and scopes",
      "POST",
      (i) => `/applications/${i.application}/connected-app-keys`,
      {},
      ["app_name", "scopes"],
    ],
    [
      "POST connected-app-keys with an unknown scope",
      "POST",
      (i) => `/applications/${i.application}/connected-app-keys`,
      { app_name: "x", scopes: ["chat:everything"] },
      ["scopes"],
    ],
    ["PUT verify-settings out of bounds", "PUT", (i) => `/applications/${i.application}/verify-settings`, {
      code_length: 3,
      code_lifetime_minutes: 16,
      max_attempts: 0,
    }, ["code_length", "code_lifetime_minutes", "max_attempts"]],
    ["PUT verify-settings with a negative spend cap", "PUT", (i) => `/applications/${i.application}/verify-settings`, {
      code_length: 9,
      daily_spend_cap_halalas: -1,
    }, ["code_length", "daily_spend_cap_halalas"]],
    [
      "POST sandbox-destinations with a non-Saudi number",
      "POST",
      (i) => `/accounts/${i.account}/sandbox-destinations`,
      { to: "+14155550100" },
      ["to"],
    ],
    ["POST sandbox-destinations without to", "POST", (i) => `/accounts/${i.account}/sandbox-destinations`, {}, ["to"]],
    ["POST wallet/credit with 0", "POST", (i) => `/accounts/${i.account}/wallet/credit`, { amount_halalas: 0 }, [
      "amount_halalas",
    ]],
    ["POST wallet/credit with a string", "POST", (i) => `/accounts/${i.account}/wallet/credit`, {
      amount_halalas: "100",
    }, ["amount_halalas"]],
    ["POST wallet/credit with a fraction", "POST", (i) => `/accounts/${i.account}/wallet/credit`, {
      amount_halalas: 1.5,
    }, ["amount_halalas"]],
    ["POST simulator/clock with a negative advance", "POST", () => "/simulator/clock", { advance_ms: -1 }, [
      "advance_ms",
    ]],
    ["POST simulator/clock without advance_ms", "POST", () => "/simulator/clock", {}, ["advance_ms"]],
  ]
  for (const [name, method, path, body, fields] of cases) {
    it(`${name} → 400 invalid_request naming ${fields.join(", ")}`, async () => {
      const ids = await fixture()
      const res = await call(method, path(ids), body)
      expect(res.status).toBe(400)
      expect(res.body.error).toBe("invalid_request")
      expect(typeof res.body.message).toBe("string")
      expect(Object.keys(res.body.fields).sort()).toEqual([...fields].sort())
    })
  }

  it("GET /simulator/sms with a bad `to` → 400 invalid_request naming to", async () => {
    const res = await call("GET", "/simulator/sms?to=123")
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ error: "invalid_request", fields: { to: expect.any(String) } })
  })

  it("a refused create leaves nothing behind: a bad key body issues no key", async () => {
    const ids = await fixture()
    const before = await call("POST", `/applications/${ids.application}/keys`, { mode: "live", ip_allowlist: ["nope"] })
    expect(before.status).toBe(400)
    expect(before.body.key).toBeUndefined()
    expect(JSON.stringify(before.body)).not.toMatch(/svc_/)
  })

  it("a body that is not JSON → 400 with a message", async () => {
    const res = await s.call("POST", "/console/v1/accounts", { key: s.consoleToken, rawBody: "{" })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe("invalid_json")
    expect(typeof res.body.message).toBe("string")
  })
})

describe('"`key` is shown only here": keys are shown once and stored only as keyed hashes', () => {
  it("each kind of key starts with its mode's prefix and a 32-character random body; no two are alike", async () => {
    const ids = await fixture()
    const made = [
      ["svc_live_", await s.console("POST", `/applications/${ids.application}/keys`, { mode: "live" })],
      ["svc_test_", await s.console("POST", `/applications/${ids.application}/keys`, { mode: "test" })],
      ["svc_partner_", await s.console("POST", `/accounts/${ids.partner}/keys`, { mode: "partner" })],
      ["svc_partner_test_", await s.console("POST", `/accounts/${ids.partner}/keys`, { mode: "partner_test" })],
      [
        "svc_live_",
        await s.console("POST", `/applications/${ids.application}/connected-app-keys`, {
          app_name: "A",
          scopes: ["chat:menus"],
        }),
      ],
    ] as const
    for (const [prefix, k] of made) {
      expect(k.key.startsWith(prefix)).toBe(true)
      expect(k.key.slice(prefix.length)).toMatch(/^[A-Za-z0-9_-]{32}$/)
    }
    expect(new Set(made.map(([, k]) => k.key)).size).toBe(made.length)
  })

  it("the key string is returned by nothing but its own create: not by other console answers, revocation, or the API", async () => {
    const ids = await fixture()
    await s.console("POST", `/applications/${ids.application}/approve`, {})
    await s.console("POST", `/accounts/${ids.account}/wallet/credit`, { amount_halalas: 500 })
    const created = await s.console("POST", `/applications/${ids.application}/keys`, { mode: "live" })
    const secret: string = created.key
    const body = secret.slice("svc_live_".length)
    const seen: Array<string> = []
    const record = async (p: Promise<{ body: unknown; headers: Headers }>) => {
      const r = await p
      seen.push(JSON.stringify(r.body), JSON.stringify([...r.headers.entries()]))
      return r
    }
    const to = phone()
    await record(call("POST", `/accounts/${ids.account}/applications`, { name: "Other" }))
    await record(call("POST", `/applications/${ids.application}/approve`, {}))
    await record(call("POST", `/applications/${ids.application}/keys`, { mode: "test" }))
    await record(call("PUT", `/applications/${ids.application}/verify-settings`, {}))
    await record(call("POST", `/accounts/${ids.account}/sandbox-destinations`, { to }))
    await record(call("POST", `/accounts/${ids.account}/wallet/credit`, { amount_halalas: 1 }))
    await record(call("POST", `/accounts/${ids.account}/account-tokens`, {}))
    const started = await record(s.call("POST", "/v1/verify/start", { key: secret, body: { to } }))
    await record(s.call("GET", `/v1/verify/${(started.body as any).id}`, { key: secret }))
    await record(s.call("POST", "/v1/verify/start", { key: secret, rawBody: "{" }))
    await record(call("GET", `/simulator/sms?to=${encodeURIComponent(to)}`))
    await record(call("DELETE", `/keys/${created.id}`))
    await record(s.call("POST", "/v1/verify/start", { key: secret, body: { to } }))
    for (const text of seen) expect(text).not.toContain(body)
  })

  it("stored only as hashes: no table of the SQL store holds the key, only its keyed hash (HMAC-SHA256, not a bare SHA-256)", async () => {
    const sql = await startServer({ store: "sql", pgliteDir: "memory://" })
    try {
      const account = await sql.console("POST", "/accounts", { name: "Hashing" })
      const app = await sql.console("POST", `/accounts/${account.id}/applications`, { name: "App", approved: true })
      const keys: Array<string> = [
        (await sql.console("POST", `/applications/${app.id}/keys`, { mode: "live" })).key,
        (await sql.console("POST", `/applications/${app.id}/connected-app-keys`, {
          app_name: "C",
          scopes: ["chat:menus"],
        })).key,
        (await sql.console("POST", `/accounts/${account.id}/account-tokens`, {})).token,
      ]
      // The SQL store's layer also provides its SqlClient, though the platform's type does not name it.
      const runtime = sql.platform.runtime as unknown as ManagedRuntime.ManagedRuntime<SqlClient.SqlClient, never>
      const dump = await runtime.runPromise(Effect.gen(function* () {
        const db = yield* SqlClient.SqlClient
        const tables = yield* db<{ table_name: string }>`SELECT table_name FROM information_schema.tables
          WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`
        const rows: Array<string> = []
        for (const { table_name } of tables) {
          const found = yield* db.unsafe<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${table_name}" t`)
          rows.push(...found.map((r) => r.row))
        }
        return rows.join("\n")
      }))
      const secrets = await sql.platform.runtime.runPromise(Secrets)
      const { createHash } = await import("node:crypto")
      for (const key of keys) {
        expect(dump).not.toContain(key)
        // The 32-character random body, after the mode prefix (the body itself may contain `_`).
        expect(dump).not.toContain(key.replace(/^svc_(live|test|partner_test|partner|acct)_/, ""))
        expect(dump).toContain(secrets.hash(key))
        expect(dump).not.toContain(createHash("sha256").update(key).digest("hex"))
      }
    } finally {
      await sql.close()
    }
  })
})

describe('"`access?: \\"full\\"|\\"check\\"|[scope,…] = \\"full\\"`" — and only connected-app keys hold the connected-app scopes', () => {
  it('access defaults to "full" and echoes "check" or the scopes given', async () => {
    const ids = await fixture()
    const path = `/applications/${ids.application}/keys`
    expect((await s.console("POST", path, { mode: "live" })).access).toBe("full")
    expect((await s.console("POST", path, { mode: "live", access: "full" })).access).toBe("full")
    expect((await s.console("POST", path, { mode: "live", access: "check" })).access).toBe("check")
    expect((await s.console("POST", path, { mode: "test", access: ["verify:send", "email:read"] })).access).toEqual([
      "verify:send",
      "email:read",
    ])
  })

  it("expires_at and ip_allowlist are echoed (ISO date-time; ranges in canonical form)", async () => {
    const ids = await fixture()
    const k = await s.console("POST", `/applications/${ids.application}/keys`, {
      mode: "live",
      expires_at: "2031-01-02T03:04:05.000Z",
      ip_allowlist: ["10.1.2.3/8", "2001:DB8::1", "127.0.0.1"],
    })
    expect(k.expires_at).toBe("2031-01-02T03:04:05.000Z")
    expect(k.ip_allowlist).toEqual(["10.0.0.0/8", "2001:db8::1/128", "127.0.0.1/32"])
  })

  it('"No key made on the API keys page holds `notifications:templates`, `chat:menus` or `chat:attendant`": 400 invalid_request naming access', async () => {
    const ids = await fixture()
    for (const scope of ["notifications:templates", "chat:menus", "chat:attendant"]) {
      for (const access of [[scope], ["verify:send", scope]]) {
        const res = await call("POST", `/applications/${ids.application}/keys`, { mode: "live", access })
        expect(res.status, JSON.stringify(access)).toBe(400)
        expect(res.body).toMatchObject({ error: "invalid_request", fields: { access: expect.any(String) } })
      }
    }
  })

  it('a connected app\'s key "may hold `chat:menus`, `chat:attendant`, `notifications:templates`": a live key with app_name and exactly those scopes', async () => {
    const ids = await fixture()
    const k = await s.console("POST", `/applications/${ids.application}/connected-app-keys`, {
      app_name: "Store assistant",
      scopes: ["chat:attendant"],
    })
    expect(k).toMatchObject({ mode: "live", access: ["chat:attendant"], app_name: "Store assistant" })
  })
})

describe('revocation: "DELETE `/keys/{key_id}` revokes" — the key answers 401 from then on', () => {
  it("a revoked key answers 401 unauthorized; the application's other keys keep working", async () => {
    const ids = await fixture()
    await s.console("POST", `/applications/${ids.application}/approve`, {})
    await s.console("POST", `/accounts/${ids.account}/wallet/credit`, { amount_halalas: 100 })
    const a = await s.console("POST", `/applications/${ids.application}/keys`, { mode: "live" })
    const b = await s.console("POST", `/applications/${ids.application}/keys`, { mode: "live" })
    expect((await s.call("POST", "/v1/verify/start", { key: a.key, body: { to: phone() } })).status).toBe(200)
    expect(await s.console("DELETE", `/keys/${a.id}`)).toEqual({ id: a.id, revoked: true })
    const refused = await s.call("POST", "/v1/verify/start", { key: a.key, body: { to: phone() } })
    expect(refused.status).toBe(401)
    expect(refused.body).toEqual({ error: "unauthorized" })
    expect((await s.call("POST", "/v1/verify/start", { key: b.key, body: { to: phone() } })).status).toBe(200)
  })

  it("partner keys and connected-app keys are revoked the same way", async () => {
    const ids = await fixture()
    const client = await s.console("POST", `/accounts/${ids.partner}/applications`, { name: "Client", approved: true })
    await s.console("POST", `/accounts/${ids.partner}/wallet/credit`, { amount_halalas: 100 })
    const p = await s.console("POST", `/accounts/${ids.partner}/keys`, { mode: "partner" })
    const started = await s.call("POST", "/v1/verify/start", {
      key: p.key,
      body: { to: phone(), application: client.id },
    })
    expect(started.status).toBe(200)
    await s.console("DELETE", `/keys/${p.id}`)
    expect(
      (await s.call("POST", "/v1/verify/start", { key: p.key, body: { to: phone(), application: client.id } })).status,
    ).toBe(401)

    const c = await s.console("POST", `/applications/${ids.application}/connected-app-keys`, {
      app_name: "A",
      scopes: ["verify:check"],
    })
    await s.console("DELETE", `/keys/${c.id}`)
    expect((await s.call("GET", `/v1/verify/${crypto.randomUUID()}`, { key: c.key })).status).toBe(401)
  })
})

describe('"Simulator endpoints exist only while the matching simulator provider or clock is selected (else 404)"', () => {
  it('with CLOCK=system, POST /simulator/clock answers 404 {"error":"not_found"}; the SMS log is still there', async () => {
    const real = await startServer({ clock: "system" })
    try {
      const clock = await real.call("POST", "/console/v1/simulator/clock", {
        key: real.consoleToken,
        body: { advance_ms: 1 },
      })
      expect(clock.status).toBe(404)
      expect(clock.body).toEqual({ error: "not_found" })
      const sms = await real.call("GET", "/console/v1/simulator/sms?to=0551234567", { key: real.consoleToken })
      expect(sms.status).toBe(200)
    } finally {
      await real.close()
    }
  })

  it("GET /simulator/sms lists the texts to a number newest first, whatever accepted format `to` is given in", async () => {
    const account = await s.console("POST", "/accounts", { name: "Sim" })
    const app = await s.console("POST", `/accounts/${account.id}/applications`, { name: "Sim", approved: true })
    await s.console("POST", `/accounts/${account.id}/wallet/credit`, { amount_halalas: 100 })
    const { key } = await s.console("POST", `/applications/${app.id}/keys`, { mode: "live" })
    const to = phone()
    const first = await s.call("POST", "/v1/verify/start", { key, body: { to } })
    await s.console("POST", "/simulator/clock", { advance_ms: 1_000 })
    await s.call("POST", `/v1/verify/${first.body.id}/resend`, { key, body: {} })
    const local = `0${to.slice(4)}`
    const list = (await call("GET", `/simulator/sms?to=${encodeURIComponent(local)}`)).body.data
    expect(list).toHaveLength(2)
    for (const m of list) {
      expect(m).toEqual({ id: expect.any(String), to, text: expect.any(String), sent_at: expect.any(String) })
    }
    expect(Date.parse(list[0].sent_at)).toBeGreaterThan(Date.parse(list[1].sent_at))
  })
})
