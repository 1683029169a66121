/**
 * The store assistant over HTTP (DECISIONS 9.5, 10): the console connects a simulated store and sets the tools;
 * the account API lists stores, refreshes a store's templates and reads the assistant store; the products are
 * read at connection and every 6 hours of platform time, a failed read keeping the last ones; an attendant's
 * `assistant` choice is `no_assistant` only while the application has no connected store.
 */
import { describe, expect, it } from "vitest"
import { onEveryStore, setupApplication, startServer, type TestServer } from "../support/server.ts"
import { goodMenu, setupConnectedApp } from "./harness.ts"

const hour = 3_600_000

const products = (n: number, price = 1_500) =>
  Array.from(
    { length: n },
    (_, i) => ({ id: `p${i}`, name: `Product ${i}`, price_halalas: price + i, available: i % 2 === 0 }),
  )

const putStore = (s: TestServer, platform: string, ref: string, body: Record<string, unknown>) =>
  s.call("PUT", `/console/v1/simulator/stores/${platform}/${ref}`, { key: s.consoleToken, body })

const connect = (s: TestServer, application: string, body: unknown) =>
  s.call("POST", `/console/v1/applications/${application}/stores`, { key: s.consoleToken, body })

const tokenOf = async (s: TestServer, account: string, role = "owner") =>
  (await s.console("POST", `/accounts/${account}/account-tokens`, { role, email: `${role}@shop.sa` })).token as string

const advance = (s: TestServer, ms: number) => s.console("POST", "/simulator/clock", { advance_ms: ms })
const now = async (s: TestServer): Promise<number> => (await advance(s, 0)).now_ms

onEveryStore((server) => {
  /** An application with a simulated Salla store `ref` of `count` products, connected; an owner's token. */
  const setup = async (opts: { count?: number; connect?: boolean; number?: boolean } = {}) => {
    const s = server()
    const made = await setupApplication(s)
    const ref = `shop-${crypto.randomUUID().slice(0, 8)}`
    const put = await putStore(s, "salla", ref, {
      name: "Dates Shop",
      url: "https://dates.sa",
      products: products(opts.count ?? 3),
    })
    expect(put.status).toBe(200)
    if (opts.number ?? true) {
      await s.console("PUT", `/simulator/chatmsg/applications/${made.app.id}/number`, { number: "0555000111" })
    }
    const token = await tokenOf(s, made.account.id)
    const connected = opts.connect ?? true ? await connect(s, made.app.id, { platform: "salla", ref }) : undefined
    const read = async () => {
      const res = await s.call("GET", `/v1/applications/${made.app.id}/assistant/store`, { key: token })
      expect(res.status).toBe(200)
      return res.body.data
    }
    return { s, ...made, ref, token, connected, read }
  }

  describe("console POST /applications/{application}/stores { platform, ref } → { id, platform, ref, name }", () => {
    it("connects the simulated store, read at once: 201 with the store's name", async () => {
      const { connected, ref } = await setup()
      expect(connected!.status).toBe(201)
      expect(connected!.body.data).toEqual({ id: expect.any(String), platform: "salla", ref, name: "Dates Shop" })
    })

    it("a store its platform does not answer (never put, or reachable: false): 502 store_platform_unreachable, nothing kept", async () => {
      const { s, app, ref, read } = await setup({ connect: false })
      const unknown = await connect(s, app.id, { platform: "zid", ref })
      expect([unknown.status, unknown.body.error]).toEqual([502, "store_platform_unreachable"])
      await putStore(s, "salla", ref, { name: "Dates Shop", products: [], reachable: false })
      const down = await connect(s, app.id, { platform: "salla", ref })
      expect([down.status, down.body.error]).toEqual([502, "store_platform_unreachable"])
      expect((await read()).connected).toBe(false)
    })

    it("refuses a platform other than salla or zid and a ref that is not one; 404 for an unknown application", async () => {
      const { s, app } = await setup({ connect: false })
      const bad = await connect(s, app.id, { platform: "shopify", ref: "a/b" })
      expect(bad.status).toBe(400)
      expect(Object.keys(bad.body.errors).sort()).toEqual(["platform", "ref"])
      const missing = await connect(s, crypto.randomUUID(), { platform: "salla", ref: "x" })
      expect(missing.status).toBe(404)
    })

    it("connecting again replaces the application's store; the same store keeps its id", async () => {
      const { s, app, ref, connected, read } = await setup()
      const again = await connect(s, app.id, { platform: "salla", ref })
      expect(again.body.data.id).toBe(connected!.body.data.id)
      await putStore(s, "zid", ref, { name: "Zid Shop", products: products(1) })
      const other = await connect(s, app.id, { platform: "zid", ref })
      expect(other.body.data.id).not.toBe(connected!.body.data.id)
      expect((await read()).store).toEqual({ id: other.body.data.id, platform: "zid", name: "Zid Shop", url: null })
    })
  })

  describe("assistant.store.show: { connected, store, products (first 50), products_total, products_read_at, tools }", () => {
    it("no store: connected false, store null, no products, tools start on", async () => {
      const { read } = await setup({ connect: false })
      expect(await read()).toEqual({
        connected: false,
        store: null,
        products: [],
        products_total: 0,
        products_read_at: null,
        tools: { orders: true, order_status: true, products: true },
      })
    })

    it("a connected store: its first 50 products of 60 in the platform's order, when they were read", async () => {
      const { s, read, connected } = await setup({ count: 60 })
      const at = await now(s)
      const shown = await read()
      expect(shown.connected).toBe(true)
      expect(shown.store).toEqual({
        id: connected!.body.data.id,
        platform: "salla",
        name: "Dates Shop",
        url: "https://dates.sa",
      })
      expect(shown.products).toEqual(products(60).slice(0, 50))
      expect(shown.products_total).toBe(60)
      expect(Date.parse(shown.products_read_at)).toBe(at)
      expect(shown.tools).toEqual({ orders: true, order_status: true, products: true })
    })

    it("console PUT /applications/{application}/assistant { tools } switches tools; those not given keep theirs", async () => {
      const { s, app, read } = await setup()
      const put = await s.console("PUT", `/applications/${app.id}/assistant`, { tools: { orders: false } })
      expect(put.tools).toEqual({ orders: false, order_status: true, products: true })
      await s.console("PUT", `/applications/${app.id}/assistant`, { tools: { products: false } })
      expect((await read()).tools).toEqual({ orders: false, order_status: true, products: false })
    })

    it("an agent reads it without the prices (role-limited facts stay limited everywhere)", async () => {
      const { s, account, app } = await setup({ count: 2 })
      const agent = await tokenOf(s, account.id, "agent")
      const res = await s.call("GET", `/v1/applications/${app.id}/assistant/store`, { key: agent })
      expect(res.status).toBe(200)
      expect(res.body.data.products).toEqual(products(2).map(({ price_halalas: _, ...rest }) => rest))
      expect(JSON.stringify(res.body)).not.toMatch(/_halalas/)
    })

    it("another account's application: 404 not_found", async () => {
      const { s, app } = await setup()
      const stranger = await setupApplication(s)
      const token = await tokenOf(s, stranger.account.id)
      const res = await s.call("GET", `/v1/applications/${app.id}/assistant/store`, { key: token })
      expect([res.status, res.body.error]).toEqual([404, "not_found"])
    })
  })

  describe("read at connection and every 6 h of platform time; a failed read keeps the last products", () => {
    it("the platform's change shows only once 6 hours have passed, read as at the due time", async () => {
      const { s, ref, read } = await setup()
      const connectedAt = Date.parse((await read()).products_read_at)
      await putStore(s, "salla", ref, { name: "Dates Shop 2", products: products(5, 900) })
      await advance(s, 6 * hour - 1_000)
      expect((await read()).products).toEqual(products(3))
      await advance(s, 1_000)
      const after = await read()
      expect(after.products).toEqual(products(5, 900))
      expect(after.store.name).toBe("Dates Shop 2")
      expect(Date.parse(after.products_read_at)).toBe(connectedAt + 6 * hour)
    })

    it("an unreachable platform keeps the products and when they were read; the next read after it takes", async () => {
      const { s, ref, read } = await setup()
      const first = await read()
      await putStore(s, "salla", ref, { name: "Dates Shop", products: products(4, 100), reachable: false })
      await advance(s, 6 * hour)
      expect(await read()).toEqual(first)
      await putStore(s, "salla", ref, { name: "Dates Shop", products: products(4, 100) })
      await advance(s, 6 * hour)
      const later = await read()
      expect(later.products).toEqual(products(4, 100))
      expect(Date.parse(later.products_read_at)).toBe(Date.parse(first.products_read_at) + 12 * hour)
    })
  })

  describe("stores.list: GET /v1/stores → Store { id, platform, ref, name, application_id }", () => {
    it("lists the account's stores only, paged", async () => {
      const { s, app, ref, token, connected, account } = await setup()
      const second = await s.console("POST", `/accounts/${account.id}/applications`, { name: "Shop 2", approved: true })
      await putStore(s, "zid", ref, { name: "Zid Shop", products: [] })
      await advance(s, 1_000) // oldest connection first
      const other = await connect(s, second.id, { platform: "zid", ref })
      await setup() // another account's store
      const page1 = await s.call("GET", "/v1/stores?limit=1", { key: token })
      expect(page1.status).toBe(200)
      expect(page1.body.data).toEqual([
        { id: connected!.body.data.id, platform: "salla", ref, name: "Dates Shop", application_id: app.id },
      ])
      const page2 = await s.call("GET", `/v1/stores?limit=1&cursor=${page1.body.next_cursor}`, { key: token })
      expect(page2.body).toEqual({
        data: [{ id: other.body.data.id, platform: "zid", ref, name: "Zid Shop", application_id: second.id }],
        next_cursor: null,
      })
    })
  })

  describe("stores.templates.refresh: POST /v1/stores/{platform}/{store}/templates/refresh", () => {
    const refresh = (s: TestServer, token: string, platform: string, store: string, body: unknown = {}) =>
      s.call("POST", `/v1/stores/${platform}/${store}/templates/refresh`, { key: token, body })

    it("answers { data: { store_id, templates, refreshed_at }, next } with next stores.list", async () => {
      const { s, app, token, connected } = await setup()
      await s.console("PUT", `/simulator/chatmsg/applications/${app.id}/templates/order_ready/ar`, {
        category: "utility",
        status: "approved",
        body: "Your order {{1}} is ready.",
      })
      const id = connected!.body.data.id
      const res = await refresh(s, token, "salla", id)
      expect(res.status).toBe(200)
      expect(res.body.data.store_id).toBe(id)
      expect(res.body.data.templates.map((t: any) => [t.name, t.languages[0].status])).toEqual([[
        "order_ready",
        "approved",
      ]])
      expect(Date.parse(res.body.data.refreshed_at)).toBe(await now(s))
      expect(res.body.next).toEqual({ operation: "stores.list", method: "GET", path: "/v1/stores" })
    })

    it("wrong platform, unknown store, another account's: 404 not_found", async () => {
      const { s, token, connected } = await setup()
      const id = connected!.body.data.id
      for (const [platform, store] of [["zid", id], ["shopify", id], ["salla", crypto.randomUUID()], ["salla", "x"]]) {
        const res = await refresh(s, token, platform, store)
        expect([platform, store, res.status, res.body.error]).toEqual([platform, store, 404, "not_found"])
      }
      const stranger = await setupApplication(s)
      const res = await refresh(s, await tokenOf(s, stranger.account.id), "salla", id)
      expect(res.status).toBe(404)
    })

    it("no number on the store's application: 409 no_whatsapp_number with needs and human_action", async () => {
      const { s, token, connected } = await setup({ number: false })
      const id = connected!.body.data.id
      const res = await refresh(s, token, "salla", id)
      expect([res.status, res.body.error, res.body.needs]).toEqual([409, "no_whatsapp_number", ["whatsapp_number"]])
      expect(res.body.human_action).toMatchObject({
        reason: "connect_whatsapp",
        url: expect.stringContaining("/console/"),
        then: {
          operation: "stores.templates.refresh",
          method: "POST",
          path: `/v1/stores/salla/${id}/templates/refresh`,
        },
      })
    })

    it("the network not answering: 503 templates_unavailable with next, the same call", async () => {
      const { s, app, token, connected } = await setup()
      await s.console("PUT", `/simulator/chatmsg/applications/${app.id}/network`, { templates_readable: false })
      const id = connected!.body.data.id
      const res = await refresh(s, token, "salla", id)
      expect([res.status, res.body.error]).toEqual([503, "templates_unavailable"])
      expect(res.body.next).toEqual({
        operation: "stores.templates.refresh",
        method: "POST",
        path: `/v1/stores/salla/${id}/templates/refresh`,
      })
    })

    it("an agent: 403 insufficient_role; an unknown body property: 400 unknown", async () => {
      const { s, account, token, connected } = await setup()
      const id = connected!.body.data.id
      const agent = await tokenOf(s, account.id, "agent")
      const refused = await refresh(s, agent, "salla", id)
      expect([refused.status, refused.body.error]).toEqual([403, "insufficient_role"])
      const unknown = await refresh(s, token, "salla", id, { force: true })
      expect([unknown.status, unknown.body.errors]).toEqual([400, { force: "unknown" }])
    })
  })

  describe("the catalogue and call by name (DECISIONS 10)", () => {
    it("the three operations are listed with their roles; each answers by name as by its route", async () => {
      const { s, app, token, connected } = await setup()
      const catalogue = (await s.call("GET", "/v1/operations?limit=100", { key: token })).body.data as Array<any>
      const row = (name: string) => catalogue.find((o) => o.name === name)
      expect(row("stores.list")).toMatchObject({
        method: "GET",
        path: "/v1/stores",
        roles: ["owner", "admin", "agent"],
      })
      expect(row("stores.templates.refresh")).toMatchObject({
        method: "POST",
        path: "/v1/stores/{platform}/{store}/templates/refresh",
        roles: ["owner", "admin"],
        idempotent: true,
      })
      expect(row("assistant.store.show")).toMatchObject({
        method: "GET",
        path: "/v1/applications/{application}/assistant/store",
        roles: ["owner", "admin", "agent"],
      })
      const id = connected!.body.data.id
      const byName = await s.call("POST", "/v1/operations/stores.templates.refresh", {
        key: token,
        body: { platform: "salla", store: id },
      })
      expect([byName.status, byName.body.data.store_id, byName.body.next.operation]).toEqual([200, id, "stores.list"])
      const wrong = await s.call("POST", "/v1/operations/stores.templates.refresh", {
        key: token,
        body: { platform: "zid", store: id },
      })
      expect(wrong.status).toBe(404)
      const shown = await s.call("POST", "/v1/operations/assistant.store.show", {
        key: token,
        body: { application: app.id },
      })
      expect([shown.status, shown.body.data.store.id]).toEqual([200, id])
    })
  })

  describe("an assistant choice is no_assistant only while the application has no connected store", () => {
    it("the problem goes once a store is connected", async () => {
      const s = server()
      const { app, appKey } = await setupConnectedApp(s)
      const menu = goodMenu()
      menu.choices.push({ id: "shop", title: "Ask the shop", action: { type: "assistant" } } as any)
      const draft = () => s.call("PUT", "/v1/chat/attendant/draft", { key: appKey, body: { menu } })
      expect((await draft()).body.problems).toEqual([
        { code: "no_assistant", choice_id: "shop", field: "action", max: null },
      ])
      const ref = `shop-${crypto.randomUUID().slice(0, 8)}`
      await putStore(s, "salla", ref, { name: "Dates Shop", products: [] })
      expect((await connect(s, app.id, { platform: "salla", ref })).status).toBe(201)
      expect((await draft()).body.problems).toEqual([])
    })
  })
})

describe("the simulator route exists only while STORE_PROVIDER is simulator", () => {
  it("STORE_PROVIDER=live: PUT /simulator/stores/{platform}/{ref} answers 404", async () => {
    const s = await startServer({ storeProvider: "live" })
    try {
      const res = await putStore(s, "salla", "shop", { name: "Shop", products: [] })
      expect(res.status).toBe(404)
    } finally {
      await s.close()
    }
  })
})
