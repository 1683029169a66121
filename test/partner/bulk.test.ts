/**
 * Bulk moves (DECISIONS 13, 16): up to 100 ids, each its own move in order, each result on its own; the whole
 * call idempotent under `Idempotency-Key`.
 */
import { describe, expect, it } from "vitest"
import { useServer } from "../support/server.ts"
import { app, approve, makePartner, provisioned, serviceEvents } from "./helpers.ts"

const s = useServer()
const bulk = (key: string, body: unknown, headers: Record<string, string> = {}) =>
  s.call("POST", "/v1/partner/applications/bulk", { key, body, headers })

describe('DECISIONS 13: "Bulk: each id is its own move, in order: { data: [{ id, ok: true, application } | { id, ok: false, error, status? }] }"', () => {
  it("results in the order given; a refusal is that id's alone (status = the application's current status)", async () => {
    const { key } = await makePartner(s)
    const a = await provisioned(s, key)
    const b = await provisioned(s, key)
    const c = await provisioned(s, key)
    await approve(s, a.id)
    await approve(s, c.id)
    const res = await bulk(key, { action: "disable", ids: [c.id, b.id, a.id] })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(["data"])
    expect(res.body.data).toEqual([
      { id: c.id, ok: true, application: expect.objectContaining({ id: c.id, status: "suspended" }) },
      { id: b.id, ok: false, error: "invalid_state", status: "pending" },
      { id: a.id, ok: true, application: expect.objectContaining({ id: a.id, status: "suspended" }) },
    ])
    expect((await s.call("GET", app(a.id), { key })).body.status).toBe("suspended")
    expect((await serviceEvents(s, c.id)).at(-1)!.event).toBe("service.suspended")
    expect(await serviceEvents(s, b.id)).toEqual([])
    const resumed = await bulk(key, { action: "resume", ids: [a.id, c.id] })
    expect(resumed.body.data.map((r: { application: { status: string } }) => r.application.status)).toEqual([
      "active",
      "active",
    ])
  })

  it("archive then restore in bulk: each returns to the state it had before", async () => {
    const { key } = await makePartner(s)
    const a = await provisioned(s, key)
    const b = await provisioned(s, key)
    await approve(s, b.id)
    const archived = await bulk(key, { action: "archive", ids: [a.id, b.id] })
    expect(archived.body.data.every((r: { ok: boolean }) => r.ok)).toBe(true)
    const restored = await bulk(key, { action: "restore", ids: [a.id, b.id] })
    expect(restored.body.data.map((r: { application: { status: string } }) => r.application.status)).toEqual([
      "pending",
      "active",
    ])
  })

  it("another partner's ids, unknown ids and what is no id: per-id service_not_found, nothing of theirs moved or revealed", async () => {
    const { key } = await makePartner(s)
    const other = await makePartner(s)
    const mine = await provisioned(s, key)
    const theirs = await provisioned(s, other.key)
    await approve(s, mine.id)
    await approve(s, theirs.id)
    const unknown = crypto.randomUUID()
    const res = await bulk(key, { action: "disable", ids: [theirs.id, mine.id, unknown, "merchant-7"] })
    expect(res.body.data).toEqual([
      { id: theirs.id, ok: false, error: "service_not_found" },
      { id: mine.id, ok: true, application: expect.objectContaining({ status: "suspended" }) },
      { id: unknown, ok: false, error: "service_not_found" },
      { id: "merchant-7", ok: false, error: "service_not_found" },
    ])
    expect((await s.call("GET", app(theirs.id), { key: other.key })).body.status).toBe("active")
    expect((await serviceEvents(s, theirs.id)).map((e) => e.event)).toEqual(["service.approved"])
  })

  it("refusals of the whole call: 101 ids, none, duplicate ids (any case), an unknown action — 400, nothing moved", async () => {
    const { key } = await makePartner(s)
    const a = await provisioned(s, key)
    await approve(s, a.id)
    const many = Array.from({ length: 101 }, () => crypto.randomUUID())
    const cases: Array<[unknown, Record<string, string>]> = [
      [{ action: "disable", ids: many }, { ids: "too_many" }],
      [{ action: "disable", ids: [] }, { ids: "invalid" }],
      [{ action: "disable", ids: [a.id, a.id] }, { "ids[1]": "duplicate" }],
      [{ action: "disable", ids: [a.id, crypto.randomUUID(), a.id.toUpperCase()] }, { "ids[2]": "duplicate" }],
      [{ action: "delete", ids: [a.id] }, { action: "invalid" }],
      [{ ids: [a.id] }, { action: "required" }],
      [{ action: "disable", ids: [a.id, 7] }, { "ids[1]": "invalid" }],
      [{ action: "disable", ids: [a.id], force: true }, { force: "unknown" }],
    ]
    for (const [body, errors] of cases) {
      const res = await bulk(key, body)
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(res.body.error).toBe("invalid_request")
      expect(res.body.errors, JSON.stringify(body).slice(0, 80)).toEqual(errors)
    }
    expect((await s.call("GET", app(a.id), { key })).body.status).toBe("active")
    // 100 ids are taken.
    const hundred = [a.id, ...Array.from({ length: 99 }, () => crypto.randomUUID())]
    const ok = await bulk(key, { action: "disable", ids: hundred })
    expect(ok.status).toBe(200)
    expect(ok.body.data).toHaveLength(100)
    expect(ok.body.data[0].ok).toBe(true)
  })
})

describe('DECISIONS 4: "Idempotency-Key" on a bulk call — the whole answer replayed, nothing moved again', () => {
  it("same key, same body: the stored answer with Idempotent-Replayed; same key, other body: 409 idempotency_key_reused", async () => {
    const { key } = await makePartner(s)
    const a = await provisioned(s, key)
    const b = await provisioned(s, key)
    await approve(s, a.id)
    const body = { action: "disable", ids: [a.id, b.id] }
    const first = await bulk(key, body, { "idempotency-key": "bulk-1" })
    expect(first.status).toBe(200)
    // Resumed in between: a replay must not disable it again.
    await s.call("POST", `${app(a.id)}/resume`, { key, body: {} })
    const replay = await bulk(key, body, { "idempotency-key": "bulk-1" })
    expect(replay.status).toBe(200)
    expect(replay.headers.get("idempotent-replayed")).toBe("true")
    expect(replay.body).toEqual(first.body)
    expect((await s.call("GET", app(a.id), { key })).body.status).toBe("active")
    expect((await serviceEvents(s, a.id)).filter((e) => e.event === "service.suspended")).toHaveLength(1)
    const reused = await bulk(key, { action: "archive", ids: [a.id] }, { "idempotency-key": "bulk-1" })
    expect(reused.status).toBe(409)
    expect(reused.body).toEqual({ error: "idempotency_key_reused" })
  })
})
