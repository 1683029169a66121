/**
 * The Partner API's applications over HTTP on the SQL stores (PGlite, and PostgreSQL when DATABASE_URL is set):
 * the same answers as on the memory store, logos' bytes intact through bytea, and concurrent provisions of one
 * `external_id` making exactly one application.
 */
import { createHash } from "node:crypto"
import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createSchema, dropSchema, withSearchPath } from "../support/pg.ts"
import { startServer, type TestServer } from "../support/server.ts"
import {
  app,
  approve,
  dataUrl,
  makePartner,
  merchant,
  pngBytes,
  provision,
  provisioned,
  serviceEvents,
} from "./helpers.ts"

const roundTrip = (server: () => TestServer) => async () => {
  const s = server()
  const { key } = await makePartner(s)
  const bytes = pngBytes(200_000)
  const made = await provisioned(
    s,
    key,
    merchant({ external_id: "sql-1", logo: dataUrl("image/png", bytes), verify_settings: { code_length: 8 } }),
  )
  const sha = createHash("sha256").update(bytes).digest("hex")
  expect(made.logo_url).toBe(`${s.baseUrl}/v1/logos/${sha}.png`)
  const logo = await fetch(made.logo_url)
  expect(logo.headers.get("content-type")).toBe("image/png")
  expect(logo.headers.get("x-content-type-options")).toBe("nosniff")
  expect(logo.headers.get("content-security-policy")).toBe("default-src 'none'")
  expect(new Uint8Array(await logo.arrayBuffer())).toEqual(bytes)
  expect((await s.call("GET", app(made.id), { key })).body).toEqual(made)

  // A millisecond apart at least, so "newest first" has one answer.
  await s.call("POST", "/console/v1/simulator/clock", { key: s.consoleToken, body: { advance_ms: 1_000 } })
  const second = await provisioned(s, key, merchant({ name: "Second Shop" }))
  const listed = await s.call("GET", "/v1/partner/applications?limit=1", { key })
  expect(listed.body.data).toEqual([second])
  const rest = await s.call(
    "GET",
    `/v1/partner/applications?limit=1&cursor=${encodeURIComponent(listed.body.next_cursor)}`,
    { key },
  )
  expect(rest.body.data).toEqual([made])
  expect((await s.call("GET", "/v1/partner/applications?q=SECOND", { key })).body.data).toEqual([second])
  expect((await s.call("GET", "/v1/partner/applications?external_id=sql-1", { key })).body.data).toEqual([made])

  await approve(s, made.id)
  const changed = await s.call("POST", app(made.id), { key, body: { name: "Renamed", external_id: "sql-2" } })
  expect(changed.body).toMatchObject({ status: "pending", name: "Renamed", external_id: "sql-2" })
  expect((await serviceEvents(s, made.id)).map((e) => e.event)).toEqual([
    "service.approved",
    "service.review_requested",
  ])

  const bulk = await s.call("POST", "/v1/partner/applications/bulk", {
    key,
    body: { action: "archive", ids: [second.id, made.id] },
  })
  expect(bulk.body.data.map((r: { ok: boolean }) => r.ok)).toEqual([true, true])
  expect((await s.call("GET", "/v1/partner/applications?status=archived", { key })).body.data).toHaveLength(2)
}

/** Ten provisions of one external_id at once: one made, nine `409 external_id_taken` naming it. */
const concurrentClaims = (server: () => TestServer) => async () => {
  const s = server()
  const { key } = await makePartner(s)
  const answers = await Promise.all(
    Array.from({ length: 10 }, () => provision(s, key, merchant({ external_id: "contested" }))),
  )
  const made = answers.filter((a) => a.status === 201)
  expect(made).toHaveLength(1)
  for (const a of answers.filter((a) => a.status !== 201)) {
    expect(a.status).toBe(409)
    expect(a.body).toMatchObject({ error: "external_id_taken", application_id: made[0].body.id })
  }
  const listed = await s.call("GET", "/v1/partner/applications?external_id=contested", { key })
  expect(listed.body.data).toHaveLength(1)
}

describe("on the memory store", () => {
  let s: TestServer
  beforeAll(async () => {
    s = await startServer()
  })
  afterAll(() => s?.close())
  it("ten provisions of one external_id at once make one application", concurrentClaims(() => s), 30_000)
})

describe("on PGlite", () => {
  let s: TestServer
  beforeAll(async () => {
    s = await startServer({ store: "sql", pgliteDir: "memory://" })
  }, 60_000)
  afterAll(() => s?.close())
  it("provision with a logo, read, list and page, update, bulk", roundTrip(() => s), 30_000)
  it("ten provisions of one external_id at once make one application", concurrentClaims(() => s), 30_000)
})

const databaseUrl = process.env.DATABASE_URL
describe.runIf(databaseUrl !== undefined)("on PostgreSQL (DATABASE_URL)", () => {
  let s: TestServer
  const schema = `partner_${Date.now()}_${Math.floor(Math.random() * 1e6)}`
  beforeAll(async () => {
    await createSchema(databaseUrl!, schema)
    s = await startServer({ store: "sql", databaseUrl: Option.some(withSearchPath(databaseUrl!, schema)) })
  }, 60_000)
  afterAll(async () => {
    await s?.close()
    await dropSchema(databaseUrl!, schema)
  })
  it("provision with a logo, read, list and page, update, bulk", roundTrip(() => s), 30_000)
  it("ten provisions of one external_id at once make one application", concurrentClaims(() => s), 30_000)
})
