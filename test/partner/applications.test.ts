/**
 * The Partner API's client applications over HTTP (DECISIONS 13, 16): provisioning, the record, the list,
 * updates and the lifecycle moves with their `service.*` events.
 */
import { describe, expect, it } from "vitest"
import { useServer } from "../support/server.ts"
import {
  app,
  approve,
  ISO,
  keyOf,
  makePartner,
  merchant,
  provision,
  provisioned,
  reject,
  serviceEvents,
  UUID,
} from "./helpers.ts"

const s = useServer()

describe("DECISIONS 13: provision — 201, `pending`, no event; the record `{ id, service_id (= id), … }` bare", () => {
  it("answers the whole record and fires nothing", async () => {
    const { key } = await makePartner(s)
    const res = await provision(s, key, {
      name: "Nour Sweets",
      website: "https://nour.example.sa",
      external_id: "m-1",
      verify_settings: { code_length: 4, max_attempts: 5 },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      service_id: res.body.id,
      external_id: "m-1",
      name: "Nour Sweets",
      website: "https://nour.example.sa",
      logo_url: null,
      status: "pending",
      paused: false,
      reason_code: null,
      appealable: false,
      verify_settings: {
        code_length: 4,
        code_lifetime_minutes: 10,
        max_attempts: 5,
        hourly_cap_per_destination: 5,
        max_per_ip_per_hour: 20,
        daily_spend_cap_halalas: null,
      },
      approved_at: null,
      created_at: expect.stringMatching(ISO),
      updated_at: res.body.created_at,
    })
    expect(await serviceEvents(s, res.body.id)).toEqual([])
    const read = await s.call("GET", app(res.body.id), { key })
    expect(read.status).toBe(200)
    expect(read.body).toEqual(res.body)
  })

  it("both partner key modes see the same applications; /api/v1 answers as /v1", async () => {
    const { account, key } = await makePartner(s)
    const testKey = await keyOf(s, account.id, "partner_test")
    const made = await provisioned(s, testKey)
    expect((await s.call("GET", app(made.id), { key })).body).toEqual(made)
    expect((await s.call("GET", `/api${app(made.id)}`, { key: testKey })).body).toEqual(made)
  })

  it("409 external_id_taken with application_id; archived applications keep theirs; another partner may reuse it", async () => {
    const { key } = await makePartner(s)
    const first = await provisioned(s, key, merchant({ external_id: "shop-7" }))
    const again = await provision(s, key, merchant({ external_id: "shop-7" }))
    expect(again.status).toBe(409)
    expect(again.body).toEqual({ error: "external_id_taken", message: expect.any(String), application_id: first.id })
    await s.call("POST", `${app(first.id)}/archive`, { key, body: {} })
    expect((await provision(s, key, merchant({ external_id: "shop-7" }))).status).toBe(409)
    const other = await makePartner(s)
    expect((await provision(s, other.key, merchant({ external_id: "shop-7" }))).status).toBe(201)
    // An update to a taken external_id, too; keeping one's own is no conflict.
    const second = await provisioned(s, key, merchant({ external_id: "shop-8" }))
    const taken = await s.call("POST", app(second.id), { key, body: { external_id: "shop-7" } })
    expect(taken.status).toBe(409)
    expect(taken.body.application_id).toBe(first.id)
    expect((await s.call("POST", app(second.id), { key, body: { external_id: "shop-8" } })).status).toBe(200)
  })

  it("unknown, malformed and foreign ids: 404 service_not_found, on every route", async () => {
    const { key } = await makePartner(s)
    const other = await makePartner(s)
    const foreign = await provisioned(s, other.key)
    for (const id of [crypto.randomUUID(), "not-a-uuid", foreign.id, foreign.id.toUpperCase()]) {
      for (
        const [method, path, body] of [
          ["GET", app(id), undefined],
          ["POST", app(id), { name: "Mine now" }],
          ["POST", `${app(id)}/disable`, {}],
          ["POST", `${app(id)}/archive`, {}],
          ["POST", `${app(id)}/appeal`, {}],
          ["DELETE", `${app(id)}/logo`, undefined],
        ] as const
      ) {
        const res = await s.call(method, path, { key, body })
        expect(res.status, `${method} ${path}`).toBe(404)
        expect(res.body).toEqual({ error: "service_not_found" })
      }
    }
    expect((await s.call("GET", app(foreign.id), { key: other.key })).body.name).toBe(foreign.name)
  })

  it("an application key, an account token and no key are not partners: 401 unauthorized", async () => {
    const { key } = await makePartner(s)
    const made = await provisioned(s, key)
    const merchantAccount = await s.console("POST", "/accounts", { name: "Plain" })
    const plain = await s.console("POST", `/accounts/${merchantAccount.id}/applications`, {
      name: "Shop",
      approved: true,
    })
    const appKey = (await s.console("POST", `/applications/${plain.id}/keys`, { mode: "live" })).key
    const token = (await s.console("POST", `/accounts/${merchantAccount.id}/account-tokens`, {})).token
    for (const k of [appKey, token, undefined]) {
      const res = await s.call("GET", app(made.id), { key: k })
      expect(res.status).toBe(401)
      expect(res.body.error).toBe("unauthorized")
    }
  })
})

describe("DECISIONS 13: GET /applications — newest first, `{ data, next_cursor }`, archived only if asked", () => {
  it("pages newest first with a cursor; filters status, external_id and q (name or external_id part, any case, or id)", async () => {
    const { key } = await makePartner(s)
    const made = []
    for (const [name, external_id] of [["Alpha Bakery", "ext-A"], ["Beta Cafe", "ext-B"], ["Gamma Dates", "G-17"]]) {
      made.push(await provisioned(s, key, merchant({ name, external_id })))
      await s.call("POST", "/console/v1/simulator/clock", { key: s.consoleToken, body: { advance_ms: 1_000 } })
    }
    const first = await s.call("GET", "/v1/partner/applications?limit=2", { key })
    expect(first.status).toBe(200)
    expect(Object.keys(first.body).sort()).toEqual(["data", "next_cursor"])
    expect(first.body.data.map((a: { id: string }) => a.id)).toEqual([made[2].id, made[1].id])
    const second = await s.call(
      "GET",
      `/v1/partner/applications?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      { key },
    )
    expect(second.body.data.map((a: { id: string }) => a.id)).toEqual([made[0].id])
    expect(second.body.next_cursor).toBeNull()
    expect(second.body.data[0]).toEqual(made[0])

    const names = async (query: string) =>
      (await s.call("GET", `/v1/partner/applications?${query}`, { key })).body.data.map((a: { name: string }) => a.name)
    expect(await names("q=BAKERY")).toEqual(["Alpha Bakery"])
    expect(await names("q=ext-")).toEqual(["Beta Cafe", "Alpha Bakery"])
    expect(await names("q=g-1")).toEqual(["Gamma Dates"])
    expect(await names(`q=${made[1].id.toUpperCase()}`)).toEqual(["Beta Cafe"])
    expect(await names("external_id=ext-B")).toEqual(["Beta Cafe"])
    expect(await names("external_id=EXT-B")).toEqual([])

    await s.call("POST", `${app(made[1].id)}/archive`, { key, body: {} })
    expect(await names("")).toEqual(["Gamma Dates", "Alpha Bakery"])
    expect(await names("status=archived")).toEqual(["Beta Cafe"])
    expect(await names("status=pending")).toEqual(["Gamma Dates", "Alpha Bakery"])
    await approve(s, made[0].id)
    expect(await names("status=active")).toEqual(["Alpha Bakery"])
  })

  it("bad parameters: 400 invalid_request naming each (status, limit, q over 100, unknown, another list's cursor)", async () => {
    const { key } = await makePartner(s)
    const other = await makePartner(s)
    for (let i = 0; i < 3; i++) await provisioned(s, other.key)
    const foreignCursor = (await s.call("GET", "/v1/partner/applications?limit=1", { key: other.key })).body
      .next_cursor
    const cases: Array<[string, Record<string, string>]> = [
      ["status=deleted", { status: "invalid" }],
      ["limit=0", { limit: "invalid" }],
      ["limit=101", { limit: "invalid" }],
      [`q=${"x".repeat(101)}`, { q: "too_long" }],
      ["color=red", { color: "unknown" }],
      ["status=active&status=pending", { status: "invalid" }],
      ["q=a%00b", { q: "invalid" }],
      ["external_id=%00", { external_id: "invalid" }],
      [`cursor=${encodeURIComponent(foreignCursor)}`, { cursor: "invalid" }],
      [`limit=1&cursor=${encodeURIComponent(foreignCursor)}`, { cursor: "invalid" }],
    ]
    for (const [query, errors] of cases) {
      const res = await s.call("GET", `/v1/partner/applications?${query}`, { key })
      expect(res.status, query).toBe(400)
      expect(res.body.error).toBe("invalid_request")
      expect(res.body.errors, query).toEqual(errors)
    }
    // A cursor of the same partner's list under another filter is not this list's either.
    for (let i = 0; i < 2; i++) await provisioned(s, key, merchant({ name: `Same ${i}` }))
    const mine = (await s.call("GET", "/v1/partner/applications?limit=1", { key })).body.next_cursor
    const res = await s.call("GET", `/v1/partner/applications?q=same&cursor=${encodeURIComponent(mine)}`, { key })
    expect(res.body.errors).toEqual({ cursor: "invalid" })
  })
})

describe("DECISIONS 13: bad input — each its pinned 400 with `fields` and `errors`", () => {
  it("names over 100 characters, websites that are not http(s), external ids over 255, settings out of bounds, unknown fields", async () => {
    const { key } = await makePartner(s)
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{ website: "https://a.sa" }, { name: "required" }],
      [{ name: "x".repeat(101), website: "https://a.sa" }, { name: "too_long" }],
      [{ name: "   ", website: "https://a.sa" }, { name: "invalid" }],
      [{ name: "A" }, { website: "required" }],
      [{ name: "A", website: "ftp://a.sa" }, { website: "invalid" }],
      [{ name: "A", website: "javascript:alert(1)" }, { website: "invalid" }],
      [{ name: "A", website: "a.sa" }, { website: "invalid" }],
      [{ name: "A", website: "https://a.sa", external_id: "e".repeat(256) }, { external_id: "too_long" }],
      [{ name: "A", website: "https://a.sa", verify_settings: { code_length: 9 } }, {
        "verify_settings.code_length": "invalid",
      }],
      [{ name: "A", website: "https://a.sa", verify_settings: { guard: false } }, {
        "verify_settings.guard": "unknown",
      }],
      [{ name: "A", website: "https://a.sa", owner: "me" }, { owner: "unknown" }],
    ]
    for (const [body, errors] of cases) {
      const res = await provision(s, key, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error).toBe("invalid_request")
      expect(res.body.errors, JSON.stringify(body)).toEqual(errors)
      expect(Object.keys(res.body.fields)).toEqual(Object.keys(errors))
    }
    // 100 characters (code points: an emoji is one) are taken.
    expect((await provision(s, key, merchant({ name: "🌴".repeat(100) }))).status).toBe(201)
    const broken = await s.call("POST", "/v1/partner/applications", { key, rawBody: "{not json" })
    expect(broken.status).toBe(400)
    expect(broken.body).toEqual({ error: "invalid_json" })
  })
})

describe("DECISIONS 13: updates — a name or website change on `active` or `rejected` goes back to `pending` with service.review_requested", () => {
  it("active → pending, `changed` lists what changed, approved_at kept; event data as pinned", async () => {
    const { account, key } = await makePartner(s)
    const made = await provisioned(s, key, merchant({ external_id: "rr-1" }))
    await approve(s, made.id)
    const res = await s.call("POST", app(made.id), {
      key,
      body: { name: "Renamed", website: "https://new.example.sa" },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: "pending", name: "Renamed", website: "https://new.example.sa" })
    expect(res.body.approved_at).toMatch(ISO)
    const events = await serviceEvents(s, made.id)
    expect(events.map((e) => e.event)).toEqual(["service.approved", "service.review_requested"])
    const review = events[1]
    expect(review.accountId).toBe(account.id)
    expect(review.data).toEqual({
      id: expect.any(String),
      service_id: made.id,
      application_id: made.id,
      external_id: "rr-1",
      status: "pending",
      previous_status: "active",
      occurred_at: expect.stringMatching(ISO),
      changed: ["name", "website"],
    })
  })

  it("rejected → pending with review_requested `changed: [website]`; reason_code cleared", async () => {
    const { key } = await makePartner(s)
    const made = await provisioned(s, key)
    await reject(s, made.id, "website_unreachable")
    const res = await s.call("POST", app(made.id), { key, body: { website: "https://fixed.example.sa" } })
    expect(res.body).toMatchObject({ status: "pending", reason_code: null, appealable: false })
    const last = (await serviceEvents(s, made.id)).at(-1)!
    expect(last.event).toBe("service.review_requested")
    expect(last.data).toMatchObject({ previous_status: "rejected", changed: ["website"] })
  })

  it("no move: a change on `pending`, unchanged values, external_id and settings (updated_at moves only when something changed)", async () => {
    const { key } = await makePartner(s)
    const made = await provisioned(s, key)
    await s.call("POST", "/console/v1/simulator/clock", { key: s.consoleToken, body: { advance_ms: 5_000 } })
    const renamed = await s.call("POST", app(made.id), { key, body: { name: "Pending rename" } })
    expect(renamed.body).toMatchObject({ status: "pending", name: "Pending rename" })
    expect(renamed.body.updated_at > made.updated_at).toBe(true)
    await approve(s, made.id)
    const before = (await serviceEvents(s, made.id)).length
    const same = await s.call("POST", app(made.id), {
      key,
      body: { name: "Pending rename", website: made.website },
    })
    expect(same.body.status).toBe("active")
    const edited = await s.call("POST", app(made.id), {
      key,
      body: { external_id: "later-id", verify_settings: { code_lifetime_minutes: 3, daily_spend_cap_halalas: 900 } },
    })
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({ status: "active", external_id: "later-id" })
    expect(edited.body.verify_settings).toMatchObject({ code_lifetime_minutes: 3, daily_spend_cap_halalas: 900 })
    expect((await serviceEvents(s, made.id)).length).toBe(before)
    const cleared = await s.call("POST", app(made.id), { key, body: { external_id: null } })
    expect(cleared.body.external_id).toBeNull()
  })

  it("a brand change on `suspended` or `archived` is 409 invalid_state; their external_id and settings may change", async () => {
    const { key } = await makePartner(s)
    const made = await provisioned(s, key)
    await approve(s, made.id)
    await s.call("POST", `${app(made.id)}/disable`, { key, body: {} })
    const refused = await s.call("POST", app(made.id), { key, body: { name: "New name" } })
    expect(refused.status).toBe(409)
    expect(refused.body).toEqual({ error: "invalid_state", message: expect.any(String), status: "suspended" })
    expect((await s.call("POST", app(made.id), { key, body: { verify_settings: { max_attempts: 1 } } })).status)
      .toBe(200)
    await s.call("POST", `${app(made.id)}/archive`, { key, body: {} })
    const archived = await s.call("POST", app(made.id), { key, body: { website: "https://x.example.sa" } })
    expect(archived.body).toMatchObject({ error: "invalid_state", status: "archived" })
    const read = await s.call("GET", app(made.id), { key })
    expect(read.body).toMatchObject({ name: made.name, website: made.website, status: "archived" })
    expect(read.body.verify_settings.max_attempts).toBe(1)
  })
})

describe("DECISIONS 13: disable, resume, archive, restore, appeal — the table's moves with their events", () => {
  it("disable active → suspended; resume → active; again: no move; from other states 409 invalid_state", async () => {
    const { key } = await makePartner(s)
    const made = await provisioned(s, key)
    const early = await s.call("POST", `${app(made.id)}/disable`, { key, body: {} })
    expect(early.status).toBe(409)
    expect(early.body).toMatchObject({ error: "invalid_state", status: "pending" })
    expect((await s.call("POST", `${app(made.id)}/resume`, { key, body: {} })).body).toMatchObject({
      error: "invalid_state",
      status: "pending",
    })
    await approve(s, made.id)
    expect((await s.call("POST", `${app(made.id)}/disable`, { key, body: {} })).body.status).toBe("suspended")
    expect((await s.call("POST", `${app(made.id)}/disable`, { key, body: {} })).body.status).toBe("suspended")
    expect((await s.call("POST", `${app(made.id)}/resume`, { key, body: {} })).body.status).toBe("active")
    expect((await s.call("POST", `${app(made.id)}/resume`, { key, body: {} })).body.status).toBe("active")
    const events = await serviceEvents(s, made.id)
    expect(events.map((e) => [e.event, e.data.previous_status, e.data.status])).toEqual([
      ["service.approved", "pending", "active"],
      ["service.suspended", "active", "suspended"],
      ["service.resumed", "suspended", "active"],
    ])
    expect((await s.call("POST", `${app(made.id)}/disable`, { key, body: { now: true } })).body.errors).toEqual({
      now: "unknown",
    })
  })

  it("archive from any state, restore to the state before; archiving twice: no move; restore of unarchived: 409", async () => {
    const { key } = await makePartner(s)
    const made = await provisioned(s, key)
    await approve(s, made.id)
    await s.call("POST", `${app(made.id)}/disable`, { key, body: {} })
    const archived = await s.call("POST", `${app(made.id)}/archive`, { key, body: {} })
    expect(archived.body.status).toBe("archived")
    expect((await s.call("POST", `${app(made.id)}/archive`, { key, body: {} })).body.status).toBe("archived")
    const restored = await s.call("POST", `${app(made.id)}/restore`, { key, body: {} })
    expect(restored.body.status).toBe("suspended")
    const again = await s.call("POST", `${app(made.id)}/restore`, { key, body: {} })
    expect(again.body).toMatchObject({ error: "invalid_state", status: "suspended" })
    const events = (await serviceEvents(s, made.id)).slice(-2)
    expect(events.map((e) => [e.event, e.data.previous_status, e.data.status])).toEqual([
      ["service.archived", "suspended", "archived"],
      ["service.restored", "archived", "suspended"],
    ])
  })

  it("appeal of an appealable rejection → pending with review_requested `changed: [appeal]`; otherwise 409 not_appealable", async () => {
    const { key } = await makePartner(s)
    const made = await provisioned(s, key)
    const early = await s.call("POST", `${app(made.id)}/appeal`, { key, body: {} })
    expect(early.body).toEqual({ error: "not_appealable", message: expect.any(String), status: "pending" })
    await reject(s, made.id, "incomplete_information")
    const rejected = (await s.call("GET", app(made.id), { key })).body
    expect(rejected).toMatchObject({ status: "rejected", reason_code: "incomplete_information", appealable: true })
    const rejection = (await serviceEvents(s, made.id)).at(-1)!
    expect(rejection.data).toMatchObject({
      status: "rejected",
      previous_status: "pending",
      reason_code: "incomplete_information",
      appealable: true,
    })
    const appealed = await s.call("POST", `${app(made.id)}/appeal`, {
      key,
      body: { message: "We added our commercial registration." },
    })
    expect(appealed.body).toMatchObject({ status: "pending", reason_code: null })
    expect((await serviceEvents(s, made.id)).at(-1)!.data).toMatchObject({
      previous_status: "rejected",
      changed: ["appeal"],
    })
    const final = await provisioned(s, key)
    await reject(s, final.id, "impersonation")
    const refused = await s.call("POST", `${app(final.id)}/appeal`, { key, body: {} })
    expect(refused.body).toMatchObject({ error: "not_appealable", status: "rejected" })
    const long = await s.call("POST", `${app(final.id)}/appeal`, { key, body: { message: "x".repeat(2001) } })
    expect(long.body.errors).toEqual({ message: "too_long" })
  })
})
