/**
 * The edges of a request body (DECISIONS 18) and the account API's order of checks around it (DECISIONS 10,
 * 16), over HTTP on the two ways in every host builds on: the Node host (a node:http socket) and the web
 * handler (`platform.fetch`, what Deno, Bun and a mounting app serve). One `describe` per rule.
 */
import { Option } from "effect"
import { describe, expect, it } from "vitest"
import { Http } from "../../core/limits.ts"
import { createSchema, dropSchema, withSearchPath } from "../support/pg.ts"
import { setupApplication, startServer, type TestServer, useServer } from "../support/server.ts"

interface Answer {
  readonly status: number
  readonly text: string
  readonly body: any
}

type Send = (
  method: string,
  path: string,
  opts?: { key?: string; body?: unknown; rawBody?: string },
) => Promise<Answer>

const over = (go: (path: string, init: RequestInit) => Promise<Response>): Send => async (method, path, opts = {}) => {
  const headers: Record<string, string> = {}
  if (opts.key !== undefined) headers.authorization = `Bearer ${opts.key}`
  const body = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body))
  if (body !== undefined) headers["content-type"] = "application/json"
  const res = await go(path, { method, headers, body })
  const text = await res.text()
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch { /* not JSON */ }
  return { status: res.status, text, body: parsed }
}

/** The two ways in, each sending to the same platform instance. */
const waysIn = (s: TestServer): ReadonlyArray<readonly [string, Send]> => [
  ["Node host", over((path, init) => fetch(s.baseUrl + path, init))],
  ["web handler", over((path, init) => s.platform.fetch(new Request(`http://shop.example${path}`, init)))],
]

/** A body whose `reference` holds arrays nested so that the whole body is `depth` levels deep. */
const nestedBody = (depth: number) => `{"to":"0551234567","reference":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`

/** An account with a funded application, its live key, an owner's token, and a partner key. */
const setup = async (s: TestServer) => {
  const { account, app, key } = await setupApplication(s)
  const token = (await s.console("POST", `/accounts/${account.id}/account-tokens`)).token as string
  const partner = await s.console("POST", "/accounts", { name: "Partner", partner: true })
  await s.console("POST", `/accounts/${partner.id}/wallet/credit`, { amount_halalas: 10_000 })
  const partnerKey = (await s.console("POST", `/accounts/${partner.id}/keys`, { mode: "partner" })).key as string
  return { account, app, key, token, partnerKey }
}

/** The longest run of one character in a text. */
const longestRun = (text: string, c: string): number => {
  let best = 0
  let run = 0
  for (const ch of text) {
    run = ch === c ? run + 1 : 0
    if (run > best) best = run
  }
  return best
}

describe('DECISIONS 18: "JSON nested deeper than 64 levels: `400 invalid_json`, answered before any work on it"', () => {
  const s = useServer()

  for (const [way, send] of [["Node host", 0], ["web handler", 1]] as const) {
    describe(way, () => {
      const routes = async () => {
        const ids = await setup(s)
        const call = waysIn(s)[send][1]
        return {
          call,
          ids,
          /** Each route, and a body holding a nested value in a field its decoder reads. */
          routes: [
            ["/v1/verify/start", ids.key, (v: string) => `{"to":"0551234567","reference":${v}}`],
            ["/v1/partner/applications", ids.partnerKey, (v: string) => `{"name":${v},"external_id":"e-1"}`],
            ["/v1/account/wallet/topups", ids.token, (v: string) => `{"amount_halalas":${v}}`],
            [`/v1/applications/${ids.app.id}/unpause`, ids.token, (v: string) => `{"x":${v}}`],
            ["/v1/operations/wallet.topups.link", ids.token, (v: string) => `{"amount_halalas":${v}}`],
            ["/console/v1/accounts", s.consoleToken, (v: string) => `{"name":${v}}`],
          ] as const,
        }
      }

      /** Every route's answer to `nested` in its body field is `400 invalid_json`; answers the answers. */
      const refusedEverywhere = async (nested: string) => {
        const { call, routes: all } = await routes()
        const answers = []
        for (const [path, key, body] of all) {
          const res = await call("POST", path, { key, rawBody: body(nested) })
          expect({ path, status: res.status, error: res.body.error }).toEqual({
            path,
            status: 400,
            error: "invalid_json",
          })
          answers.push(res)
        }
        return answers
      }

      it("65 levels is 400 invalid_json on every route that reads a body: Verify, Partner API, account API (by route and by name), console", async () => {
        // The body field's value adds the 65th level.
        await refusedEverywhere(`${"[".repeat(64)}${"]".repeat(64)}`)
      })

      it("64 levels is JSON like any other: the route's own checks answer (here `reference` is not a string)", async () => {
        const { call, ids } = await routes()
        const res = await call("POST", "/v1/verify/start", { key: ids.key, rawBody: nestedBody(64) })
        expect(res.status).toBe(400)
        expect(res.body.error).toBe("invalid_request")
      })

      it("brackets inside strings are not nesting: a string of 4,000 `[` is an ordinary value", async () => {
        const { call, ids } = await routes()
        const res = await call("POST", "/v1/verify/start", {
          key: ids.key,
          body: { to: "0551234567", reference: "[".repeat(4_000) },
        })
        expect(res.body.error).not.toBe("invalid_json")
      })

      it("4,000 levels from an 8 KB body is 400 invalid_json, not a 500 (a stack overflow) on any route", async () => {
        await refusedEverywhere(`${"[".repeat(3_999)}${"]".repeat(3_999)}`)
      })

      it("900 KB of nesting is refused at once on every route: 400 invalid_json, a small answer, no parse", async () => {
        const half = 450_000
        // A parse of it took 0.15 to 1.4 s; the scan stops at the 65th bracket (no timing is asserted here:
        // the scan's early stop is held by the nesting scan's own tests).
        for (const res of await refusedEverywhere(`${"[".repeat(half)}${"]".repeat(half)}`)) {
          expect(res.text.length).toBeLessThan(200)
        }
      })
    })
  }
})

describe('DECISIONS 18: "A refusal never echoes more than 256 characters of the refused value"', () => {
  const s = useServer()
  const long = "x".repeat(100_000)
  const name = "x".repeat(8_000)

  /** The refusal is a 4xx that quotes at most 256 characters of the value, and is small. */
  const small = (res: Answer) => {
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
    expect(longestRun(res.text, "x")).toBeLessThanOrEqual(Http.maxEchoChars)
    expect(res.text.length).toBeLessThan(2_000)
  }

  for (const [way, send] of [["Node host", 0], ["web handler", 1]] as const) {
    describe(way, () => {
      it("a 100 KB value where another type is due (account API, Partner API, Verify): a small 4xx quoting at most 256 characters", async () => {
        const ids = await setup(s)
        const call = waysIn(s)[send][1]
        const account = await call("POST", "/v1/account/wallet/topups", {
          key: ids.token,
          body: { amount_halalas: long },
        })
        small(account)
        expect([account.body.error, account.body.errors]).toEqual(["invalid_request", { amount_halalas: "invalid" }])
        const partner = await call("POST", "/v1/partner/applications", {
          key: ids.partnerKey,
          body: { name: [long], external_id: "ext-1" },
        })
        small(partner)
        expect(partner.body.error).toBe("invalid_request")
        expect(partner.body.errors).toMatchObject({ name: "invalid" })
        small(await call("POST", "/v1/verify/start", { key: ids.key, body: { to: "0551234567", channel: long } }))
        small(await call("POST", "/v1/verify/start", { key: ids.key, body: { to: long } }))
      })

      it("a field named by 100 KB of text the operation does not take (account API, by route and by name): its name cut to 256", async () => {
        const ids = await setup(s)
        const call = waysIn(s)[send][1]
        for (
          const [path, body] of [
            [`/v1/applications/${ids.app.id}/unpause`, { [long]: 1 }],
            ["/v1/operations/applications.unpause", { application: ids.app.id, [long]: 1 }],
            ["/v1/operations/wallet.show", { [long]: 1 }],
          ] as const
        ) {
          const res = await call("POST", path, { key: ids.token, body })
          small(res)
          expect(res.body.error).toBe("invalid_request")
          expect(Object.values(res.body.errors)).toEqual(["unknown"])
        }
      })

      it("an 8 KB operation name (call by name): 404 unknown_operation quoting at most 256 characters of it", async () => {
        const ids = await setup(s)
        const res = await waysIn(s)[send][1]("POST", `/v1/operations/${name}`, { key: ids.token, body: {} })
        small(res)
        expect(res.body.error).toBe("unknown_operation")
      })

      it("an 8 KB query parameter name (Partner API) and 100 KB of unknown operation names (console): cut to 256", async () => {
        const ids = await setup(s)
        const call = waysIn(s)[send][1]
        const partner = await call("GET", `/v1/partner/services?${name}=1`, { key: ids.partnerKey })
        small(partner)
        expect(partner.body.error).toBe("invalid_request")
        const policy = await call("PUT", `/console/v1/accounts/${ids.account.id}/approval-policy`, {
          key: s.consoleToken,
          body: { operations: [long] },
        })
        small(policy)
        expect(policy.body.error).toBe("invalid_request")
      })

      it("a 100 KB field name holding NUL (refused as unstorable): its name cut to 256", async () => {
        const ids = await setup(s)
        const res = await waysIn(s)[send][1]("POST", "/v1/verify/start", {
          key: ids.key,
          body: { to: "0551234567", [`${long}\u0000`]: "a" },
        })
        small(res)
        expect(res.body.error).toBe("invalid_request")
      })
    })
  }
})

/** The stores the account API's order of checks runs on: memory, PGlite, and PostgreSQL when DATABASE_URL is set. */
const stores: Array<readonly [string, () => Promise<TestServer>]> = [
  ["memory", () => startServer()],
  ["PGlite", () => startServer({ store: "sql", pgliteDir: "memory://" })],
]
const databaseUrl = process.env.DATABASE_URL
if (databaseUrl !== undefined) {
  stores.push(["PostgreSQL", async () => {
    const schema = `edges_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`
    await createSchema(databaseUrl, schema)
    const server = await startServer({ store: "sql", databaseUrl: Option.some(withSearchPath(databaseUrl, schema)) })
    return {
      ...server,
      close: async () => {
        await server.close()
        await dropSchema(databaseUrl, schema)
      },
    }
  }])
}

describe("DECISIONS 10: \"Order: 429, 401, 403 insufficient_role, 404 not_found (unknown, or another account's), the operation's checks (400 first …)\" — the body is read after the 404", () => {
  for (const [store, open] of stores) {
    describe(store, () => {
      it(
        "unpause of an unknown or another account's application with a malformed, a 65-deep or an unknown-field body: 404 not_found, by route, on both ways in",
        async () => {
          const s = await open()
          try {
            const mine = await setup(s)
            const other = await setupApplication(s)
            for (const [, send] of waysIn(s)) {
              for (const id of [crypto.randomUUID(), other.app.id, "not-an-id"]) {
                for (const rawBody of ["{", nestedBody(65), '{"x":1}', "[]"]) {
                  const res = await send("POST", `/v1/applications/${id}/unpause`, { key: mine.token, rawBody })
                  expect({ id, rawBody, status: res.status, error: res.body.error }).toEqual({
                    id,
                    rawBody,
                    status: 404,
                    error: "not_found",
                  })
                }
              }
              // The account's own application: the body's checks answer, in their order.
              const own = await send("POST", `/v1/applications/${mine.app.id}/unpause`, {
                key: mine.token,
                rawBody: "{",
              })
              expect([own.status, own.body.error]).toEqual([400, "invalid_json"])
              const extra = await send("POST", `/v1/applications/${mine.app.id}/unpause`, {
                key: mine.token,
                body: { x: 1 },
              })
              expect([extra.status, extra.body.error, extra.body.errors]).toEqual([400, "invalid_request", {
                x: "unknown",
              }])
            }
          } finally {
            await s.close()
          }
        },
        60_000,
      )

      it(
        "by name: an unknown operation with a malformed body is 404 unknown_operation; an unknown or another account's id with a field the operation does not take is 404 not_found",
        async () => {
          const s = await open()
          try {
            const mine = await setup(s)
            const other = await setupApplication(s)
            for (const [, send] of waysIn(s)) {
              const unknown = await send("POST", "/v1/operations/applications.unpaws", {
                key: mine.token,
                rawBody: "{",
              })
              expect([unknown.status, unknown.body.error]).toEqual([404, "unknown_operation"])
              for (
                const [name, input] of [
                  ["applications.unpause", { application: other.app.id, x: 1 }],
                  ["applications.unpause", { application: crypto.randomUUID(), x: 1 }],
                  ["approvals.show", { id: crypto.randomUUID(), x: 1 }],
                  ["wallet.proformas.pdf", { id: crypto.randomUUID(), x: 1 }],
                ] as const
              ) {
                const res = await send("POST", `/v1/operations/${name}`, { key: mine.token, body: input })
                expect({ name, status: res.status, error: res.body.error }).toEqual({
                  name,
                  status: 404,
                  error: "not_found",
                })
              }
              // The path's id itself missing: 400, as no record can be looked up without it.
              const missing = await send("POST", "/v1/operations/approvals.show", { key: mine.token, body: { x: 1 } })
              expect([missing.status, missing.body.errors]).toEqual([400, { id: "required", x: "unknown" }])
            }
          } finally {
            await s.close()
          }
        },
        60_000,
      )
    })
  }
})

describe('DECISIONS 16: "a catalogue row\'s `input_schema` describes that flat object"', () => {
  const s = useServer()

  it("every row of GET /v1/operations has an object schema (no `anyOf [object, array]`); wallet.show's is the empty object", async () => {
    const { token } = await setup(s)
    for (const [, send] of waysIn(s)) {
      const rows: Array<{ name: string; input_schema: Record<string, unknown> }> = []
      let cursor: string | null = null
      do {
        const res: Answer = await send("GET", `/v1/operations?limit=100${cursor ? `&cursor=${cursor}` : ""}`, {
          key: token,
        })
        expect(res.status).toBe(200)
        rows.push(...res.body.data)
        cursor = res.body.next_cursor
      } while (cursor !== null)
      expect(rows.length).toBeGreaterThan(5)
      for (const row of rows) {
        const schema = row.input_schema
        expect({ name: row.name, type: schema.type, anyOf: schema.anyOf, additional: schema.additionalProperties })
          .toEqual({ name: row.name, type: "object", anyOf: undefined, additional: false })
        expect(typeof schema.properties).toBe("object")
      }
      expect(rows.find((r) => r.name === "wallet.show")?.input_schema).toEqual({
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        required: [],
        properties: {},
        additionalProperties: false,
      })
    }
  })
})
