/**
 * DECISIONS 8.2 and 8.3 over HTTP: access asked and decided, a sender domain added, its records published in the
 * simulated DNS and found by the 10-minute check on the simulated clock, sends, the simulated inbox, the provider's
 * reports, the read; a domain failing after `pending_hours` and restarted; the log's lock, filters and paging. On
 * every store.
 */
import { describe, expect, it } from "vitest"
import { onEveryStore, setupApplication } from "../support/server.ts"
import {
  accountToken,
  advance,
  api,
  inbox,
  publish,
  report,
  send,
  setupEmail,
  unique,
  verifiedDomain,
} from "./harness.ts"

const minutes = (n: number) => n * 60_000
/**
 * A 72-hour move checks a pending domain at its first due time and at its pending_until, not at each of its 432
 * (`Job.settledDue`): 4-10 s a test on PGlite and PostgreSQL at load 12-18, 36-84 s before.
 */
const hours72Timeout = 60_000

onEveryStore((server) => {
  const s = server()

  describe("the whole way: access, a domain, its records, a send, reports, the read", () => {
    it("walks through", async () => {
      const { account, app, key } = await setupApplication(s)
      const token = await accountToken(s, account.id)

      // Access: none, asked (201, pending), asked again (200, unchanged), granted in the console.
      expect((await api(s, token, "GET", "/account/email/access")).body.data).toEqual({
        status: "none",
        requested_at: null,
        decided_at: null,
      })
      const asked = await api(s, token, "POST", "/account/email/access")
      expect(asked.status).toBe(201)
      expect(asked.body.data.status).toBe("pending")
      expect(typeof asked.body.data.requested_at).toBe("string")
      const again = await api(s, token, "POST", "/account/email/access")
      expect(again.status).toBe(200)
      expect(again.body.data).toEqual(asked.body.data)
      const granted = await s.console("PUT", `/accounts/${account.id}/email-access`, { status: "granted" })
      expect(granted.status).toBe("granted")
      expect(typeof granted.decided_at).toBe("string")
      expect((await api(s, token, "GET", "/account/email/access")).body.data).toEqual(granted)

      // A domain: pending, its three records.
      const domain = `${unique("walk")}.sa`
      const added = await api(s, token, "POST", `/applications/${app.id}/email/senders`, { domain })
      expect(added.status).toBe(201)
      const record = added.body.data
      expect(record).toMatchObject({ domain, status: "pending", pending_hours: 72, verified_at: null })
      expect(Date.parse(record.pending_until) - Date.parse(record.created_at)).toBe(72 * 3_600_000)
      const [spf, dkim, returnPath] = record.records
      expect(spf).toEqual({ purpose: "spf", type: "TXT", name: domain, value: spf.value, verified: false })
      expect(spf.value).toContain("include:spf.mail.svc.sa")
      expect(dkim).toMatchObject({ purpose: "dkim", type: "TXT", name: `svc._domainkey.${domain}`, verified: false })
      expect(dkim.value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]+=*$/)
      expect(returnPath).toEqual({
        purpose: "return_path",
        type: "CNAME",
        name: `bounces.${domain}`,
        value: "bounces.mail.svc.sa",
        verified: false,
      })
      expect(JSON.stringify(record)).not.toMatch(/PRIVATE KEY/)

      // Not verified yet: no send from it, the log locked on `domain`.
      const mail = { from: `hello@${domain}`, to: `${unique("buyer")}@example.net`, subject: "Hi", text: "Hello" }
      expect((await send(s, key, mail)).body.error).toBe("sender_not_verified")
      const locked = await api(s, token, "GET", `/applications/${app.id}/email/messages`)
      expect(locked.status).toBe(409)
      expect(locked.body).toMatchObject({ error: "email_locked", locked: { reason: "domain" } })

      // The records published; the check 10 minutes after the last finds them (not before).
      await publish(s, record.records)
      await advance(s, minutes(9))
      const waiting = await api(s, token, "GET", `/applications/${app.id}/email/senders`)
      expect(waiting.body.data[0].status).toBe("pending")
      await advance(s, minutes(1))
      const verified = (await api(s, token, "GET", `/applications/${app.id}/email/senders`)).body
      expect(verified.next_cursor).toBeNull()
      expect(verified.data[0].status).toBe("verified")
      expect(verified.data[0].records.every((r: any) => r.verified)).toBe(true)
      expect(Date.parse(verified.data[0].verified_at) - Date.parse(record.created_at)).toBe(minutes(10))

      // A send: `sent`, in the simulated inbox, read back.
      const sent = await send(s, key, { ...mail, html: "<p>Hello</p>", reference: "order-1" })
      expect(sent.status).toBe(200)
      expect(sent.body).toMatchObject({
        application_id: app.id,
        from: `hello@${domain}`,
        to: mail.to,
        subject: "Hi",
        reference: "order-1",
        status: "sent",
        complained: false,
        test: false,
        domain_id: record.id,
        domain,
      })
      expect(Object.keys(sent.body).sort()).toEqual(
        [
          "application_id",
          "complained",
          "created_at",
          "domain",
          "domain_id",
          "from",
          "id",
          "reference",
          "status",
          "subject",
          "test",
          "to",
          "updated_at",
        ],
      )
      const received = await inbox(s, mail.to)
      expect(received).toEqual([{
        id: sent.body.id,
        from: `hello@${domain}`,
        to: mail.to,
        subject: "Hi",
        text: "Hello",
        html: "<p>Hello</p>",
        sent_at: sent.body.created_at,
      }])

      // Reports: delivered is final; a complaint marks it; a later bounce changes nothing.
      await advance(s, 1_000)
      const delivered = await report(s, sent.body.id, "delivered")
      expect(delivered.status).toBe(200)
      expect(delivered.body.data).toMatchObject({ status: "delivered", complained: false })
      expect(delivered.body.data.updated_at).not.toBe(sent.body.created_at)
      expect((await report(s, sent.body.id, "bounced")).body.data.status).toBe("delivered")
      expect((await report(s, sent.body.id, "complained")).body.data).toMatchObject({
        status: "delivered",
        complained: true,
      })
      const read = await s.call("GET", `/v1/email/messages/${sent.body.id}`, { key })
      expect(read.status).toBe(200)
      expect(read.body).toMatchObject({ id: sent.body.id, status: "delivered", complained: true })

      // Bounced and failed are final too.
      await advance(s, 1_000)
      const second = await send(s, key, mail)
      expect((await report(s, second.body.id, "bounced")).body.data.status).toBe("bounced")
      expect((await report(s, second.body.id, "delivered")).body.data.status).toBe("bounced")
      await advance(s, 1_000)
      const third = await send(s, key, mail)
      expect((await report(s, third.body.id, "failed")).body.data.status).toBe("failed")

      // The log, newest first.
      const log = await api(s, token, "GET", `/applications/${app.id}/email/messages`)
      expect(log.status).toBe(200)
      expect(log.body.data.map((m: any) => m.id)).toEqual([third.body.id, second.body.id, sent.body.id])
    })

    it("a report on no message, and a read of another application's message: 404", async () => {
      const { key, mail } = await setupEmail(s)
      const other = await setupEmail(s)
      const theirs = await send(s, other.key, other.mail)
      expect((await s.call("GET", `/v1/email/messages/${theirs.body.id}`, { key })).status).toBe(404)
      expect((await s.call("GET", "/v1/email/messages/not-an-id", { key })).status).toBe(404)
      expect((await report(s, crypto.randomUUID(), "delivered")).status).toBe(404)
      expect((await report(s, (await send(s, key, mail)).body.id, "read")).status).toBe(400)
    })

    it("the console's test mail is marked `test: true`", async () => {
      const { app, token, domain, to } = await setupEmail(s)
      const test = await s.console("POST", `/applications/${app.id}/email/test`, { to })
      expect(test).toMatchObject({ test: true, from: `test@${domain}`, to, status: "sent" })
      const log = await api(s, token, "GET", `/applications/${app.id}/email/messages`)
      expect(log.body.data[0]).toMatchObject({ id: test.id, test: true })
    })
  })

  describe("a domain's check: failed after pending_hours, restarted by adding it again", () => {
    it("never published: failed once pending_until passes; added again: pending afresh, then verified", async () => {
      const { app, token } = await setupEmail(s, { domain: null })
      const domain = `${unique("late")}.sa`
      const added = (await api(s, token, "POST", `/applications/${app.id}/email/senders`, { domain })).body.data
      await advance(s, 72 * 3_600_000 - minutes(10))
      expect((await api(s, token, "GET", `/applications/${app.id}/email/senders`)).body.data[0].status).toBe("pending")
      await advance(s, minutes(10))
      const failed = (await api(s, token, "GET", `/applications/${app.id}/email/senders`)).body.data[0]
      expect(failed.status).toBe("failed")
      // A failed domain is checked no more.
      await publish(s, added.records)
      await advance(s, minutes(30))
      expect((await api(s, token, "GET", `/applications/${app.id}/email/senders`)).body.data[0].status).toBe("failed")
      // Added again: 200, checked at once (the records are there now).
      const again = await api(s, token, "POST", `/applications/${app.id}/email/senders`, { domain })
      expect(again.status).toBe(200)
      expect(again.body.data.id).toBe(added.id)
      expect(again.body.data.status).toBe("verified")
    }, hours72Timeout)

    it("added again while the records are still missing: pending with a new pending_until", async () => {
      const { app, token } = await setupEmail(s, { domain: null })
      const domain = `${unique("later")}.sa`
      const added = (await api(s, token, "POST", `/applications/${app.id}/email/senders`, { domain })).body.data
      await advance(s, 72 * 3_600_000)
      const again = await api(s, token, "POST", `/applications/${app.id}/email/senders`, { domain })
      expect(again.status).toBe(200)
      expect(again.body.data.status).toBe("pending")
      expect(Date.parse(again.body.data.pending_until) - Date.parse(added.pending_until)).toBe(72 * 3_600_000)
      await publish(s, added.records)
      await advance(s, minutes(10))
      expect((await api(s, token, "GET", `/applications/${app.id}/email/senders`)).body.data[0].status).toBe("verified")
    }, hours72Timeout)

    it("records published before a long move: verified at the move's first due check, not at its end", async () => {
      const { app, token } = await setupEmail(s, { domain: null })
      const domain = `${unique("early")}.sa`
      const added = (await api(s, token, "POST", `/applications/${app.id}/email/senders`, { domain })).body.data
      await advance(s, minutes(25))
      expect((await api(s, token, "GET", `/applications/${app.id}/email/senders`)).body.data[0].status).toBe("pending")
      // Checked at 10 and 20 minutes (nothing found); published at 25: the check due at 30 minutes finds them.
      await publish(s, added.records)
      await advance(s, 48 * 3_600_000)
      const row = (await api(s, token, "GET", `/applications/${app.id}/email/senders`)).body.data[0]
      expect(row.status).toBe("verified")
      expect(Date.parse(row.verified_at) - Date.parse(added.created_at)).toBe(minutes(30))
    }, hours72Timeout)

    it("two records of three: pending, each record's `verified` as found", async () => {
      const { app, token } = await setupEmail(s, { domain: null })
      const domain = `${unique("half")}.sa`
      const added = (await api(s, token, "POST", `/applications/${app.id}/email/senders`, { domain })).body.data
      await publish(s, added.records.filter((r: any) => r.purpose !== "dkim"))
      await s.console("PUT", "/simulator/dns/records", {
        type: "TXT",
        name: `SVC._domainkey.${domain.toUpperCase()}.`,
        values: ["v=DKIM1; k=rsa; p=AAAA"],
      })
      await advance(s, minutes(10))
      const row = (await api(s, token, "GET", `/applications/${app.id}/email/senders`)).body.data[0]
      expect(row.status).toBe("pending")
      expect(row.records.map((r: any) => [r.purpose, r.verified])).toEqual([
        ["spf", true],
        ["dkim", false],
        ["return_path", true],
      ])
    })
  })

  describe("email_locked on the log: access, then product, then domain", () => {
    it("no access, Email off, no domain: access", async () => {
      const { app, token } = await setupEmail(s, { access: "none", domain: null })
      await s.console("PUT", `/applications/${app.id}/email`, { enabled: false })
      const res = await api(s, token, "GET", `/applications/${app.id}/email/messages`)
      expect(res.status).toBe(409)
      expect(res.body).toMatchObject({ error: "email_locked", locked: { reason: "access" } })
    })
    it("pending access: access", async () => {
      const { app, token } = await setupEmail(s, { access: "pending", domain: null })
      const res = await api(s, token, "GET", `/applications/${app.id}/email/messages`)
      expect(res.body.locked).toEqual({ reason: "access" })
    })
    it("granted, Email off, no domain: product", async () => {
      const { app, token } = await setupEmail(s, { domain: null })
      await s.console("PUT", `/applications/${app.id}/email`, { enabled: false })
      const res = await api(s, token, "GET", `/applications/${app.id}/email/messages`)
      expect(res.body.locked).toEqual({ reason: "product" })
    })
    it("granted, on, a pending domain only: domain", async () => {
      const { app, token } = await setupEmail(s, { domain: null })
      await api(s, token, "POST", `/applications/${app.id}/email/senders`, { domain: `${unique("p")}.sa` })
      const res = await api(s, token, "GET", `/applications/${app.id}/email/messages`)
      expect(res.body.locked).toEqual({ reason: "domain" })
    })
    it("a bad query answers 400 before the lock", async () => {
      const { app, token } = await setupEmail(s, { access: "none", domain: null })
      const res = await api(s, token, "GET", `/applications/${app.id}/email/messages?status=lost`)
      expect(res.status).toBe(400)
      expect(res.body.errors).toEqual({ status: "invalid" })
    })
  })

  describe("the log's filters and paging", () => {
    it("q, status (undelivered, complained), domain, limit and cursor", async () => {
      const { app, key, token, domain } = await setupEmail(s)
      const second = `${unique("second")}.sa`
      const secondId = await verifiedDomain(s, token, app.id, second)
      const to = (n: number) => `${unique(`p${n}-`)}@example.net`
      const made: Array<any> = []
      const sendOne = async (body: Record<string, unknown>) => {
        const res = await send(s, key, { subject: "Receipt", text: "Thanks", ...body })
        expect(res.status).toBe(200)
        made.push(res.body)
        await advance(s, 1_000)
        return res.body
      }
      const a = await sendOne({ from: `a@${domain}`, to: to(1), subject: "Order 100 shipped", reference: "INV-100" })
      const b = await sendOne({ from: `a@${domain}`, to: to(2), subject: "Password reset" })
      const c = await sendOne({ from: `b@${second}`, to: "Sara.Q@Example.net", subject: "Order 101" })
      const d = await sendOne({ from: `b@${second}`, to: to(4), subject: "Welcome", reference: "welcome-7" })
      await report(s, a.id, "delivered")
      await report(s, b.id, "bounced")
      await report(s, c.id, "failed")
      await report(s, d.id, "complained")
      const list = async (query: string) => {
        const res = await api(s, token, "GET", `/applications/${app.id}/email/messages${query}`)
        expect(res.status).toBe(200)
        return res.body
      }
      const ids = async (query: string) => (await list(query)).data.map((m: any) => m.id)
      expect(await ids("")).toEqual([d.id, c.id, b.id, a.id])
      expect(await ids("?status=delivered")).toEqual([a.id])
      expect(await ids("?status=sent")).toEqual([d.id])
      expect(await ids("?status=bounced")).toEqual([b.id])
      expect(await ids("?status=failed")).toEqual([c.id])
      expect(await ids("?status=undelivered")).toEqual([c.id, b.id])
      expect(await ids("?status=complained")).toEqual([d.id])
      expect(await ids(`?domain=${secondId}`)).toEqual([d.id, c.id])
      expect(await ids("?q=order")).toEqual([c.id, a.id])
      expect(await ids("?q=inv-100")).toEqual([a.id])
      expect(await ids("?q=sara.q%40example")).toEqual([c.id])
      expect(await ids(`?q=order&domain=${secondId}`)).toEqual([c.id])
      expect(await ids("?q=order&status=undelivered")).toEqual([c.id])
      expect(await ids("?q=nothing-like-it")).toEqual([])
      expect(await ids(`?domain=${crypto.randomUUID()}`)).toEqual([])

      // Paging: newest first, `next_cursor` until the end.
      const first = await list("?limit=3")
      expect(first.data.map((m: any) => m.id)).toEqual([d.id, c.id, b.id])
      expect(typeof first.next_cursor).toBe("string")
      const rest = await list(`?limit=3&cursor=${encodeURIComponent(first.next_cursor)}`)
      expect(rest.data.map((m: any) => m.id)).toEqual([a.id])
      expect(rest.next_cursor).toBeNull()
      const filtered = await list("?status=undelivered&limit=1")
      expect(filtered.data.map((m: any) => m.id)).toEqual([c.id])
      const filteredRest = await list(`?status=undelivered&limit=1&cursor=${encodeURIComponent(filtered.next_cursor)}`)
      expect(filteredRest.data.map((m: any) => m.id)).toEqual([b.id])

      // Refused queries: 400 naming the parameter.
      for (
        const [query, field, code] of [
          ["?limit=0", "limit", "invalid"],
          ["?limit=101", "limit", "invalid"],
          ["?cursor=forged", "cursor", undefined],
          [`?q=${"x".repeat(101)}`, "q", "too_long"],
          ["?domain=shop.sa", "domain", "invalid"],
          ["?unknown=1", "unknown", "unknown"],
        ] as const
      ) {
        const res = await api(s, token, "GET", `/applications/${app.id}/email/messages${query}`)
        expect(res.status, query).toBe(400)
        if (code !== undefined) expect(res.body.errors[field], query).toBe(code)
      }
    })
  })
})
