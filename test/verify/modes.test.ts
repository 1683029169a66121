/**
 * Key modes partition what a key sees (DECISIONS 18), over HTTP on the memory store, PGlite and PostgreSQL (when
 * DATABASE_URL is set): a verification made with a live or partner key is live, one made with a test or partner
 * test key a sandbox one; a key of the other kind reading, checking, resending or cancelling it answers
 * `404 not_found`, as an unknown id, and nothing is sent, charged or changed.
 */
import { describe, expect, it } from "vitest"
import { latestCode, onEveryStore, setupApplication, type TestServer } from "../support/server.ts"
import { balance, texts } from "./http-harness.ts"

let seq = 0
/** A number no other test of the file sends to. */
const fresh = () => `+9665540${String(++seq).padStart(5, "0")}`

/** A key and what it names the application with (`application` in the body, `?application=` on GET). */
interface Caller {
  readonly key: string
  readonly application?: string
}

const body = (c: Caller, rest: Record<string, unknown> = {}) =>
  c.application === undefined ? rest : { ...rest, application: c.application }
const query = (c: Caller) => (c.application === undefined ? "" : `?application=${c.application}`)

const get = (s: TestServer, c: Caller, id: string) => s.call("GET", `/v1/verify/${id}${query(c)}`, { key: c.key })

/** One verification of `owner`'s kind, and `other` (the other kind, same application) at it. */
interface Scene {
  readonly accountId: string
  readonly owner: Caller
  readonly other: Caller
  /** The owner's mode, as its verifications carry it. */
  readonly mode: string
  /** The destination `owner` starts to: on the proven list when `owner` is a sandbox key, off it otherwise. */
  readonly to: string
}

/**
 * The other kind's key reads, checks (with the right code), resends and cancels: each `404 not_found`, exactly as
 * an unknown id answers; then nothing was sent (the simulator's log to the number), charged (the wallet) or
 * changed (the owner reads the same record, and its code still verifies).
 */
const otherKindSeesNothing = (server: () => TestServer, scene: () => Promise<Scene>) => async () => {
  const s = server()
  const { accountId, mode, other, owner, to } = await scene()
  const started = await s.call("POST", "/v1/verify/start", { key: owner.key, body: body(owner, { to }) })
  expect(started.status, JSON.stringify(started.body)).toBe(200)
  expect(started.body).toMatchObject({ mode, status: "pending", attempts: 0 })
  const id: string = started.body.id
  const code = await latestCode(s, to)
  const sentBefore = (await texts(s, to)).length
  const balanceBefore = await balance(s, accountId)

  const unknown = "00000000-0000-4000-8000-000000000000"
  const attempts = (target: string) => [
    () => get(s, other, target),
    () => s.call("POST", "/v1/verify/check", { key: other.key, body: body(other, { id: target, code }) }),
    () => s.call("POST", `/v1/verify/${target}/resend`, { key: other.key, body: body(other) }),
    () => s.call("POST", `/v1/verify/${target}/cancel`, { key: other.key, body: body(other) }),
  ]
  const asUnknown = []
  for (const attempt of attempts(unknown)) asUnknown.push(await attempt())
  for (const [i, attempt] of attempts(id).entries()) {
    const res = await attempt()
    expect(res.status, `${["read", "check", "resend", "cancel"][i]}: ${JSON.stringify(res.body)}`).toBe(404)
    expect(res.body).toEqual({ error: "not_found" })
    expect(res.body).toEqual(asUnknown[i].body)
  }

  expect((await texts(s, to)).length).toBe(sentBefore)
  expect(await balance(s, accountId)).toBe(balanceBefore)
  const after = await get(s, owner, id)
  expect(after.status).toBe(200)
  expect(after.body).toEqual(started.body)
  const checked = await s.call("POST", "/v1/verify/check", { key: owner.key, body: body(owner, { id, code }) })
  expect(checked.body).toMatchObject({ id, status: "verified", attempts: 1 })
}

/** An application with a live key and a test key; `to` proven when the test key starts. */
const applicationKeys = (server: () => TestServer, owner: "live" | "test") => async (): Promise<Scene> => {
  const s = server()
  const { account, app, key } = await setupApplication(s, { mode: "live" })
  const test = (await s.console("POST", `/applications/${app.id}/keys`, { mode: "test" })).key as string
  const to = fresh()
  if (owner === "test") await s.console("POST", `/accounts/${account.id}/sandbox-destinations`, { to })
  return {
    accountId: account.id,
    owner: { key: owner === "live" ? key : test },
    other: { key: owner === "live" ? test : key },
    mode: owner,
    to,
  }
}

/** A partner account with a client application, a partner key and a partner test key. */
const partnerKeys = (server: () => TestServer, owner: "partner" | "partner_test") => async (): Promise<Scene> => {
  const s = server()
  const account = await s.console("POST", "/accounts", { name: "Platform", partner: true })
  const app = await s.console("POST", `/accounts/${account.id}/applications`, { name: "Merchant", approved: true })
  await s.console("POST", `/accounts/${account.id}/wallet/credit`, { amount_halalas: 1_000 })
  const live = (await s.console("POST", `/accounts/${account.id}/keys`, { mode: "partner" })).key as string
  const test = (await s.console("POST", `/accounts/${account.id}/keys`, { mode: "partner_test" })).key as string
  const to = fresh()
  if (owner === "partner_test") await s.console("POST", `/accounts/${account.id}/sandbox-destinations`, { to })
  return {
    accountId: account.id,
    owner: { key: owner === "partner" ? live : test, application: app.id },
    other: { key: owner === "partner" ? test : live, application: app.id },
    mode: owner,
    to,
  }
}

const rules = (server: () => TestServer) =>
  describe("DECISIONS 18: key modes partition what a key sees; the other kind answers `404 not_found`, as an unknown id; nothing is sent, charged or changed", () => {
    it(
      "a live verification under the same application's test key: read, check, resend, cancel",
      otherKindSeesNothing(server, applicationKeys(server, "live")),
      30_000,
    )
    it(
      "a sandbox verification under the same application's live key: read, check, resend, cancel",
      otherKindSeesNothing(server, applicationKeys(server, "test")),
      30_000,
    )
    it(
      "a partner key's (live) verification under the same partner's partner test key",
      otherKindSeesNothing(server, partnerKeys(server, "partner")),
      30_000,
    )
    it(
      "a partner test key's (sandbox) verification under the same partner's partner key",
      otherKindSeesNothing(server, partnerKeys(server, "partner_test")),
      30_000,
    )
  })

onEveryStore((server) => rules(server))
