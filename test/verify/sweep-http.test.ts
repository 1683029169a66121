/**
 * The expiry sweep on the platform clock, over HTTP (spec Section 3, DECISIONS 2): moving the simulated
 * clock runs every job that falls due; the sweep runs every ten minutes and picks codes at least five
 * minutes past expiry, so `verification.expired` arrives between 5 and 15 minutes after `expires_at`.
 */
import { describe, expect, it } from "vitest"
import { setupApplication, useServer } from "../support/server.ts"
import { advance, eventsOf } from "./http-harness.ts"

const s = useServer()

const minute = 60_000

describe("a sweep every ten minutes on the platform clock expires codes at least five minutes past expires_at", () => {
  it("a code expiring at 10:00 is swept at the 20:00 run (not at 10:00, not before), once", async () => {
    const { key } = await setupApplication(s)
    await advance(s, 0) // the sweep's first run: now (S); then every ten minutes
    const started = await s.call("POST", "/v1/verify/start", { key, body: { to: "+966551234567" } })
    const id = started.body.id
    expect(Date.parse(started.body.expires_at) - Date.parse(started.body.created_at)).toBe(10 * minute)

    await advance(s, 10 * minute) // S+10: a run, but only just expired
    expect(await eventsOf(s, id)).toEqual([])
    await advance(s, 10 * minute - 1) // S+19:59.999: no run due
    expect(await eventsOf(s, id)).toEqual([])
    await advance(s, 1) // S+20: the run picks it
    const events = await eventsOf(s, id)
    expect(events.map((e) => e.event)).toEqual(["verification.expired"])
    expect(events[0].data).toMatchObject({ id, status: "expired", attempts: 0 })
    expect(events[0].createdAt - Date.parse(started.body.expires_at)).toBe(10 * minute)

    await advance(s, 60 * minute)
    const read = await s.call("GET", `/v1/verify/${id}`, { key })
    expect(read.body.status).toBe("expired")
    expect((await eventsOf(s, id)).length).toBe(1)
  })

  it("one long clock move runs every sweep that falls due on the way: the event fires within 15 minutes of expiry", async () => {
    const { key } = await setupApplication(s)
    const started = await s.call("POST", "/v1/verify/start", { key, body: { to: "+966551234568" } })
    await advance(s, 3 * 60 * minute)
    const events = await eventsOf(s, started.body.id)
    expect(events.map((e) => e.event)).toEqual(["verification.expired"])
    const late = events[0].createdAt - Date.parse(started.body.expires_at)
    expect(late).toBeGreaterThanOrEqual(5 * minute)
    expect(late).toBeLessThanOrEqual(15 * minute)
  })

  it("a check that finds expiry first leaves nothing for the sweep: one event in all", async () => {
    const { key } = await setupApplication(s)
    const started = await s.call("POST", "/v1/verify/start", { key, body: { to: "+966551234569" } })
    // Move the clock without crossing a sweep that would pick the code: read it the moment it expires.
    await advance(s, 10 * minute)
    const checked = await s.call("POST", "/v1/verify/check", { key, body: { id: started.body.id, code: "000000" } })
    expect(checked.body).toMatchObject({ status: "expired", attempts: 0 })
    await advance(s, 60 * minute)
    expect((await eventsOf(s, started.body.id)).map((e) => e.event)).toEqual(["verification.expired"])
  })

  it("long moves jump from due time to due time: codes started days apart each expire 5 to 15 minutes after expiry", async () => {
    const { key } = await setupApplication(s)
    const day = 24 * 60 * minute
    const ids: Array<{ id: string; expiresAt: number }> = []
    for (const gap of [0, 3 * day, 20 * day]) {
      await advance(s, gap)
      const started = await s.call("POST", "/v1/verify/start", { key, body: { to: "+966551234570" } })
      ids.push({ id: started.body.id, expiresAt: Date.parse(started.body.expires_at) })
    }
    // Read within the outbox's retention (30 days, docs/decisions.md "Retention"): the first event is 29 days old.
    await advance(s, 6 * day)
    for (const { id, expiresAt } of ids) {
      const events = await eventsOf(s, id)
      expect(events.map((e) => e.event)).toEqual(["verification.expired"])
      expect(events[0].createdAt - expiresAt).toBeGreaterThanOrEqual(5 * minute)
      expect(events[0].createdAt - expiresAt).toBeLessThanOrEqual(15 * minute)
    }
    // A 90-day move then drops the events with the outbox's retention.
    await advance(s, 90 * day)
    for (const { id } of ids) expect(await eventsOf(s, id)).toEqual([])
  })
})
