/**
 * The auto-attendant over HTTP (DECISIONS 9.2; spec Errors "Auto-attendant"): the five operations with scope
 * judged right after the key, the draft saved with its problems, `400 invalid_request` with `fields` and `errors`
 * (`menu` `required`, `not_object`, `too_large`; `enabled` `required`; `mode`, `language` `invalid`; settings with
 * neither: `mode` `required`), the 64 KB and 256-choice limits refusing before anything is saved, publish as the
 * next version keeping the draft, `409 attendant_no_draft`, `422 attendant_not_ready`, idempotent replays and the
 * account's audit record (9.3).
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { onEveryStore, setupApplication, type TestServer, useServer } from "../support/server.ts"
import { overOneLimit, validMenu } from "./arbitraries.ts"
import { auditOf, connectedKey, goodMenu, setupConnectedApp } from "./harness.ts"

const s = useServer()

const draft = (s: TestServer, key: string, body: unknown, headers?: Record<string, string>) =>
  s.call("PUT", "/v1/chat/attendant/draft", { key, body, headers })
const publish = (s: TestServer, key: string, headers?: Record<string, string>) =>
  s.call("POST", "/v1/chat/attendant/publish", { key, headers })
const show = async (s: TestServer, key: string) => {
  const res = await s.call("GET", "/v1/chat/attendant", { key })
  expect(res.status).toBe(200)
  return res.body
}

const untouched = { enabled: false, mode: "always", language: "ar", live: null, draft: null }

/** A menu with a too-long title and no choice leading to the team. */
const withProblems = () => ({
  greeting: "Hello",
  choices: [{ id: "hours", title: "t".repeat(25), action: { type: "answer", text: "9 to 5" } }],
})
const itsProblems = [
  { code: "title_long", choice_id: "hours", field: "title", max: 24 },
  { code: "no_team_choice", choice_id: null, field: "choices", max: null },
]

/** A menu of `n` choices in all, within every per-level limit. */
const menuOfChoices = (n: number) => {
  let next = 0
  const level = (depth: number): Array<unknown> => {
    const out: Array<any> = []
    while (out.length < 10 && next < n - 1) {
      const c: any = { id: `c${next++}`, title: "C", action: { type: "answer", text: "x" } }
      if (depth < 3 && next < n - 1) c.action = { type: "menu", choices: level(depth + 1) }
      out.push(c)
    }
    return out
  }
  return { greeting: "Hi", choices: [{ id: "team", title: "Team", action: { type: "team" } }, ...level(1)] }
}

onEveryStore((server, store) => {
  describe(`${store}: draft, publish, settings`, () => {
    it("untouched; a draft saved with its problems; 422 not_ready; fixed; version 1 keeping the draft; again: version 1; changed: 2", async () => {
      const s = server()
      const { appKey: key } = await setupConnectedApp(s)
      expect(await show(s, key)).toEqual(untouched)
      const noDraft = await publish(s, key)
      expect([noDraft.status, noDraft.body.error]).toEqual([409, "attendant_no_draft"])

      const saved = await draft(s, key, { menu: withProblems() })
      expect(saved.status).toBe(200)
      expect(saved.body).toEqual({ menu: withProblems(), saved_at: expect.any(String), problems: itsProblems })
      expect(await show(s, key)).toEqual({ ...untouched, draft: saved.body })
      const notReady = await publish(s, key)
      expect([notReady.status, notReady.body]).toEqual([422, { error: "attendant_not_ready", problems: itsProblems }])
      expect((await show(s, key)).live).toBeNull()

      const fixed = await draft(s, key, { menu: goodMenu() })
      expect(fixed.body.problems).toEqual([])
      const first = await publish(s, key)
      expect([first.status, first.body]).toEqual([200, { version: 1, published_at: expect.any(String) }])
      const after = await show(s, key)
      expect(after.live).toEqual({ version: 1, published_at: first.body.published_at, menu: goodMenu() })
      expect(after.draft).toEqual(fixed.body)

      await s.console("POST", "/simulator/clock", { advance_ms: 5_000 })
      expect((await publish(s, key)).body).toEqual(first.body)
      // The same menu sent again with its keys in another order is still the live one.
      const reordered = { choices: goodMenu().choices, greeting: goodMenu().greeting }
      await draft(s, key, { menu: reordered })
      expect((await publish(s, key)).body).toEqual(first.body)

      await draft(s, key, { menu: { ...goodMenu(), greeting: "Welcome back" } })
      const second = await publish(s, key)
      expect(second.body).toEqual({ version: 2, published_at: expect.any(String) })
      expect(second.body.published_at > first.body.published_at).toBe(true)
      expect((await show(s, key)).live.menu.greeting).toBe("Welcome back")
    })

    it("publishes racing on one draft make one version: every one answers version 1", async () => {
      const s = server()
      const { appKey: key } = await setupConnectedApp(s)
      await draft(s, key, { menu: goodMenu() })
      const answers = await Promise.all(Array.from({ length: 6 }, () => publish(s, key)))
      expect(answers.map((a) => [a.status, a.body.version])).toEqual(Array.from({ length: 6 }, () => [200, 1]))
      expect(new Set(answers.map((a) => a.body.published_at)).size).toBe(1)
      await draft(s, key, { menu: { ...goodMenu(), greeting: "Again" } })
      expect((await publish(s, key)).body.version).toBe(2)
    })

    it("settings given with a draft apply at once; /enabled and /settings answer the attendant; on before anything is live", async () => {
      const s = server()
      const { appKey: key } = await setupConnectedApp(s)
      const on = await s.call("PUT", "/v1/chat/attendant/enabled", { key, body: { enabled: true } })
      expect([on.status, on.body]).toEqual([200, { ...untouched, enabled: true }])
      const changed = await s.call("PATCH", "/v1/chat/attendant/settings", { key, body: { language: "en" } })
      expect(changed.body).toEqual({ ...untouched, enabled: true, language: "en" })
      const saved = await draft(s, key, { menu: goodMenu(), enabled: false, mode: "after_hours", language: "auto" })
      expect(saved.status).toBe(200)
      expect(await show(s, key)).toEqual({
        enabled: false,
        mode: "after_hours",
        language: "auto",
        live: null,
        draft: saved.body,
      })
      const both = await s.call("PATCH", "/v1/chat/attendant/settings", {
        key,
        body: { mode: "always", language: "ar" },
      })
      expect(both.body).toEqual({ ...untouched, draft: saved.body })
    })
  })
})

describe("through HTTP: any menu the validator accepts publishes; one over exactly one limit answers that problem", () => {
  /** A fresh app's key per run: each key stays well under its 120 requests a minute. */
  it("a valid menu: saved without problems, published as version 1, read back as sent", async () => {
    await fc.assert(
      fc.asyncProperty(validMenu, async (menu) => {
        const { appKey: key } = await setupConnectedApp(s)
        const saved = await draft(s, key, { menu })
        expect([saved.status, saved.body.problems]).toEqual([200, []])
        const published = await publish(s, key)
        expect([published.status, published.body.version]).toEqual([200, 1])
        expect((await show(s, key)).live.menu).toEqual(menu)
      }),
      { numRuns: 15, seed: 20_261_127 },
    )
  })

  it("a menu over one limit: saved with exactly that problem; publish answers 422 with it", async () => {
    await fc.assert(
      fc.asyncProperty(overOneLimit, async ({ menu, expected }) => {
        fc.pre(expected.length > 0 && new TextEncoder().encode(JSON.stringify(menu)).length <= 65_536)
        const { appKey: key } = await setupConnectedApp(s)
        const saved = await draft(s, key, { menu })
        expect(saved.body.problems.map((p: any) => [p.code, p.choice_id, p.field, p.max])).toEqual(expected)
        const refused = await publish(s, key)
        expect([refused.status, refused.body.error, refused.body.problems]).toEqual([
          422,
          "attendant_not_ready",
          saved.body.problems,
        ])
      }),
      { numRuns: 15, seed: 20_261_127 },
    )
  })
})

describe("400 invalid_request with fields and errors; nothing saved", () => {
  const refused = async (key: string, method: string, path: string, body: unknown) => {
    const res = await s.call(method, path, { key, body })
    expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(400)
    expect(res.body.error).toBe("invalid_request")
    expect(Object.keys(res.body.fields).sort()).toEqual(Object.keys(res.body.errors).sort())
    return res.body.errors
  }

  it("draft: menu required, not_object (array, string, number); enabled required (not a boolean); mode, language invalid; unknown", async () => {
    const { appKey: key } = await setupConnectedApp(s)
    const put = (body: unknown) => refused(key, "PUT", "/v1/chat/attendant/draft", body)
    expect(await put({})).toEqual({ menu: "required" })
    expect(await put({ menu: null })).toEqual({ menu: "required" })
    for (const menu of [[], [goodMenu()], "menu", 42, true]) expect(await put({ menu })).toEqual({ menu: "not_object" })
    expect(await put({ menu: goodMenu(), enabled: "true" })).toEqual({ enabled: "required" })
    expect(await put({ menu: goodMenu(), enabled: null })).toEqual({ enabled: "required" })
    expect(await put({ menu: goodMenu(), mode: "ALWAYS" })).toEqual({ mode: "invalid" })
    expect(await put({ menu: goodMenu(), language: "fr" })).toEqual({ language: "invalid" })
    expect(await put({ menu: goodMenu(), colour: "red" })).toEqual({ colour: "unknown" })
    expect(await put({ menu: [], enabled: "true", mode: "ALWAYS", language: 1 })).toEqual({
      menu: "not_object",
      enabled: "required",
      mode: "invalid",
      language: "invalid",
    })
    expect(await show(s, key)).toEqual(untouched)
  })

  it("64 KB of JSON plus one byte, and 257 choices in all: menu too_large, the settings beside it not applied", async () => {
    const { appKey: key } = await setupConnectedApp(s)
    const sized = (bytes: number) => {
      const menu = { greeting: "Hi", choices: [{ id: "team", title: "Team", action: { type: "team" } }], pad: "" }
      menu.pad = "a".repeat(bytes - JSON.stringify(menu).length)
      expect(new TextEncoder().encode(JSON.stringify(menu)).length).toBe(bytes)
      return menu
    }
    expect(await refused(key, "PUT", "/v1/chat/attendant/draft", { menu: sized(65_537), enabled: true })).toEqual({
      menu: "too_large",
    })
    expect(await refused(key, "PUT", "/v1/chat/attendant/draft", { menu: menuOfChoices(257), mode: "after_hours" }))
      .toEqual({ menu: "too_large" })
    expect(await show(s, key)).toEqual(untouched)
    const exact = await draft(s, key, { menu: sized(65_536) })
    expect([exact.status, exact.body.problems]).toEqual([200, []])
    const most = await draft(s, key, { menu: menuOfChoices(256) })
    expect([most.status, most.body.problems]).toEqual([200, []])
  })

  it("/enabled without a boolean: enabled required; /settings with neither: mode required; bad values invalid", async () => {
    const { appKey: key } = await setupConnectedApp(s)
    const enabled = (body: unknown) => refused(key, "PUT", "/v1/chat/attendant/enabled", body)
    for (const body of [{}, { enabled: "true" }, { enabled: 1 }, { enabled: null }]) {
      expect(await enabled(body)).toEqual({ enabled: "required" })
    }
    expect(await enabled({ enabled: true, mode: "always" })).toEqual({ mode: "unknown" })
    const settings = (body: unknown) => refused(key, "PATCH", "/v1/chat/attendant/settings", body)
    expect(await settings({})).toEqual({ mode: "required" })
    expect(await settings({ mode: "ALWAYS" })).toEqual({ mode: "invalid" })
    expect(await settings({ language: "fr" })).toEqual({ language: "invalid" })
    expect(await settings({ mode: null, language: "en" })).toEqual({ mode: "invalid" })
    expect(await settings({ enabled: true })).toEqual({ mode: "required", enabled: "unknown" })
    expect(await show(s, key)).toEqual(untouched)
  })
})

describe("the assistant: an assistant choice on an application with no connected store is no_assistant", () => {
  it("saved with the problem; publish answers 422 attendant_not_ready naming it", async () => {
    const { appKey: key } = await setupConnectedApp(s)
    const menu = goodMenu()
    menu.choices.push({ id: "shop", title: "Ask the shop", action: { type: "assistant" } } as any)
    const saved = await draft(s, key, { menu })
    expect(saved.body.problems).toEqual([{ code: "no_assistant", choice_id: "shop", field: "action", max: null }])
    const res = await publish(s, key)
    expect([res.status, res.body.problems]).toEqual([422, saved.body.problems])
  })
})

describe("scope is judged right after the key is recognised", () => {
  const scopeRefused = (res: { status: number; body: any; headers: Headers }) => {
    expect([res.status, res.body]).toEqual([403, { error: "insufficient_scope" }])
    expect(res.headers.get("www-authenticate")).toBe("Bearer error=insufficient_scope, scope=chat:attendant")
  }
  const routes = [
    ["GET", "/v1/chat/attendant"],
    ["PUT", "/v1/chat/attendant/draft"],
    ["POST", "/v1/chat/attendant/publish"],
    ["PUT", "/v1/chat/attendant/enabled"],
    ["PATCH", "/v1/chat/attendant/settings"],
  ] as const

  it("an application's own key (full access), and a connected app's key holding only chat:menus, on every route", async () => {
    const { app, key } = await setupApplication(s)
    const menusOnly = await connectedKey(s, app.id, { scopes: ["chat:menus"] })
    for (const k of [key, menusOnly]) {
      for (const [method, path] of routes) {
        scopeRefused(await s.call(method, path, { key: k, rawBody: method === "GET" ? undefined : "{" }))
      }
    }
  })

  it("before key_expired, ip_not_allowed and account_not_active; account_not_active before the body", async () => {
    const { app } = await setupApplication(s, { approved: false })
    const expiring = await s.console("POST", `/applications/${app.id}/connected-app-keys`, {
      app_name: "Menus app",
      scopes: ["chat:menus"],
      expires_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      ip_allowlist: ["10.9.9.9"],
    })
    const holding = await connectedKey(s, app.id, { scopes: ["chat:attendant"] })
    await s.console("POST", "/simulator/clock", { advance_ms: 3 * 86_400_000 })
    for (const [method, path] of routes) {
      const rawBody = method === "GET" ? undefined : "{"
      scopeRefused(await s.call(method, path, { key: expiring.key, rawBody }))
      const res = await s.call(method, path, { key: holding, rawBody })
      expect([res.status, res.body.error]).toEqual([403, "account_not_active"])
    }
  })
})

describe("one attendant per application, whichever app writes it; idempotent replays; the audit record", () => {
  it("two apps of one application see one attendant; each write recorded under the app's name; replays add nothing", async () => {
    const { account, app, appKey: key } = await setupConnectedApp(s, { appName: "Store app" })
    const other = await connectedKey(s, app.id, { appName: "Helper app", scopes: ["chat:attendant"] })
    const once = { "idempotency-key": "draft-1" }
    const saved = await draft(s, key, { menu: goodMenu(), mode: "after_hours" }, once)
    const replayed = await draft(s, key, { menu: goodMenu(), mode: "after_hours" }, once)
    expect([replayed.status, replayed.body]).toEqual([200, saved.body])
    expect(replayed.headers.get("idempotent-replayed")).toBe("true")
    for (const bad of ["", "x".repeat(129), "clé"]) {
      const malformed = await publish(s, key, { "idempotency-key": bad })
      expect([malformed.status, malformed.body.error, malformed.body.errors]).toEqual([
        400,
        "invalid_request",
        { "Idempotency-Key": "invalid" },
      ])
      expect(Object.keys(malformed.body.fields)).toEqual(["Idempotency-Key"])
    }
    const reused = await draft(s, key, { menu: withProblems() }, once)
    expect([reused.status, reused.body.error]).toEqual([409, "idempotency_key_reused"])

    await s.console("POST", "/simulator/clock", { advance_ms: 1_000 })
    const p = { "idempotency-key": "publish-1" }
    const published = await publish(s, other, p)
    expect(published.body.version).toBe(1)
    await s.console("POST", "/simulator/clock", { advance_ms: 1_000 })
    const again = await publish(s, other, p)
    expect([again.status, again.body]).toEqual([200, published.body])
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect((await show(s, key)).live.version).toBe(1)
    const e = { "idempotency-key": "enabled-1" }
    await s.call("PUT", "/v1/chat/attendant/enabled", { key, body: { enabled: true }, headers: e })
    await s.call("PUT", "/v1/chat/attendant/enabled", { key, body: { enabled: true }, headers: e })
    await s.call("PATCH", "/v1/chat/attendant/settings", { key: other, body: { language: "en" } })
    // Refused writes record nothing.
    await draft(s, key, { menu: [] })
    await s.call("PATCH", "/v1/chat/attendant/settings", { key, body: {} })

    const entries = (await auditOf(s, account.id)).map((x) => ({
      actor: x.actor,
      application_id: x.application_id,
      action: x.action,
      details: x.details,
    }))
    const expected = [
      {
        actor: { type: "app", name: "Store app" },
        action: "chat.attendant.draft",
        details: { mode: "after_hours", problems: 0 },
      },
      { actor: { type: "app", name: "Helper app" }, action: "chat.attendant.publish", details: { version: 1 } },
      { actor: { type: "app", name: "Store app" }, action: "chat.attendant.enabled", details: { enabled: true } },
      { actor: { type: "app", name: "Helper app" }, action: "chat.attendant.settings", details: { language: "en" } },
    ].map((x) => ({ ...x, application_id: app.id }))
    expect(entries.slice().sort((a, b) => a.action.localeCompare(b.action))).toEqual(
      expected.slice().sort((a, b) => a.action.localeCompare(b.action)),
    )
    // Newest first.
    expect(entries[entries.length - 1].action).toBe("chat.attendant.draft")
  })
})
