/**
 * Conversation menus over HTTP (DECISIONS 9.1, 17): the five operations, their field codes, `menu_limit` at 10
 * per app and application, 404 for another app's menu, scope judged right after the key, idempotent replays and
 * the account's audit record of every write (9.3).
 */
import { describe, expect, it } from "vitest"
import { onEveryStore, setupApplication, useServer } from "../support/server.ts"
import { auditOf, connectedKey, setupConnectedApp } from "./harness.ts"

const s = useServer()

const shop = { title: "Track my order", url: "https://shop.example/track" }

const create = (key: string, body: unknown, headers?: Record<string, string>) =>
  s.call("POST", "/v1/chat/menus", { key, body, headers })

onEveryStore((server, store) => {
  describe(`${store}: the five operations`, () => {
    it("create (201), list, show, change, delete ({ id, deleted: true }), then 404", async () => {
      const s = server()
      const { appKey: key } = await setupConnectedApp(s)
      const made = await s.call("POST", "/v1/chat/menus", { key, body: shop })
      expect(made.status).toBe(201)
      expect(made.body).toEqual({
        id: expect.any(String),
        ...shop,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        updated_at: made.body.created_at,
      })
      const id = made.body.id
      // Oldest first; the simulated clock stands still unless moved.
      await s.console("POST", "/simulator/clock", { advance_ms: 1 })
      const second = await s.call("POST", "/v1/chat/menus", {
        key,
        body: { title: "عروض اليوم", url: "https://shop.example/offers" },
      })
      expect(second.status).toBe(201)
      const list = await s.call("GET", "/v1/chat/menus", { key })
      expect(list.status).toBe(200)
      expect(list.body).toEqual({ data: [made.body, second.body], next_cursor: null })
      expect((await s.call("GET", `/v1/chat/menus/${id}`, { key })).body).toEqual(made.body)
      await s.console("POST", "/simulator/clock", { advance_ms: 1_000 })
      const changed = await s.call("PATCH", `/v1/chat/menus/${id}`, { key, body: { title: "Returns" } })
      expect(changed.status).toBe(200)
      expect(changed.body).toEqual({ ...made.body, title: "Returns", updated_at: expect.any(String) })
      expect(changed.body.updated_at > made.body.updated_at).toBe(true)
      const url = await s.call("PATCH", `/v1/chat/menus/${id}`, { key, body: { url: "https://shop.example/r" } })
      expect(url.body).toMatchObject({ title: "Returns", url: "https://shop.example/r" })
      const gone = await s.call("DELETE", `/v1/chat/menus/${id}`, { key })
      expect([gone.status, gone.body]).toEqual([200, { id, deleted: true }])
      for (const method of ["GET", "PATCH", "DELETE"]) {
        const res = await s.call(method, `/v1/chat/menus/${id}`, { key, body: method === "PATCH" ? {} : undefined })
        expect([res.status, res.body]).toEqual([404, { error: "not_found" }])
      }
      expect((await s.call("GET", "/v1/chat/menus", { key })).body.data).toEqual([second.body])
    })

    it("twelve creates racing: ten are made, two answer menu_limit", async () => {
      const s = server()
      const { appKey: key } = await setupConnectedApp(s)
      const answers = await Promise.all(
        Array.from(
          { length: 12 },
          (_, i) => s.call("POST", "/v1/chat/menus", { key, body: { ...shop, title: `M${i}` } }),
        ),
      )
      expect(answers.map((a) => a.status).sort()).toEqual([...Array(10).fill(201), 409, 409])
      expect((await s.call("GET", "/v1/chat/menus", { key })).body.data).toHaveLength(10)
    })

    it("409 menu_limit with max 10 at the eleventh; per app and application", async () => {
      const s = server()
      const { app, appKey: key } = await setupConnectedApp(s)
      for (let i = 0; i < 10; i++) {
        expect((await s.call("POST", "/v1/chat/menus", { key, body: { ...shop, title: `Menu ${i}` } })).status).toBe(
          201,
        )
      }
      const eleventh = await s.call("POST", "/v1/chat/menus", { key, body: shop })
      expect(eleventh.status).toBe(409)
      expect(eleventh.body).toEqual({ error: "menu_limit", message: expect.any(String), max: 10 })
      expect((await s.call("GET", "/v1/chat/menus", { key })).body.data).toHaveLength(10)
      const other = await connectedKey(s, app.id, { appName: "Another app", scopes: ["chat:menus"] })
      expect((await s.call("POST", "/v1/chat/menus", { key: other, body: shop })).status).toBe(201)
      const first = (await s.call("GET", "/v1/chat/menus", { key })).body.data[0]
      await s.call("DELETE", `/v1/chat/menus/${first.id}`, { key })
      expect((await s.call("POST", "/v1/chat/menus", { key, body: shop })).status).toBe(201)
    })
  })
})

describe("field codes: required, too_long, invalid (and unknown for a field the operation does not take)", () => {
  const refused = async (key: string, method: "POST" | "PATCH", path: string, body: unknown) => {
    const res = await s.call(method, path, { key, body })
    expect(res.status, JSON.stringify(body)).toBe(400)
    expect(res.body.error).toBe("invalid_request")
    expect(Object.keys(res.body.fields).sort()).toEqual(Object.keys(res.body.errors).sort())
    return res.body.errors
  }

  it("create", async () => {
    const { appKey: key } = await setupConnectedApp(s)
    const post = (body: unknown) => refused(key, "POST", "/v1/chat/menus", body)
    expect(await post({})).toEqual({ title: "required", url: "required" })
    expect(await post({ title: "", url: shop.url })).toEqual({ title: "invalid" })
    expect(await post({ title: "   ", url: shop.url })).toEqual({ title: "invalid" })
    expect(await post({ title: "t".repeat(31), url: shop.url })).toEqual({ title: "too_long" })
    expect(await post({ title: 5, url: shop.url })).toEqual({ title: "invalid" })
    expect(await post({ title: "a\u0007b", url: shop.url })).toEqual({ title: "invalid" })
    expect(await post({ title: "Shop", url: `https://shop.example/${"a".repeat(2049)}` })).toEqual({ url: "too_long" })
    for (const url of ["http://shop.example", "shop.example", "https://", "ftp://shop.example", "", 7]) {
      expect(await post({ title: "Shop", url })).toEqual({ url: "invalid" })
    }
    expect(await post({ ...shop, colour: "red" })).toEqual({ colour: "unknown" })
    expect(await post({ title: "t".repeat(31), url: "http://x" })).toEqual({ title: "too_long", url: "invalid" })
    // 30 characters, Arabic included, and a URL of 2,048.
    const longest = { title: "م".repeat(30), url: `https://shop.example/${"a".repeat(2048 - 21)}` }
    expect(longest.url).toHaveLength(2048)
    expect((await create(key, longest)).status).toBe(201)
    expect((await s.call("GET", "/v1/chat/menus", { key })).body.data).toHaveLength(1)
  })

  it("change: the same codes; nothing changed when refused", async () => {
    const { appKey: key } = await setupConnectedApp(s)
    const made = (await create(key, shop)).body
    const patch = (body: unknown) => refused(key, "PATCH", `/v1/chat/menus/${made.id}`, body)
    expect(await patch({ title: "" })).toEqual({ title: "invalid" })
    expect(await patch({ title: "t".repeat(31), url: "http://x" })).toEqual({ title: "too_long", url: "invalid" })
    expect(await patch({ title: null })).toEqual({ title: "invalid" })
    expect(await patch({ id: "x" })).toEqual({ id: "unknown" })
    expect((await s.call("GET", `/v1/chat/menus/${made.id}`, { key })).body).toEqual(made)
    const none = await s.call("PATCH", `/v1/chat/menus/${made.id}`, { key, body: {} })
    expect([none.status, none.body]).toEqual([200, made])
  })
})

describe("404 not_found: unknown, or another app's", () => {
  it("another app's menu of the same application, the same app's of another application, an unknown id", async () => {
    const { app, appKey: key } = await setupConnectedApp(s)
    const made = (await create(key, shop)).body
    const otherApp = await connectedKey(s, app.id, { appName: "Another app", scopes: ["chat:menus"] })
    const elsewhere = (await setupConnectedApp(s)).appKey
    for (const other of [otherApp, elsewhere]) {
      for (const method of ["GET", "PATCH", "DELETE"]) {
        const res = await s.call(method, `/v1/chat/menus/${made.id}`, {
          key: other,
          body: method === "PATCH" ? {} : undefined,
        })
        expect([res.status, res.body]).toEqual([404, { error: "not_found" }])
      }
      expect((await s.call("GET", "/v1/chat/menus", { key: other })).body.data).toEqual([])
    }
    for (const id of [crypto.randomUUID(), "not-a-uuid"]) {
      expect((await s.call("GET", `/v1/chat/menus/${id}`, { key })).status).toBe(404)
    }
    expect((await s.call("GET", `/v1/chat/menus/${made.id}`, { key })).body).toEqual(made)
  })
})

describe("scope is judged right after the key is recognised (DECISIONS 9, 17)", () => {
  const scopeRefused = (res: { status: number; body: any; headers: Headers }) => {
    expect([res.status, res.body.error]).toEqual([403, "insufficient_scope"])
    expect(res.headers.get("www-authenticate")).toBe("Bearer error=insufficient_scope, scope=chat:menus")
  }

  it("an application's own key, full access included, answers insufficient_scope", async () => {
    const { key } = await setupApplication(s)
    for (const [method, path] of [["GET", "/v1/chat/menus"], ["POST", "/v1/chat/menus"]] as const) {
      scopeRefused(await s.call(method, path, { key, body: method === "POST" ? shop : undefined }))
    }
  })

  it("a connected app's key without chat:menus: insufficient_scope before key_expired, ip_not_allowed, account_not_active and the body", async () => {
    const { app } = await setupApplication(s, { approved: false })
    const expiring = await s.console("POST", `/applications/${app.id}/connected-app-keys`, {
      app_name: "Attendant app",
      scopes: ["chat:attendant"],
      expires_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      ip_allowlist: ["10.9.9.9"],
    })
    await s.console("POST", "/simulator/clock", { advance_ms: 3 * 86_400_000 })
    scopeRefused(await s.call("POST", "/v1/chat/menus", { key: expiring.key, rawBody: "{not json" }))
    const holding = await connectedKey(s, app.id, { scopes: ["chat:menus"] })
    const notActive = await s.call("POST", "/v1/chat/menus", { key: holding, rawBody: "{not json" })
    expect([notActive.status, notActive.body.error]).toEqual([403, "account_not_active"])
  })
})

describe("idempotent replays and the account's audit record (DECISIONS 4, 9.3)", () => {
  it("a replayed create answers the first answer with Idempotent-Replayed: true and makes, and records, nothing more", async () => {
    const { account, app, appKey: key } = await setupConnectedApp(s, { appName: "Store app" })
    const headers = { "idempotency-key": "menu-1" }
    const first = await create(key, shop, headers)
    const again = await create(key, shop, headers)
    expect([again.status, again.body]).toEqual([201, first.body])
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(first.headers.get("idempotent-replayed")).toBeNull()
    const reused = await create(key, { ...shop, title: "Other" }, headers)
    expect([reused.status, reused.body.error]).toEqual([409, "idempotency_key_reused"])
    expect((await s.call("GET", "/v1/chat/menus", { key })).body.data).toHaveLength(1)
    const id = first.body.id
    await s.call("PATCH", `/v1/chat/menus/${id}`, { key, body: { title: "Returns" } })
    await s.call("PATCH", `/v1/chat/menus/${id}`, { key, body: { title: "Returns" } })
    await s.call("DELETE", `/v1/chat/menus/${id}`, { key })
    const entries = (await auditOf(s, account.id)).slice().sort((a, b) => a.action.localeCompare(b.action))
    expect(entries).toEqual([
      {
        id: expect.any(String),
        at: expect.any(String),
        actor: { type: "app", name: "Store app" },
        application_id: app.id,
        action: "chat.menus.create",
        details: { id, ...shop },
      },
      {
        id: expect.any(String),
        at: expect.any(String),
        actor: { type: "app", name: "Store app" },
        application_id: app.id,
        action: "chat.menus.delete",
        details: { id },
      },
      {
        id: expect.any(String),
        at: expect.any(String),
        actor: { type: "app", name: "Store app" },
        application_id: app.id,
        action: "chat.menus.update",
        details: { id, title: "Returns" },
      },
    ])
  })

  it("a refused write records nothing", async () => {
    const { account, appKey: key } = await setupConnectedApp(s)
    await create(key, { title: "" })
    await s.call("DELETE", `/v1/chat/menus/${crypto.randomUUID()}`, { key })
    expect(await auditOf(s, account.id)).toEqual([])
  })
})
