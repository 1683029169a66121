/**
 * A client application's verification log (`GET /v1/partner/applications/{id}/verifications`, DECISIONS 13) and
 * Verify with partner keys, over HTTP on the memory store and on PGlite.
 */
import { Option } from "effect"
import { describe, expect, it } from "vitest"
import { latestCode, type TestServer, usePostgresServer, useServer } from "../support/server.ts"
import { advance, clientApplication, partnerAccount, type PartnerSetup } from "./support.ts"

const DAY = 86_400_000

const log = (s: TestServer, key: string, app: string, query = "") =>
  s.call("GET", `/v1/partner/applications/${app}/verifications${query === "" ? "" : `?${query}`}`, { key })

/** Starts a code for `app` with the partner key, one simulated second after the previous one. */
const start = async (s: TestServer, p: PartnerSetup, app: string, to: string, reference?: string) => {
  await advance(s, 1_000)
  const res = await s.call("POST", "/v1/verify/start", {
    key: p.key,
    body: { to, application: app, ...(reference === undefined ? {} : { reference }) },
  })
  expect(res.status).toBe(200)
  return res.body
}

const logRules = (name: string, server: () => TestServer) =>
  describe(name, () => {
    /** A partner with an approved client application and four codes: a verified one and three pending. */
    const fixture = async () => {
      const s = server()
      const p = await partnerAccount(s)
      const app = await clientApplication(s, p, { approved: true, external_id: "shop-7" })
      const first = await start(s, p, app.id, "+966512345601", "order-1")
      const code = await latestCode(s, "+966512345601")
      const checked = await s.call("POST", "/v1/verify/check", {
        key: p.key,
        body: { id: first.id, code, application: app.id },
      })
      expect(checked.body.status).toBe("verified")
      const second = await start(s, p, app.id, "+966512345602", "order-2")
      const third = await start(s, p, app.id, "+966512345601")
      const fourth = await start(s, p, app.id, "+966512345603", "order-2")
      return { s, p, app, ids: [first.id, second.id, third.id, fourth.id] as const }
    }

    describe('DECISIONS 13: "verifications with external_id, newest first, 90 days"', () => {
      it("lists the application's verifications as the events show them, with its external_id, newest first", async () => {
        const { app, ids, p, s } = await fixture()
        const res = await log(s, p.key, app.id)
        expect(res.status).toBe(200)
        expect(res.body.next_cursor).toBeNull()
        expect(res.body.data.map((v: any) => v.id)).toEqual([...ids].reverse())
        const verified = res.body.data[3]
        expect(Object.keys(verified).sort()).toEqual([
          "application_id",
          "attempts",
          "channel",
          "created_at",
          "expires_at",
          "external_id",
          "id",
          "mode",
          "reference",
          "status",
          "to",
          "verified_at",
        ])
        expect(verified).toMatchObject({
          status: "verified",
          application_id: app.id,
          reference: "order-1",
          channel: "sms",
          to: "+966512345601",
          mode: "partner",
          attempts: 1,
          external_id: "shop-7",
        })
      })

      it("key modes partition what a key sees (DECISIONS 18): the partner test key lists only sandbox codes, the partner key only live ones", async () => {
        const { app, ids, p, s } = await fixture()
        await s.console("POST", `/accounts/${p.account.id}/sandbox-destinations`, { to: "+966500000000" })
        const sandbox = await s.call("POST", "/v1/verify/start", {
          key: p.testKey,
          body: { to: "+966500000000", application: app.id },
        })
        expect(sandbox.status).toBe(200)
        const live = await log(s, p.key, app.id)
        expect(live.body.data.map((v: any) => v.id)).toEqual([...ids].reverse())
        const test = await log(s, p.testKey, app.id)
        expect(test.status).toBe(200)
        expect(test.body.data.map((v: any) => [v.id, v.mode])).toEqual([[sandbox.body.id, "partner_test"]])
        // A cursor of one kind's list is not a cursor of the other's.
        const paged = await log(s, p.key, app.id, "limit=1")
        const crossed = await log(s, p.testKey, app.id, `cursor=${encodeURIComponent(paged.body.next_cursor)}`)
        expect(crossed.status).toBe(400)
      })

      it("a code older than 90 days has left the log", async () => {
        const { app, ids, p, s } = await fixture()
        await advance(s, 90 * DAY - 2_500)
        const late = await start(s, p, app.id, "+966512345604")
        const res = await log(s, p.key, app.id)
        // The clock stands still between moves: 90 days have passed since the first two codes, not since the others.
        expect(res.body.data.map((v: any) => v.id)).toEqual([late.id, ids[3], ids[2]])
      })
    })

    describe("DECISIONS 13: filters `status`, `to`, `reference`, `since`, `until`; `limit`, `cursor`", () => {
      it("narrows by status, by `to` in any accepted Saudi form, by reference, and by time", async () => {
        const { app, ids, p, s } = await fixture()
        const of = async (query: string) => (await log(s, p.key, app.id, query)).body.data.map((v: any) => v.id)
        expect(await of("status=verified")).toEqual([ids[0]])
        expect(await of("status=pending")).toEqual([ids[3], ids[2], ids[1]])
        expect(await of("status=failed")).toEqual([])
        for (
          const to of ["%2B966512345601", "966512345601", "00966512345601", "0512345601", "512345601", "05-1234%205601"]
        ) {
          expect(await of(`to=${to}`), to).toEqual([ids[2], ids[0]])
        }
        expect(await of("reference=order-2")).toEqual([ids[3], ids[1]])
        expect(await of("reference=order-2&to=0512345603")).toEqual([ids[3]])
        const all = (await log(s, p.key, app.id)).body.data
        const second = encodeURIComponent(all[2].created_at)
        const fourth = encodeURIComponent(all[0].created_at)
        expect(await of(`since=${second}`)).toEqual([ids[3], ids[2], ids[1]])
        expect(await of(`until=${fourth}`)).toEqual([ids[2], ids[1], ids[0]])
        expect(await of(`since=${second}&until=${fourth}`)).toEqual([ids[2], ids[1]])
      })

      it("pages by `limit` with `next_cursor`, neither repeating nor skipping; a cursor of another list is 400", async () => {
        const { app, ids, p, s } = await fixture()
        const first = await log(s, p.key, app.id, "limit=3")
        expect(first.body.data.map((v: any) => v.id)).toEqual([ids[3], ids[2], ids[1]])
        expect(typeof first.body.next_cursor).toBe("string")
        const second = await log(s, p.key, app.id, `limit=3&cursor=${first.body.next_cursor}`)
        expect(second.body.data.map((v: any) => v.id)).toEqual([ids[0]])
        expect(second.body.next_cursor).toBeNull()
        // The same cursor with other filters, on another application, or altered: 400.
        const other = await clientApplication(s, p, { approved: true })
        for (
          const [target, query] of [
            [app.id, `limit=3&status=pending&cursor=${first.body.next_cursor}`],
            [other.id, `limit=3&cursor=${first.body.next_cursor}`],
            [app.id, `limit=3&cursor=x${first.body.next_cursor}`],
          ]
        ) {
          const res = await log(s, p.key, target, query)
          expect(res.status, query).toBe(400)
          expect(res.body).toMatchObject({ error: "invalid_request", errors: { cursor: "invalid" } })
        }
      })

      it("refuses bad filters with 400 invalid_request naming each field", async () => {
        const { app, p, s } = await fixture()
        for (
          const [query, errors] of [
            ["status=done", { status: "invalid" }],
            ["to=12345", { to: "invalid" }],
            ["to=%2B966112345678", { to: "invalid" }],
            ["since=yesterday", { since: "invalid" }],
            ["until=2026-01-01", { until: "invalid" }],
            ["since=2026-02-01T00:00:00Z&until=2026-01-01T00:00:00Z", { since: "after_until" }],
            ["limit=0", { limit: "invalid" }],
            ["limit=101", { limit: "invalid" }],
            ["status=verified&status=failed", { status: "invalid" }],
            ["colour=red", { colour: "unknown" }],
            [`reference=${"r".repeat(257)}`, { reference: "invalid" }],
          ] as const
        ) {
          const res = await log(s, p.key, app.id, query)
          expect(res.status, query).toBe(400)
          expect(res.body.error).toBe("invalid_request")
          expect(res.body.errors, query).toEqual(errors)
          expect(Object.keys(res.body.fields)).toEqual(Object.keys(errors))
        }
      })
    })

    describe('DECISIONS 13: "Unknown or foreign id: 404 service_not_found"', () => {
      it("an unknown id, another partner's application, or not an id at all", async () => {
        const { p, s } = await fixture()
        const other = await partnerAccount(s)
        const theirs = await clientApplication(s, other, { approved: true, external_id: "theirs" })
        for (const id of [crypto.randomUUID(), theirs.id, "theirs", "not-an-id"]) {
          const res = await log(s, p.key, id)
          expect(res.status, id).toBe(404)
          expect(res.body).toEqual({ error: "service_not_found" })
        }
      })
    })

    describe("DECISIONS 13: Verify with partner keys; the partner's copy of a verification event carries external_id", () => {
      it("a partner key starts and checks a code for its client named by id or by external_id", async () => {
        const s = server()
        const p = await partnerAccount(s)
        const app = await clientApplication(s, p, { approved: true, external_id: "merchant-9" })
        const started = await s.call("POST", "/v1/verify/start", {
          key: p.key,
          body: { to: "0512345699", application: "merchant-9" },
        })
        expect(started.status).toBe(200)
        expect(started.body.application_id).toBe(app.id)
        const code = await latestCode(s, "+966512345699")
        const checked = await s.call("POST", "/v1/verify/check", {
          key: p.key,
          body: { id: started.body.id, code, application: app.id },
        })
        expect(checked.body.status).toBe("verified")
        const read = await s.call("GET", `/v1/verify/${started.body.id}?application=${app.id}`, { key: p.key })
        expect(read.body.status).toBe("verified")
        const feed = await s.call("GET", "/v1/partner/events?types=verification.verified", { key: p.key })
        expect(feed.body.data).toHaveLength(1)
        expect(feed.body.data[0].data).toEqual({ ...checked.body, external_id: "merchant-9" })
      })
    })
  })

const memory = useServer()
logRules("memory store", () => memory)

describe("PGlite", () => {
  const pglite = useServer({ store: "sql", pgliteDir: "memory://", databaseUrl: Option.none() })
  logRules("on PGlite", () => pglite)
})

const databaseUrl = process.env.DATABASE_URL
describe.runIf(databaseUrl !== undefined)("PostgreSQL (DATABASE_URL)", () => {
  const pg = usePostgresServer(databaseUrl!)
  logRules("on PostgreSQL", () => pg)
})
