/**
 * The partner's event feed (`GET /v1/partner/events`, DECISIONS 13 and 16) over HTTP, on the memory store and
 * on PGlite; its paging while events are written concurrently is tested on PostgreSQL (feed-postgres.test.ts).
 */
import { Option } from "effect"
import { describe, expect, it } from "vitest"
import { type TestServer, usePostgresServer, useServer } from "../support/server.ts"
import { advance, clientApplication, feed, partnerAccount, readAll, verifyOnce } from "./support.ts"

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const DAY = 86_400_000

const feedRules = (name: string, server: () => TestServer) =>
  describe(name, () => {
    describe('DECISIONS 13: "Feed: { data: [{ id, event, data, created_at }], next_cursor }, oldest first"', () => {
      it("holds every service.* move of the partner's applications, oldest first, id = the data's id (webhook-id)", async () => {
        const s = server()
        const p = await partnerAccount(s)
        const a = await clientApplication(s, p, { external_id: "m-1" })
        const b = await clientApplication(s, p)
        await s.console("POST", `/applications/${a.id}/approve`)
        await s.console("POST", `/applications/${b.id}/reject`, { reason_code: "brand_mismatch" })
        await s.console("POST", `/applications/${a.id}/pause`)
        const res = await feed(s, p.key)
        expect(res.status).toBe(200)
        expect(Object.keys(res.body).sort()).toEqual(["data", "next_cursor"])
        expect(res.body.data.map((e: any) => [e.event, e.data.application_id])).toEqual([
          ["service.approved", a.id],
          ["service.rejected", b.id],
          ["service.paused", a.id],
        ])
        for (const e of res.body.data) {
          expect(Object.keys(e).sort()).toEqual(["created_at", "data", "event", "id"])
          expect(e.id).toMatch(/^msg_[0-9a-f]{32}$/)
          expect(e.id).toBe(e.data.id)
          expect(e.created_at).toMatch(ISO)
        }
        expect(res.body.data[0].data).toMatchObject({
          service_id: a.id,
          external_id: "m-1",
          status: "active",
          previous_status: "pending",
        })
        expect(res.body.data[1].data).toMatchObject({ reason_code: "brand_mismatch", appealable: true })
      })

      it("both partner key modes read the same feed; an application key or an account token is 401", async () => {
        const s = server()
        const p = await partnerAccount(s)
        const a = await clientApplication(s, p)
        await s.console("POST", `/applications/${a.id}/approve`)
        const live = await feed(s, p.key)
        const test = await feed(s, p.testKey)
        expect(test.status).toBe(200)
        expect(test.body.data).toEqual(live.body.data)
        const appKey = await s.console("POST", `/applications/${a.id}/keys`, { mode: "live" })
        expect((await feed(s, appKey.key)).status).toBe(401)
        const token = await s.console("POST", `/accounts/${p.account.id}/account-tokens`, {})
        expect((await feed(s, token.token)).status).toBe(401)
      })

      it("another partner's events are never in it", async () => {
        const s = server()
        const p = await partnerAccount(s)
        const other = await partnerAccount(s)
        const theirs = await clientApplication(s, other)
        await s.console("POST", `/applications/${theirs.id}/approve`)
        expect((await feed(s, p.key)).body.data).toEqual([])
        expect((await feed(s, other.key)).body.data).toHaveLength(1)
      })
    })

    describe('DECISIONS 16: "A lifecycle move and its feed entry commit together: the feed shows it as soon as the move answers"', () => {
      it("each move is in the next read", async () => {
        const s = server()
        const p = await partnerAccount(s)
        const a = await clientApplication(s, p)
        let cursor = (await feed(s, p.key)).body.next_cursor
        for (const move of ["approve", "pause"]) {
          await s.console("POST", `/applications/${a.id}/${move}`)
          const res = await feed(s, p.key, `cursor=${cursor}`)
          expect(res.body.data.map((e: any) => e.event)).toEqual([
            move === "approve" ? "service.approved" : "service.paused",
          ])
          cursor = res.body.next_cursor
        }
      })
    })

    describe('DECISIONS 13: "next_cursor never null"', () => {
      it("an empty feed, an empty page and the last page all give a cursor to poll with, which goes on where it left", async () => {
        const s = server()
        const p = await partnerAccount(s)
        const empty = await feed(s, p.key)
        expect(empty.body).toEqual({ data: [], next_cursor: expect.any(String) })
        const a = await clientApplication(s, p)
        await s.console("POST", `/applications/${a.id}/approve`)
        const first = await feed(s, p.key, `cursor=${empty.body.next_cursor}`)
        expect(first.body.data.map((e: any) => e.event)).toEqual(["service.approved"])
        const again = await feed(s, p.key, `cursor=${first.body.next_cursor}`)
        expect(again.body.data).toEqual([])
        expect(typeof again.body.next_cursor).toBe("string")
        await s.console("POST", `/applications/${a.id}/pause`)
        const later = await feed(s, p.key, `cursor=${again.body.next_cursor}`)
        expect(later.body.data.map((e: any) => e.event)).toEqual(["service.paused"])
      })

      it("pages of `limit` neither repeat nor skip an entry", async () => {
        const s = server()
        const p = await partnerAccount(s)
        const apps = []
        for (let i = 0; i < 7; i++) apps.push(await clientApplication(s, p, { name: `M${i}` }))
        for (const a of apps) await s.console("POST", `/applications/${a.id}/approve`)
        const whole = await feed(s, p.key, "limit=100")
        const paged = await readAll(s, p.key, undefined, 3)
        expect(paged.entries.map((e) => e.id)).toEqual(whole.body.data.map((e: any) => e.id))
        expect(new Set(paged.entries.map((e) => e.id)).size).toBe(7)
      })
    })

    describe('DECISIONS 13: "All service.*, balance.low, partner verification.* copies, whatever the subscription"', () => {
      it("verification.* copies carry external_id though the account's endpoint subscribes to none; balance.low is there", async () => {
        const s = server()
        const p = await partnerAccount(s, 1_005)
        await s.call("PUT", `/console/v1/accounts/${p.account.id}/webhook`, {
          key: s.consoleToken,
          body: { url: "http://127.0.0.1:9/hook", events: [] },
        })
        const a = await clientApplication(s, p, { approved: true, external_id: "shop-42" })
        const verified = await verifyOnce(s, p.key, a.id)
        const res = await feed(s, p.key)
        const byEvent = Object.fromEntries(res.body.data.map((e: any) => [e.event, e]))
        expect(Object.keys(byEvent).sort()).toEqual(["balance.low", "verification.verified"])
        expect(byEvent["verification.verified"].data).toMatchObject({
          id: verified.id,
          status: "verified",
          application_id: a.id,
          mode: "partner",
          external_id: "shop-42",
        })
        expect(byEvent["balance.low"].data).toMatchObject({
          account_id: p.account.id,
          balance_halalas: 996,
          low_balance_alert_halalas: 1_000,
        })
        expect(byEvent["balance.low"].id).toBe(byEvent["balance.low"].data.id)
        // The application's own webhook copy has no external_id: the feed's is the partner's copy.
        expect(verified.external_id).toBeUndefined()
      })

      it("no rehearsals: a console test event is not in the feed", async () => {
        const s = server()
        const p = await partnerAccount(s)
        await s.call("PUT", `/console/v1/accounts/${p.account.id}/webhook`, {
          key: s.consoleToken,
          body: { url: "http://127.0.0.1:9/hook" },
        })
        const test = await s.call("POST", `/console/v1/accounts/${p.account.id}/webhook/test`, {
          key: s.consoleToken,
          body: { event: "service.approved" },
        })
        expect(test.status).toBeLessThan(300)
        expect((await feed(s, p.key)).body.data).toEqual([])
      })
    })

    describe('DECISIONS 16: "Feed types: a comma-separated list of event names"', () => {
      it("narrows the feed to the events named; the cursor still moves past what was left out", async () => {
        const s = server()
        const p = await partnerAccount(s)
        const a = await clientApplication(s, p)
        await s.console("POST", `/applications/${a.id}/approve`)
        await s.console("POST", `/applications/${a.id}/pause`)
        const only = await feed(s, p.key, "types=service.paused,%20balance.low")
        expect(only.body.data.map((e: any) => e.event)).toEqual(["service.paused"])
        const both = await feed(s, p.key, "types=service.approved,service.paused")
        expect(both.body.data.map((e: any) => e.event)).toEqual(["service.approved", "service.paused"])
        const none = await feed(s, p.key, "types=balance.low")
        expect(none.body.data).toEqual([])
        // Polling on from there finds only what comes after.
        await s.console("POST", `/applications/${a.id}/pause`) // already paused: nothing fires
        const b = await clientApplication(s, p)
        await s.console("POST", `/applications/${b.id}/approve`)
        const after = await feed(s, p.key, `cursor=${none.body.next_cursor}`)
        expect(after.body.data.map((e: any) => [e.event, e.data.application_id])).toEqual([["service.approved", b.id]])
      })

      it("an unknown event name, an empty list, a bad limit or a repeated parameter is 400 invalid_request", async () => {
        const s = server()
        const p = await partnerAccount(s)
        for (
          const [query, field] of [
            ["types=service.approved,service.nope", "types"],
            ["types=message.sent", "types"],
            ["types=", "types"],
            ["limit=0", "limit"],
            ["limit=101", "limit"],
            ["limit=x", "limit"],
            ["limit=1&limit=2", "limit"],
            ["since=2026-01-01", "since"],
          ]
        ) {
          const res = await feed(s, p.key, query)
          expect(res.status, query).toBe(400)
          expect(res.body.error).toBe("invalid_request")
          expect(Object.keys(res.body.errors), query).toEqual([field])
        }
      })
    })

    describe("DECISIONS 13 and 16: cursors — a forged cursor or another partner's cursor is 400", () => {
      it("refuses them, and reveals nothing", async () => {
        const s = server()
        const p = await partnerAccount(s)
        const other = await partnerAccount(s)
        const a = await clientApplication(s, other)
        await s.console("POST", `/applications/${a.id}/approve`)
        const theirs = (await feed(s, other.key, "limit=1")).body.next_cursor as string
        for (const cursor of [theirs, "forged", theirs.slice(0, -1) + (theirs.endsWith("a") ? "b" : "a"), ""]) {
          const res = await feed(s, p.key, `cursor=${encodeURIComponent(cursor)}`)
          expect(res.status, cursor).toBe(400)
          expect(res.body).toMatchObject({ error: "invalid_request", errors: { cursor: "invalid" } })
        }
      })
    })

    describe('DECISIONS 13: "(none: oldest kept, 30 days)"', () => {
      it("an event 30 days old has left the feed; a newer one is the oldest kept", async () => {
        const s = server()
        const p = await partnerAccount(s)
        const a = await clientApplication(s, p)
        await s.console("POST", `/applications/${a.id}/approve`)
        await advance(s, 29 * DAY)
        await s.console("POST", `/applications/${a.id}/pause`)
        expect((await feed(s, p.key)).body.data.map((e: any) => e.event)).toEqual([
          "service.approved",
          "service.paused",
        ])
        await advance(s, 1 * DAY + 1)
        expect((await feed(s, p.key)).body.data.map((e: any) => e.event)).toEqual(["service.paused"])
      })
    })
  })

const memory = useServer()
feedRules("memory store", () => memory)

describe("PGlite", () => {
  const pglite = useServer({ store: "sql", pgliteDir: "memory://", databaseUrl: Option.none() })
  feedRules("on PGlite", () => pglite)
})

const databaseUrl = process.env.DATABASE_URL
describe.runIf(databaseUrl !== undefined)("PostgreSQL (DATABASE_URL)", () => {
  const pg = usePostgresServer(databaseUrl!)
  feedRules("on PostgreSQL", () => pg)
})
