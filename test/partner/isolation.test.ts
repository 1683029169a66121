/**
 * Isolation (issue 15, DECISIONS 13): a partner never reads, moves or learns of another partner's client
 * applications — not even whether an id or an external_id exists.
 */
import { describe, expect, it } from "vitest"
import { useServer } from "../support/server.ts"
import { app, approve, dataUrl, makePartner, merchant, pngBytes, provisioned, serviceEvents } from "./helpers.ts"

const s = useServer()

describe('DECISIONS 13: "Unknown or foreign id: 404 service_not_found" — nothing of another partner is read, moved or revealed', () => {
  it("a foreign application answers exactly as an id that names nothing, on every route, and stays as it was", async () => {
    const mine = await makePartner(s)
    const theirs = await makePartner(s)
    const foreign = await provisioned(
      s,
      theirs.key,
      merchant({ external_id: "their-1", logo: dataUrl("image/png", pngBytes(12)) }),
    )
    await approve(s, foreign.id)
    const before = (await s.call("GET", app(foreign.id), { key: theirs.key })).body
    const eventsBefore = (await serviceEvents(s, foreign.id)).length
    const nobody = crypto.randomUUID()
    const routes = (id: string) =>
      [
        ["GET", app(id), undefined],
        ["POST", app(id), { name: "Taken over", website: "https://evil.example" }],
        ["POST", app(id), { external_id: "mine-now" }],
        ["POST", `${app(id)}/disable`, {}],
        ["POST", `${app(id)}/resume`, {}],
        ["POST", `${app(id)}/archive`, {}],
        ["POST", `${app(id)}/restore`, {}],
        ["POST", `${app(id)}/appeal`, {}],
        ["POST", `${app(id)}/logo`, { logo: dataUrl("image/png", pngBytes(1)) }],
        ["DELETE", `${app(id)}/logo`, undefined],
      ] as const
    for (const [[method, path, body], [, unknownPath]] of routes(foreign.id).map((r, i) => [r, routes(nobody)[i]])) {
      const res = await s.call(method, path, { key: mine.key, body })
      const unknown = await s.call(method, unknownPath, { key: mine.key, body })
      expect(res.status, `${method} ${path}`).toBe(404)
      expect(res.body).toEqual({ error: "service_not_found" })
      expect(unknown.status).toBe(res.status)
      expect(unknown.body).toEqual(res.body)
    }
    expect((await s.call("GET", app(foreign.id), { key: theirs.key })).body).toEqual(before)
    expect((await serviceEvents(s, foreign.id)).length).toBe(eventsBefore)
  })

  it("lists hold only the partner's own applications, whatever the filter (their id, their external_id, their name)", async () => {
    const mine = await makePartner(s)
    const theirs = await makePartner(s)
    const own = await provisioned(s, mine.key, merchant({ name: "Shared Name" }))
    const foreign = await provisioned(s, theirs.key, merchant({ name: "Shared Name", external_id: "their-x" }))
    const ids = async (query: string) =>
      (await s.call("GET", `/v1/partner/applications?${query}`, { key: mine.key })).body.data.map((
        a: { id: string },
      ) => a.id)
    expect(await ids("")).toEqual([own.id])
    expect(await ids("q=shared")).toEqual([own.id])
    expect(await ids(`q=${foreign.id}`)).toEqual([])
    expect(await ids("external_id=their-x")).toEqual([])
    expect(await ids("q=their-x")).toEqual([])
    for (const status of ["pending", "active", "archived"]) {
      expect(await ids(`status=${status}`)).not.toContain(foreign.id)
    }
  })

  it("external_id is unique per partner only: taking another partner's external_id reveals nothing and succeeds", async () => {
    const mine = await makePartner(s)
    const theirs = await makePartner(s)
    await provisioned(s, theirs.key, merchant({ external_id: "acme" }))
    const own = await provisioned(s, mine.key, merchant({ external_id: "acme" }))
    const other = await provisioned(s, mine.key)
    const renamed = await s.call("POST", app(other.id), { key: mine.key, body: { external_id: "acme" } })
    expect(renamed.status).toBe(409)
    expect(renamed.body.application_id).toBe(own.id)
  })

  it("Verify with a partner key names only the partner's own applications (their id or external_id: service_not_found)", async () => {
    const mine = await makePartner(s)
    const theirs = await makePartner(s)
    const foreign = await provisioned(s, theirs.key, merchant({ external_id: "their-v" }))
    await approve(s, foreign.id)
    for (const application of [foreign.id, "their-v"]) {
      const res = await s.call("POST", "/v1/verify/start", {
        key: mine.key,
        body: { to: "+966551234567", application },
      })
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ error: "service_not_found" })
    }
  })
})
