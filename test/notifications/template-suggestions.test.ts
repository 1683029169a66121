/**
 * Template suggestions over HTTP (DECISIONS 10, 14, 16): the console records an analysis; the account API shows
 * it and creates the picked suggestions on the simulated chat network, 3 a call, with `next` while some remain.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { TemplateAnalysesRepo } from "../../ports/store/template-suggestions.ts"
import { onEveryStore, type TestServer } from "../support/server.ts"
import { putCopy, setupChat } from "./harness.ts"

const suggestion = (key: string, name = key, over: Record<string, unknown> = {}) => ({
  key,
  name,
  category: "utility",
  lang: "ar",
  body: `Hello {{1}}, this is ${name}.`,
  ...over,
})

const tokenOf = async (s: TestServer, account: string, role = "owner") =>
  (await s.console("POST", `/accounts/${account}/account-tokens`, { role, email: `${role}@shop.sa` })).token as string

onEveryStore((server) => {
  const setup = async (opts: { number?: boolean; suggestions?: ReadonlyArray<unknown> } = {}) => {
    const s = server()
    const made = await setupChat(s, { number: opts.number })
    const token = await tokenOf(s, made.account.id)
    const { id } = await s.console("POST", `/applications/${made.app.id}/template-analyses`, {
      suggestions: opts.suggestions ?? ["a", "b", "c", "d", "e"].map((k) => suggestion(`key-${k}`, `tpl_${k}`)),
    })
    const base = `/v1/applications/${made.app.id}/chatmsg/template-suggestions/${id}`
    const create = (keys: unknown, key = token) => s.call("POST", `${base}/create`, { key, body: { keys } })
    return { s, ...made, token, id: id as string, base, create }
  }

  describe("console POST /applications/{application}/template-analyses", () => {
    it("records an analysis: 201 { data: { id } }; the account API shows it, every suggestion suggested", async () => {
      const { s, app, id, base, token } = await setup()
      expect(id).toMatch(/^[0-9a-f-]{36}$/)
      const shown = await s.call("GET", base, { key: token })
      expect(shown.status).toBe(200)
      expect(shown.body.data).toEqual({
        id,
        application_id: app.id,
        suggestions: ["a", "b", "c", "d", "e"].map((k) => ({
          key: `key-${k}`,
          name: `tpl_${k}`,
          category: "utility",
          lang: "ar",
          body: `Hello {{1}}, this is tpl_${k}.`,
          state: "suggested",
          error: null,
        })),
        created_at: expect.any(String),
      })
    })

    it("refuses a suggestion as a template write, and duplicate, long or missing keys, naming each", async () => {
      const s = server()
      const { app } = await setupChat(s)
      const post = (body: unknown) =>
        s.call("POST", `/console/v1/applications/${app.id}/template-analyses`, { key: s.consoleToken, body })
      const refused = await post({
        suggestions: [
          suggestion("a", "Bad Name"),
          suggestion("a", "ok_name", { category: "promo" }),
          suggestion("k".repeat(513), "ok", { lang: "arabic", body: "" }),
          { name: "no_key", category: "utility", lang: "ar", body: "x" },
          "not an object",
        ],
      })
      expect(refused.status).toBe(400)
      expect(refused.body.error).toBe("invalid_request")
      expect(refused.body.errors).toEqual({
        "suggestions[0].name": "invalid",
        "suggestions[1].key": "duplicate",
        "suggestions[1].category": "invalid",
        "suggestions[2].key": "too_long",
        "suggestions[2].lang": "invalid",
        "suggestions[2].body": "invalid",
        "suggestions[3].key": "required",
        "suggestions[4]": "invalid",
      })
      expect((await post({})).body.errors).toEqual({ suggestions: "required" })
      expect((await post({ suggestions: [] })).body.errors).toEqual({ suggestions: "invalid" })
      // A key of exactly 512 characters is taken.
      expect((await post({ suggestions: [suggestion("k".repeat(512), "ok")] })).status).toBe(201)
      const unknownApp = await s.call("POST", `/console/v1/applications/${crypto.randomUUID()}/template-analyses`, {
        key: s.consoleToken,
        body: { suggestions: [suggestion("a")] },
      })
      expect(unknownApp.status).toBe(404)
    })
  })

  describe("GET .../template-suggestions/{analysis} (whatsapp.template_suggestions.show)", () => {
    it("every role reads it; another application's analysis, or an unknown one, is 404", async () => {
      const { s, account, base, id, token } = await setup()
      const agent = await tokenOf(s, account.id, "agent")
      expect((await s.call("GET", base, { key: agent })).status).toBe(200)
      const other = await setup()
      const foreign = await s.call("GET", `/v1/applications/${other.app.id}/chatmsg/template-suggestions/${id}`, {
        key: other.token,
      })
      expect(foreign.status).toBe(404)
      expect(foreign.body.error).toBe("not_found")
      expect((await s.call("GET", base.replace(id, crypto.randomUUID()), { key: token })).status).toBe(404)
      expect((await s.call("GET", base.replace(id, "not-a-uuid"), { key: token })).status).toBe(404)
    })
  })

  describe("POST .../create (whatsapp.template_suggestions.create)", () => {
    it("makes at most 3 a call, oldest pick first; next repeats the call while some remain", async () => {
      const { s, account, key, base, create } = await setup()
      const first = await create(["key-e", "key-a", "key-c", "key-b"])
      expect(first.status).toBe(200)
      expect(first.body).toEqual({
        data: { made: ["key-a", "key-b", "key-c"], failed: [], remaining: ["key-e"], per_call: 3 },
        next: {
          operation: "whatsapp.template_suggestions.create",
          method: "POST",
          path: `${base}/create`,
        },
      })
      // Picked later, made after the earlier pick: key-e then key-d.
      await s.call("POST", "/console/v1/simulator/clock", { key: s.consoleToken, body: { advance_ms: 1_000 } })
      const second = await create(["key-d"])
      expect(second.body).toEqual({
        data: {
          made: ["key-a", "key-b", "key-c", "key-e", "key-d"],
          failed: [],
          remaining: [],
          per_call: 3,
        },
        next: null,
      })
      // The made ones arrived pending on the network.
      const templates = await s.call("GET", "/v1/chatmsg/templates", { key })
      expect(templates.status).toBe(200)
      const names = templates.body.data.map((t: any) => t.name).sort()
      expect(names).toEqual(["tpl_a", "tpl_b", "tpl_c", "tpl_d", "tpl_e"])
      for (const t of templates.body.data) {
        expect(t.languages).toEqual([expect.objectContaining({ lang: "ar", status: "pending" })])
      }
      const shown = await s.call("GET", base, { key: await tokenOf(s, account.id, "admin") })
      expect(shown.body.data.suggestions.map((x: any) => x.state)).toEqual(["made", "made", "made", "made", "made"])
      // Made ones stay made: picking them again makes nothing more.
      const again = await create(["key-a"])
      expect(again.body.data).toEqual({ made: expect.any(Array), failed: [], remaining: [], per_call: 3 })
      expect(again.body.next).toBeNull()
    })

    it("a name and language the network already holds fails with template_exists; the rest are made", async () => {
      const { s, app, base, token, create } = await setup({
        suggestions: [suggestion("held", "order_update"), suggestion("new", "order_new")],
      })
      await putCopy(s, app.id, "order_update", "ar", { category: "utility", body: "Held {{1}}." })
      const res = await create(["held", "new"])
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual({
        made: ["new"],
        failed: [{ key: "held", error: "template_exists" }],
        remaining: [],
        per_call: 3,
      })
      expect(res.body.next).toBeNull()
      const shown = await s.call("GET", base, { key: token })
      expect(shown.body.data.suggestions.map((x: any) => [x.key, x.state, x.error])).toEqual([
        ["held", "failed", "template_exists"],
        ["new", "made", null],
      ])
      // The failure stands for that call only: a later call reports its own.
      await s.call("DELETE", `/console/v1/simulator/chatmsg/applications/${app.id}/templates/order_update/ar`, {
        key: s.consoleToken,
      })
      const retried = await create(["held"])
      expect(retried.body.data).toEqual({ made: ["new", "held"], failed: [], remaining: [], per_call: 3 })
    })

    it("an unknown key is 400 invalid_request naming keys[i]; nothing is picked", async () => {
      const { s, base, token, create } = await setup()
      const res = await create(["key-a", "nope", "key-b", "other"])
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({
        error: "invalid_request",
        errors: { "keys[1]": "unknown", "keys[3]": "unknown" },
        fields: { "keys[1]": expect.any(String), "keys[3]": expect.any(String) },
      })
      const shown = await s.call("GET", base, { key: token })
      expect(shown.body.data.suggestions.every((x: any) => x.state === "suggested")).toBe(true)
    })

    it("keys: 1 to 6 strings, each at most 512 characters; other fields are unknown", async () => {
      const { s, base, token, create } = await setup()
      expect((await create([])).body.errors).toEqual({ keys: "invalid" })
      expect((await create(["a", "b", "c", "d", "e", "f", "g"])).body.errors).toEqual({ keys: "too_long" })
      expect((await create(["k".repeat(513)])).body.errors).toEqual({ "keys[0]": "too_long" })
      expect((await create([1])).body.errors).toEqual({ "keys[0]": "invalid" })
      expect((await create(undefined)).body.errors).toEqual({ keys: "required" })
      const extra = await s.call("POST", `${base}/create`, { key: token, body: { keys: ["key-a"], all: true } })
      expect(extra.status).toBe(400)
      expect(extra.body.errors).toEqual({ all: "unknown" })
    })

    it("no number: 409 no_whatsapp_number with needs and human_action connect_whatsapp", async () => {
      const { s, base, create } = await setup({ number: false })
      const res = await create(["key-a"])
      expect(res.status).toBe(409)
      const again = { operation: "whatsapp.template_suggestions.create", method: "POST", path: `${base}/create` }
      expect(res.body).toEqual({
        error: "no_whatsapp_number",
        message: expect.any(String),
        needs: ["whatsapp_number"],
        human_action: {
          reason: "connect_whatsapp",
          url: expect.stringMatching(new RegExp(`^${s.baseUrl}/console/`)),
          say: expect.any(String),
          then: again,
        },
      })
    })

    it("the network not answering: 503 templates_unavailable with next the same call; made on the next", async () => {
      const { s, app, base, create } = await setup()
      const network = `/console/v1/simulator/chatmsg/applications/${app.id}/network`
      await s.call("PUT", network, { key: s.consoleToken, body: { templates_readable: false } })
      const res = await create(["key-a"])
      expect(res.status).toBe(503)
      expect(res.body).toEqual({
        error: "templates_unavailable",
        message: expect.any(String),
        next: { operation: "whatsapp.template_suggestions.create", method: "POST", path: `${base}/create` },
      })
      await s.call("PUT", network, { key: s.consoleToken, body: { templates_readable: true } })
      const later = await create(["key-b"])
      // key-a was picked first: it is made first.
      expect(later.body.data).toEqual({ made: ["key-a", "key-b"], failed: [], remaining: [], per_call: 3 })
    })

    it("another call holding the analysis: 409 suggestions_busy with next; the hold lapses if never given back", async () => {
      const { s, id, base, create } = await setup()
      // A call of another process holds it (its lease row), as long as the lease lasts.
      const held = await s.platform.runtime.runPromise(
        Effect.flatMap(TemplateAnalysesRepo, (r) => r.lease(id, "another-process", 0, Number.MAX_SAFE_INTEGER)),
      )
      expect(held).toBe(true)
      const busy = await create(["key-a"])
      expect(busy.status).toBe(409)
      expect(busy.body).toEqual({
        error: "suggestions_busy",
        message: expect.any(String),
        next: { operation: "whatsapp.template_suggestions.create", method: "POST", path: `${base}/create` },
      })
      await s.platform.runtime.runPromise(
        Effect.flatMap(TemplateAnalysesRepo, (r) => r.release(id, "another-process")),
      )
      expect((await create(["key-a"])).status).toBe(200)
      // A hold whose holder died lapses at its end.
      await s.platform.runtime.runPromise(
        Effect.flatMap(TemplateAnalysesRepo, (r) => r.lease(id, "dead-process", 0, 1)),
      )
      expect((await create(["key-b"])).status).toBe(200)
    })

    it("concurrent calls on one analysis: one runs, the others answer suggestions_busy, and the hold is freed", async () => {
      const { create } = await setup()
      const answers = await Promise.all(Array.from({ length: 6 }, () => create(["key-a", "key-b"])))
      const statuses = answers.map((a) => a.status)
      expect(statuses.filter((x) => x === 200).length).toBeGreaterThanOrEqual(1)
      for (const a of answers) {
        if (a.status !== 200) expect(a.body.error).toBe("suggestions_busy")
      }
      expect((await create(["key-c"])).status).toBe(200)
    })

    it("an agent is refused with 403 insufficient_role; an admin may", async () => {
      const { s, account, base, create } = await setup()
      const agent = await tokenOf(s, account.id, "agent")
      const refused = await create(["key-a"], agent)
      expect(refused.status).toBe(403)
      expect(refused.body).toMatchObject({ error: "insufficient_role", needs: ["role:owner", "role:admin"] })
      const admin = await tokenOf(s, account.id, "admin")
      expect((await s.call("POST", `${base}/create`, { key: admin, body: { keys: ["key-a"] } })).status).toBe(200)
    })

    it("the catalogue lists both operations; call by name answers as the route", async () => {
      const { s, app, id, token } = await setup()
      const catalogue = await s.call("GET", "/v1/operations?limit=100", { key: token })
      const rows = catalogue.body.data as Array<Record<string, any>>
      const show = rows.find((r) => r.name === "whatsapp.template_suggestions.show")
      const create = rows.find((r) => r.name === "whatsapp.template_suggestions.create")
      expect(show).toMatchObject({
        method: "GET",
        path: "/v1/applications/{application}/chatmsg/template-suggestions/{analysis}",
        roles: ["owner", "admin", "agent"],
        idempotent: true,
      })
      expect(create).toMatchObject({
        method: "POST",
        path: "/v1/applications/{application}/chatmsg/template-suggestions/{analysis}/create",
        roles: ["owner", "admin"],
        idempotent: true,
        requires_approval: false,
      })
      expect(Object.keys(create!.input_schema.properties).sort()).toEqual(["analysis", "application", "keys"])
      const byName = await s.call("POST", "/v1/operations/whatsapp.template_suggestions.create", {
        key: token,
        body: { application: app.id, analysis: id, keys: ["key-a"] },
      })
      expect(byName.status).toBe(200)
      expect(byName.body.data).toEqual({ made: ["key-a"], failed: [], remaining: [], per_call: 3 })
      const shown = await s.call("POST", "/v1/operations/whatsapp.template_suggestions.show", {
        key: token,
        body: { application: app.id, analysis: id },
      })
      expect(shown.status).toBe(200)
      expect(shown.body.data.suggestions[0]).toMatchObject({ key: "key-a", state: "made" })
    })
  })
})
