/**
 * DECISIONS 7.1 and 7.3 over HTTP, on every store: prices charged at acceptance, statuses forward only with the
 * reached state's event alone, nothing after read, failed or 48 hours, masking in events, consent by every STOP
 * and START word and by the console, template writes through the network, idempotent sends.
 */
import { describe, expect, it } from "vitest"
import { advance } from "../verify/http-harness.ts"
import { onEveryStore, type TestServer } from "../support/server.ts"
import { balance, customer, inbound, messageEvents, networkLog, putCopy, report, send, setupChat } from "./harness.ts"

const utility = { category: "utility", body: "Order {{order_id}} is on its way" } as const
const marketing = { category: "marketing", body: "Hello {{1}}, 20% off today" } as const
const authentication = {
  category: "authentication",
  body: "{{1}} is your verification code",
  buttons: [{ type: "otp", text: "Copy code" }],
} as const

const ready = async (s: TestServer, opts: Parameters<typeof setupChat>[1] = {}) => {
  const made = await setupChat(s, opts)
  await putCopy(s, made.app.id, "order_update", "ar", utility)
  await putCopy(s, made.app.id, "offer", "ar", marketing)
  await putCopy(s, made.app.id, "login_code", "en", authentication)
  return made
}

const orderUpdate = { to: "0512345678", template: "order_update", params: { order_id: "A-1" } }
const offer = { to: customer, template: "offer", params: { 1: "Sara" } }

onEveryStore((server, store) => {
  describe(`${store}: DECISIONS 7.3 "Charged at acceptance: marketing 20, utility 5, authentication 5 halalas"`, () => {
    it("each category's price leaves the wallet once; the message carries it", async () => {
      const s = server()
      const { account, key } = await ready(s)
      const start = await balance(s, account.id)
      const u = await send(s, key, orderUpdate)
      const m = await send(s, key, offer)
      const a = await send(s, key, { to: customer, template: "login_code", params: { code: "482913" } }, "codes")
      expect([u.status, m.status, a.status]).toEqual([200, 200, 200])
      expect([u.body.price_halalas, m.body.price_halalas, a.body.price_halalas]).toEqual([5, 20, 5])
      expect(await balance(s, account.id)).toBe(start - 30)
    })

    it("the message answers as the spec's resource: accepted, `to` in +9665 form, times with milliseconds", async () => {
      const s = server()
      const { app, key } = await ready(s)
      const res = await send(s, key, { ...orderUpdate, reference: "order-77" })
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        status: "accepted",
        application_id: app.id,
        to: customer,
        template: "order_update",
        lang: "ar",
        reference: "order-77",
        price_halalas: 5,
        error: null,
        occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        created_at: res.body.occurred_at,
      })
      const log = await networkLog(s, customer)
      expect(log[0]).toMatchObject({ id: res.body.id, to: customer, template: "order_update", lang: "ar" })
      expect(log[0].text).toBe("Order A-1 is on its way")
    })

    it("a later `failed` refunds nothing", async () => {
      const s = server()
      const { account, key } = await ready(s)
      const sent = await send(s, key, offer)
      const after = await balance(s, account.id)
      expect((await report(s, sent.body.id, "failed", { code: "131026", message: "Undeliverable" })).status).toBe(200)
      expect(await balance(s, account.id)).toBe(after)
    })

    it("Idempotency-Key: the same send twice answers the same message and charges once", async () => {
      const s = server()
      const { account, key } = await ready(s)
      const start = await balance(s, account.id)
      const headers = { "idempotency-key": `send-${crypto.randomUUID()}` }
      const first = await send(s, key, offer, "messages", headers)
      const again = await send(s, key, offer, "messages", headers)
      expect(again.status).toBe(200)
      expect(again.body).toEqual(first.body)
      expect(await balance(s, account.id)).toBe(start - 20)
      expect((await networkLog(s, customer)).filter((m) => m.id === first.body.id)).toHaveLength(1)
    })
  })

  describe(`${store}: DECISIONS 7.3 "Statuses move forward only"`, () => {
    it("sent, delivered, read: each fires its own event, in order", async () => {
      const s = server()
      const { key } = await ready(s)
      const { body: m } = await send(s, key, orderUpdate)
      for (const status of ["sent", "delivered", "read"]) {
        const res = await report(s, m.id, status)
        expect(res.status).toBe(200)
        expect(res.body.data.status).toBe(status)
      }
      const events = await messageEvents(s, m.id)
      expect(events.map((e) => e.event)).toEqual(["message.sent", "message.delivered", "message.read"])
    })

    it("a read reported before delivery fires message.read alone", async () => {
      const s = server()
      const { key } = await ready(s)
      const { body: m } = await send(s, key, orderUpdate)
      await report(s, m.id, "read")
      expect((await messageEvents(s, m.id)).map((e) => e.event)).toEqual(["message.read"])
    })

    it("a report at or behind the current state changes nothing and answers the message unchanged", async () => {
      const s = server()
      const { key } = await ready(s)
      const { body: m } = await send(s, key, orderUpdate)
      const delivered = (await report(s, m.id, "delivered")).body.data
      for (const status of ["sent", "delivered"]) {
        const res = await report(s, m.id, status)
        expect(res.status).toBe(200)
        expect(res.body.data).toEqual(delivered)
      }
      expect((await messageEvents(s, m.id)).map((e) => e.event)).toEqual(["message.delivered"])
    })

    it("nothing after read or failed", async () => {
      const s = server()
      const { key } = await ready(s)
      const { body: read } = await send(s, key, orderUpdate)
      await report(s, read.id, "read")
      expect((await report(s, read.id, "failed")).body.data.status).toBe("read")
      const { body: failed } = await send(s, key, orderUpdate)
      await report(s, failed.id, "failed", { code: "131049", message: "Not delivered" })
      for (const status of ["sent", "delivered", "read", "failed"]) {
        const res = await report(s, failed.id, status)
        expect(res.body.data).toMatchObject({ status: "failed", error: { code: "131049", message: "Not delivered" } })
      }
      expect((await messageEvents(s, failed.id)).map((e) => e.event)).toEqual(["message.failed"])
    })

    it("`failed` from any non-final state sets `error`; without one, `unknown` / `No reason given.`", async () => {
      const s = server()
      const { key } = await ready(s)
      const { body: m } = await send(s, key, orderUpdate)
      await report(s, m.id, "delivered")
      const res = await report(s, m.id, "failed")
      expect(res.body.data).toMatchObject({ status: "failed", error: { code: "unknown", message: "No reason given." } })
      const read = await s.call("GET", `/v1/chatmsg/messages/${m.id}`, { key })
      expect(read.body).toEqual(res.body.data)
    })

    it("nothing changes or fires more than 48 hours after created_at; at 48 hours it still does", async () => {
      const s = server()
      const { key } = await ready(s)
      const { body: late } = await send(s, key, orderUpdate)
      const { body: onTime } = await send(s, key, orderUpdate)
      await advance(s, 48 * 3_600_000)
      expect((await report(s, onTime.id, "delivered")).body.data.status).toBe("delivered")
      await advance(s, 1)
      expect((await report(s, late.id, "delivered")).body.data.status).toBe("accepted")
      expect(await messageEvents(s, late.id)).toEqual([])
    })

    it("an unknown message id answers 404 not_found", async () => {
      const s = server()
      expect((await report(s, crypto.randomUUID(), "sent")).status).toBe(404)
      expect((await report(s, "not-an-id", "sent")).status).toBe(404)
    })
  })

  describe(`${store}: message.* events carry the masked \`to\`; reads do not`, () => {
    it("`+96650*****67`: the first and last two national digits", async () => {
      const s = server()
      const { app, account, key } = await ready(s)
      const { body: m } = await send(s, key, { ...orderUpdate, to: "+966501234567" })
      const moved = (await report(s, m.id, "sent")).body.data
      const [event] = await messageEvents(s, m.id)
      expect(event).toMatchObject({ event: "message.sent", applicationId: app.id, accountId: account.id })
      expect(event.data).toEqual({ ...moved, to: "+96650*****67" })
      expect((await s.call("GET", `/v1/chatmsg/messages/${m.id}`, { key })).body.to).toBe("+966501234567")
    })
  })

  describe(`${store}: reads: the application's own messages only`, () => {
    it("another application's message and an unknown id answer 404 not_found", async () => {
      const s = server()
      const mine = await ready(s)
      const theirs = await ready(s)
      const { body: m } = await send(s, mine.key, orderUpdate)
      expect((await s.call("GET", `/v1/chatmsg/messages/${m.id}`, { key: theirs.key })).status).toBe(404)
      expect((await s.call("GET", `/v1/chatmsg/messages/${crypto.randomUUID()}`, { key: mine.key })).status).toBe(404)
      expect((await s.call("GET", "/v1/chatmsg/messages/x", { key: mine.key })).status).toBe(404)
    })
  })

  describe(`${store}: DECISIONS 7.3 consent: STOP words opt out of marketing, START words lift it`, () => {
    for (const word of ["stop", "STOP", "  Stop ", "unsubscribe", "UNSUBSCRIBE", "إيقاف", "ايقاف"]) {
      it(`"${word}" records an opt-out: marketing answers 422 consent_opted_out, nothing charged`, async () => {
        const s = server()
        const { account, app, key } = await ready(s)
        const answer = await inbound(s, app.id, customer, word)
        expect(answer.consent).toMatchObject({ to: customer, opted_out: true, source: "inbound" })
        const before = await balance(s, account.id)
        const res = await send(s, key, offer)
        expect([res.status, res.body.error]).toEqual([422, "consent_opted_out"])
        expect(await balance(s, account.id)).toBe(before)
      })
    }
    for (const word of ["start", "START", "ابدأ"]) {
      it(`"${word}" lifts it`, async () => {
        const s = server()
        const { app, key } = await ready(s)
        await inbound(s, app.id, customer, "stop")
        expect((await inbound(s, app.id, customer, word)).consent).toMatchObject({ opted_out: false })
        expect((await send(s, key, offer)).status).toBe(200)
      })
    }
    it("other texts record nothing; opt-outs are per application", async () => {
      const s = server()
      const one = await ready(s)
      const other = await ready(s)
      expect((await inbound(s, one.app.id, customer, "please stop sending")).consent).toBeNull()
      expect((await send(s, one.key, offer)).status).toBe(200)
      await inbound(s, one.app.id, customer, "stop")
      expect((await send(s, other.key, offer)).status).toBe(200)
    })
    it("the console sets and lifts an opt-out", async () => {
      const s = server()
      const { app, key } = await ready(s)
      const set = await s.console("PUT", `/applications/${app.id}/chatmsg/consent`, {
        to: "0512345678",
        opted_out: true,
      })
      expect(set).toEqual({ to: customer, opted_out: true, source: "console", updated_at: expect.any(String) })
      expect((await send(s, key, offer)).body.error).toBe("consent_opted_out")
      await s.console("PUT", `/applications/${app.id}/chatmsg/consent`, { to: customer, opted_out: false })
      expect((await send(s, key, offer)).status).toBe(200)
    })
  })

  describe(`${store}: DECISIONS 7.1 template writes (connected-app keys holding notifications:templates)`, () => {
    const templatesKey = async (s: TestServer, applicationId: string) =>
      (await s.console("POST", `/applications/${applicationId}/connected-app-keys`, {
        app_name: "Store app",
        scopes: ["notifications:templates"],
      })).key as string

    it("create → 201, that language pending; exists → 409 template_exists; list shows it", async () => {
      const s = server()
      const { app } = await ready(s)
      const key = await templatesKey(s, app.id)
      const body = { name: "shipping", lang: "en", category: "utility", body: "Parcel {{tracking}} shipped" }
      const made = await s.call("POST", "/v1/chatmsg/templates", { key, body })
      expect(made.status).toBe(201)
      expect(made.body).toEqual({
        name: "shipping",
        category: "utility",
        parameter_format: "named",
        languages: [{
          lang: "en",
          status: "pending",
          reason: null,
          header_type: "none",
          placeholders: [{ key: "tracking", component: "body", max_length: 1024 }],
          buttons: [],
        }],
      })
      const again = await s.call("POST", "/v1/chatmsg/templates", { key, body })
      expect([again.status, again.body.error]).toEqual([409, "template_exists"])
      const list = await s.call("GET", "/v1/chatmsg/templates", { key })
      expect(list.body.next_cursor).toBeNull()
      expect(list.body.data.map((t: { name: string }) => t.name)).toEqual([
        "login_code",
        "offer",
        "order_update",
        "shipping",
      ])
    })

    it("edit only approved, rejected or paused (→ pending), else 409 template_not_editable", async () => {
      const s = server()
      const { app } = await ready(s)
      const key = await templatesKey(s, app.id)
      const edit = { category: "utility", body: "Order {{order_id}} left the store" }
      await putCopy(s, app.id, "order_update", "ar", { ...utility, status: "pending" })
      const refused = await s.call("PUT", "/v1/chatmsg/templates/order_update/ar", { key, body: edit })
      expect([refused.status, refused.body.error, refused.body.status]).toEqual([
        409,
        "template_not_editable",
        "pending",
      ])
      for (const status of ["approved", "rejected", "paused"]) {
        await putCopy(s, app.id, "order_update", "ar", { ...utility, status })
        const res = await s.call("PUT", "/v1/chatmsg/templates/order_update/ar", { key, body: edit })
        expect(res.status).toBe(200)
        expect(res.body.languages[0]).toMatchObject({ lang: "ar", status: "pending", reason: null })
      }
      const unknown = await s.call("PUT", "/v1/chatmsg/templates/nope/ar", { key, body: edit })
      expect(unknown.status).toBe(404)
    })

    it("delete removes every language", async () => {
      const s = server()
      const { app } = await ready(s)
      const key = await templatesKey(s, app.id)
      await putCopy(s, app.id, "offer", "en", marketing)
      const res = await s.call("DELETE", "/v1/chatmsg/templates/offer", { key })
      expect(res.body).toEqual({ name: "offer", deleted: true })
      const list = await s.call("GET", "/v1/chatmsg/templates", { key })
      expect(list.body.data.map((t: { name: string }) => t.name)).toEqual(["login_code", "order_update"])
      expect((await s.call("DELETE", "/v1/chatmsg/templates/offer", { key })).status).toBe(404)
    })

    it("keys made on the API keys page never hold notifications:templates: 403 insufficient_scope", async () => {
      const s = server()
      const { key } = await ready(s)
      const res = await s.call("POST", "/v1/chatmsg/templates", {
        key,
        body: { name: "x", lang: "en", category: "utility", body: "Hi" },
      })
      expect([res.status, res.body.error]).toEqual([403, "insufficient_scope"])
    })

    it("a bad write answers 400 invalid_request naming each field, nothing written", async () => {
      const s = server()
      const { app } = await ready(s)
      const key = await templatesKey(s, app.id)
      const res = await s.call("POST", "/v1/chatmsg/templates", {
        key,
        body: { name: "Bad Name", lang: "english", category: "promo", body: "Hi {{1}} and {{name}}" },
      })
      expect(res.status).toBe(400)
      expect(Object.keys(res.body.errors).sort()).toEqual(["body", "category", "lang", "name"])
    })
  })
})
