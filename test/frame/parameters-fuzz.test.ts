/**
 * Every declared operation's path and query parameters, given hostile values (not ids, huge, unicode, `%00`,
 * `..`, invalid UTF-8, numbers out of range) with a credential of the operation's caller kind, on every store:
 * no answer is a 5xx (nor a 401 or a 429: the credential is good and under its rate limit, so the values reach the
 * operation). A malformed id in the path can name nothing (`404`), a malformed query value is the
 * caller's `400`, whatever the store. A fixed seed: the same requests every run.
 */
import { Schema } from "effect"
import fc from "fast-check"
import { beforeAll, expect, it } from "vitest"
import { operationsOf, scopeTableOf } from "../../adapters/products.ts"
import type { AnyOperation } from "../../core/pipeline/operation.ts"
import { onEveryStore, setupApplication, type TestServer } from "../support/server.ts"

const seed = 20_261_127

/** Path segments as sent (already percent-encoded where they need to be). */
const hostileSegments: ReadonlyArray<string> = [
  "not-a-uuid",
  "00000000-0000-0000-0000-000000000000",
  "6F9619FF-8B86-D011-B42D-00C04FC964FF",
  "6f9619ff-8b86-d011-b42d-00c04fc964ff-",
  "%00",
  "a%00b",
  "..",
  "%2e%2e",
  "%2F",
  "%",
  "%FF",
  "%C0%AF",
  "%E2%80%AE",
  encodeURIComponent("مرحبا"),
  encodeURIComponent("😀".repeat(50)),
  "x".repeat(4_000),
  "-1",
  "1e309",
  "null",
  "%27%3B%20DROP%20TABLE%20accounts%3B--",
  "%20",
]

/** Query values (raw, encoded when sent). */
const hostileValues: ReadonlyArray<string> = [
  "",
  "not-a-uuid",
  "\u0000",
  "..",
  "-1",
  "0",
  "1.5",
  "1e309",
  "99999999999999999999999",
  "NaN",
  "مرحبا",
  "\uD800",
  "x".repeat(4_000),
  "2026-13-45",
  "'; DROP TABLE accounts;--",
]

const random = (n: number, offset: number): ReadonlyArray<string> =>
  fc.sample(fc.oneof(fc.string({ maxLength: 40 }), fc.fullUnicodeString({ maxLength: 20 })), {
    seed: seed + offset,
    numRuns: n,
  })

const segments = [...hostileSegments, ...random(8, 1).map(encodeURIComponent)]
const values = [...hostileValues, ...random(6, 2)]

const encodeQuery = (value: string) => {
  try {
    return encodeURIComponent(value)
  } catch {
    // A lone surrogate cannot be encoded as UTF-8: sent as the bytes a client might send anyway.
    return "%ED%A0%80"
  }
}

/** Bodies the operations take, so the id in the path is the only thing wrong (a store once saw it: a 500). */
const validBodies: Readonly<Record<string, unknown>> = {
  "console.approval_policy.set": { operations: [] },
  "console.applications.create": { name: "Shop" },
  "console.wallet.credit": { amount_halalas: 100 },
  "console.keys.create": { mode: "test" },
  "console.sandbox_destinations.add": { to: "+966500000002" },
  "console.applications.reject": { reason_code: "brand_mismatch" },
}

interface Credentials {
  readonly key: string
  /** A connected app's key holding every connected-app scope (an application's own key holds none of them). */
  readonly connectedApp: string
  readonly partner: string
  readonly token: string
  readonly console: string
  readonly ids: Readonly<Record<string, string>>
}

const connectedAppScopes: ReadonlyArray<string> = scopeTableOf().connectedApp

const credentialOf = (op: AnyOperation, c: Credentials): string | undefined => {
  switch (op.caller._tag) {
    case "Key":
      return connectedAppScopes.includes(op.caller.guard.scope) ? c.connectedApp : c.key
    case "Partner":
      return c.partner
    case "Account":
      return c.token
    case "Console":
      return c.console
    default:
      return undefined
  }
}

const fill = (path: string, values: Readonly<Record<string, string>>) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? "6f9619ff-8b86-4011-b42d-00c04fc964ff")

onEveryStore((server) => {
  let c: Credentials
  const operations = operationsOf()

  beforeAll(async () => {
    const s: TestServer = server()
    const merchant = await setupApplication(s)
    const partner = await s.console("POST", "/accounts", { name: "Partner", partner: true })
    const partnerKey = await s.console("POST", `/accounts/${partner.id}/keys`, { mode: "partner" })
    const token = await s.console("POST", `/accounts/${merchant.account.id}/account-tokens`, { role: "owner" })
    const connectedApp = await s.console("POST", `/applications/${merchant.app.id}/connected-app-keys`, {
      app_name: "Fuzz app",
      scopes: connectedAppScopes,
    })
    c = {
      key: merchant.key,
      connectedApp: connectedApp.key,
      partner: partnerKey.key,
      token: token.token,
      console: s.consoleToken,
      ids: { account: merchant.account.id, application: merchant.app.id },
    }
  }, 30_000)

  let sent = 0
  const send = async (op: AnyOperation, path: string, body: unknown = {}) => {
    const s = server()
    const key = credentialOf(op, c)
    // Under the rate limit (120 a minute per credential): the simulated clock moves a window on every 100.
    if (++sent % 100 === 0) await s.console("POST", "/simulator/clock", { advance_ms: 60_001 })
    const res = await s.call(op.method, path, {
      ...(key === undefined ? {} : { key }),
      ...(op.body === undefined ? {} : { body }),
    })
    return { status: res.status, body: res.body }
  }

  it("a hostile path parameter is never a 5xx", { timeout: 240_000 }, async () => {
    const faults: Array<string> = []
    for (const op of operations) {
      const names = op.parameters.filter((p) => p.in === "path").map((p) => p.name)
      for (const name of names) {
        for (const segment of segments) {
          const path = fill(op.path, { ...c.ids, [name]: segment })
          const res = await send(op, path)
          if (res.status >= 500 || res.status === 401 || res.status === 429) {
            faults.push(`${op.name} ${path.slice(0, 120)} → ${res.status} ${JSON.stringify(res.body)}`)
          }
        }
      }
    }
    expect(faults).toEqual([])
  })

  it("a hostile query value is never a 5xx", { timeout: 240_000 }, async () => {
    const faults: Array<string> = []
    for (const op of operations) {
      const names = [...op.parameters.filter((p) => p.in === "query").map((p) => p.name), "unknown_parameter"]
      for (const name of names) {
        for (const value of values) {
          const path = `${fill(op.path, c.ids)}?${name}=${encodeQuery(value)}`
          const res = await send(op, path)
          if (res.status >= 500 || res.status === 401 || res.status === 429) {
            faults.push(`${op.name} ${path.slice(0, 120)} → ${res.status} ${JSON.stringify(res.body)}`)
          }
        }
      }
    }
    expect(faults).toEqual([])
  })

  it("an id in the path that cannot be one names nothing: 404", async () => {
    // Every operation whose path parameter is declared a UUID.
    for (const op of operations) {
      for (const p of op.parameters.filter((p) => p.in === "path" && p.schema === Schema.UUID)) {
        const res = await send(op, fill(op.path, { ...c.ids, [p.name]: "not-a-uuid" }), validBodies[op.name])
        expect(res.status, op.name).toBe(404)
      }
    }
  })
})
