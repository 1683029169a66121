/**
 * DECISIONS 18 over HTTP, on the memory store, PGlite and PostgreSQL (DATABASE_URL): a `pending` application
 * sends only when it came to `pending` from `active`; one sent back to review from `rejected` (a brand change,
 * a logo, an appeal) answers `403 account_not_active` until the console approves it again; on a rejection that
 * is not appealable, brand changes and logos answer `409 not_appealable`, as an appeal does, and change nothing.
 */
import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createSchema, dropSchema, withSearchPath } from "../support/pg.ts"
import { startServer, type TestServer } from "../support/server.ts"
import {
  app,
  approve,
  dataUrl,
  ISO,
  jpegBytes,
  makePartner,
  merchant,
  pngBytes,
  provisioned,
  reject,
} from "./helpers.ts"

let seq = 0
const fresh = () => `+9665541${String(++seq).padStart(5, "0")}`

const start = (s: TestServer, key: string, application: string) =>
  s.call("POST", "/v1/verify/start", { key, body: { to: fresh(), application } })

/** The `service.*` feed entries of an application, oldest first. */
const feedOf = async (s: TestServer, key: string, id: string) =>
  ((await s.call("GET", "/v1/partner/events?limit=100", { key })).body.data as Array<any>)
    .filter((e) => e.data.application_id === id).map((e) => e.event)

/** Provisioned (with a logo), approved, renamed (under re-review from active), then rejected for `reason`. */
const rejectedAfterReview = async (s: TestServer, key: string, reason: string) => {
  const made = await provisioned(s, key, merchant({ logo: dataUrl("image/png", pngBytes(16)) }))
  await approve(s, made.id)
  const review = await s.call("POST", app(made.id), { key, body: { name: `Renamed ${made.name}` } })
  expect(review.body).toMatchObject({ status: "pending", approved_at: expect.stringMatching(ISO) })
  expect((await start(s, key, made.id)).status, "pending from active sends").toBe(200)
  const rejected = await reject(s, made.id, reason)
  expect(rejected).toMatchObject({ status: "rejected" })
  return made
}

const fromRejectedWaits = (server: () => TestServer) => async () => {
  const s = server()
  const { key } = await makePartner(s, { balance: 10_000 })
  const ways: ReadonlyArray<readonly [string, (id: string) => Promise<{ status: number; body: any }>]> = [
    ["a name change", (id) => s.call("POST", app(id), { key, body: { name: "Another name" } })],
    ["a website change", (id) => s.call("POST", app(id), { key, body: { website: "https://another.example.sa" } })],
    [
      "a logo set",
      (id) => s.call("POST", `${app(id)}/logo`, { key, body: { logo: dataUrl("image/jpeg", jpegBytes(9)) } }),
    ],
    ["a logo removed", (id) => s.call("DELETE", `${app(id)}/logo`, { key })],
    ["an appeal", (id) => s.call("POST", `${app(id)}/appeal`, { key, body: { message: "Fixed it" } })],
  ]
  for (const [way, act] of ways) {
    const made = await rejectedAfterReview(s, key, "brand_mismatch")
    const back = await act(made.id)
    expect(back.status, way).toBe(200)
    expect(back.body, way).toMatchObject({ status: "pending", approved_at: null })
    const refused = await start(s, key, made.id)
    expect(refused.status, way).toBe(403)
    expect(refused.body, way).toEqual({ error: "account_not_active" })
    await approve(s, made.id)
    expect((await s.call("GET", app(made.id), { key })).body, way).toMatchObject({
      status: "active",
      approved_at: expect.stringMatching(ISO),
    })
    expect((await start(s, key, made.id)).status, `${way}, approved again`).toBe(200)
  }
}

const finalRejectionHolds = (server: () => TestServer) => async () => {
  const s = server()
  const { key } = await makePartner(s, { balance: 10_000 })
  for (const reason of ["prohibited_business", "impersonation", "duplicate_application"]) {
    const made = await rejectedAfterReview(s, key, reason)
    const before = (await s.call("GET", app(made.id), { key })).body
    expect(before).toMatchObject({ status: "rejected", reason_code: reason, appealable: false })
    const events = await feedOf(s, key, made.id)
    const attempts: ReadonlyArray<readonly [string, string, string, unknown]> = [
      ["name", "POST", app(made.id), { name: "Sneaky rename" }],
      ["website", "POST", app(made.id), { website: "https://sneaky.example.sa" }],
      ["name and external_id", "POST", app(made.id), { name: "Sneaky", external_id: `x-${made.id}` }],
      ["logo set", "POST", `${app(made.id)}/logo`, { logo: dataUrl("image/png", pngBytes(99)) }],
      ["logo removed", "DELETE", `${app(made.id)}/logo`, undefined],
      ["appeal", "POST", `${app(made.id)}/appeal`, {}],
    ]
    for (const [what, method, path, body] of attempts) {
      const res = await s.call(method, path, body === undefined ? { key } : { key, body })
      expect(res.status, `${reason}: ${what}`).toBe(409)
      expect(res.body, `${reason}: ${what}`).toMatchObject({ error: "not_appealable", status: "rejected" })
    }
    // Nothing changed: the record, the feed, and no codes.
    expect((await s.call("GET", app(made.id), { key })).body).toEqual(before)
    expect(await feedOf(s, key, made.id)).toEqual(events)
    expect((await start(s, key, made.id)).status).toBe(403)
    // Unchanged values and an external_id alone are no move, and taken.
    const edit = await s.call("POST", app(made.id), { key, body: { name: before.name, external_id: `e-${made.id}` } })
    expect(edit.status).toBe(200)
    expect(edit.body).toMatchObject({ status: "rejected", external_id: `e-${made.id}` })
  }
}

const scenarios = (server: () => TestServer) => {
  it(
    'DECISIONS 18: "One that came to pending from rejected (a change, a logo or an appeal) answers 403 account_not_active until the console approves it again"',
    fromRejectedWaits(server),
    60_000,
  )
  it(
    'DECISIONS 18: "On a rejection with appealable: false, brand changes and a logo set or removed answer 409 not_appealable, as an appeal does, and change nothing"',
    finalRejectionHolds(server),
    60_000,
  )
}

describe("on the memory store", () => {
  let s: TestServer
  beforeAll(async () => {
    s = await startServer()
  })
  afterAll(() => s?.close())
  scenarios(() => s)
})

describe("on PGlite", () => {
  let s: TestServer
  beforeAll(async () => {
    s = await startServer({ store: "sql", pgliteDir: "memory://" })
  }, 60_000)
  afterAll(() => s?.close())
  scenarios(() => s)
})

const databaseUrl = process.env.DATABASE_URL
describe.runIf(databaseUrl !== undefined)("on PostgreSQL (DATABASE_URL)", () => {
  let s: TestServer
  const schema = `rejection_${Date.now()}_${Math.floor(Math.random() * 1e6)}`
  beforeAll(async () => {
    await createSchema(databaseUrl!, schema)
    s = await startServer({ store: "sql", databaseUrl: Option.some(withSearchPath(databaseUrl!, schema)) })
  }, 60_000)
  afterAll(async () => {
    await s?.close()
    await dropSchema(databaseUrl!, schema)
  })
  scenarios(() => s)
})
