/**
 * Every route of DECISIONS 2's two tables, with what a first call answers: shared by the console suite
 * (in process) and the host smoke set (each host as a process), so both walk the same routes.
 */
import { expect } from "vitest"
import type { ConsoleCall } from "../support/net.ts"

/** Fresh ids for one route check: an account, its pending application, a partner account, a key to revoke. */
export const fixture = async (consoleCall: ConsoleCall) => {
  const account = await consoleCall("POST", "/accounts", { name: "Merchant" })
  const application = await consoleCall("POST", `/accounts/${account.id}/applications`, { name: "Shop" })
  const partner = await consoleCall("POST", "/accounts", { name: "Partner", partner: true })
  const key = await consoleCall("POST", `/applications/${application.id}/keys`, { mode: "live" })
  return {
    account: account.id as string,
    application: application.id as string,
    partner: partner.id as string,
    key: key.id as string,
  }
}
export type Ids = Awaited<ReturnType<typeof fixture>>

export interface ConsoleRoute {
  readonly method: string
  readonly path: (ids: Ids) => string
  /** The path with every id replaced by an unknown one (absent when the route has no id). */
  readonly unknown?: Array<(ids: Ids) => string>
  readonly body: (ids: Ids) => unknown
  readonly status: 200 | 201
  readonly data: (data: any, ids: Ids) => void
}

export const missing = crypto.randomUUID()
const keyShape = (data: any) =>
  expect(data).toEqual({
    id: expect.any(String),
    key: expect.any(String),
    mode: expect.any(String),
    access: expect.anything(),
    expires_at: null,
    ip_allowlist: [],
    ...(data.app_name === undefined ? {} : { app_name: expect.any(String) }),
  })

export const hookUrl = "http://127.0.0.1:9/hook"

/** Every route of DECISIONS 2's two tables. */
export const routes: Record<string, ConsoleRoute> = {
  "POST /accounts": {
    method: "POST",
    path: () => "/accounts",
    body: () => ({ name: "Acme", sandbox_only: true }),
    status: 201,
    data: (d) => expect(d).toEqual({ id: expect.any(String), name: "Acme", sandbox_only: true, partner: false }),
  },
  "POST /accounts/{account}/applications": {
    method: "POST",
    path: (i) => `/accounts/${i.account}/applications`,
    unknown: [() => `/accounts/${missing}/applications`, () => "/accounts/not-a-uuid/applications"],
    body: () => ({ name: "Shop" }),
    status: 201,
    data: (d, i) =>
      expect(d).toMatchObject({
        id: expect.any(String),
        account_id: i.account,
        name: "Shop",
        status: "pending",
        external_id: null,
      }),
  },
  "POST /applications/{application}/approve": {
    method: "POST",
    path: (i) => `/applications/${i.application}/approve`,
    unknown: [() => `/applications/${missing}/approve`, () => "/applications/x/approve"],
    body: () => ({}),
    status: 200,
    data: (d, i) => expect(d).toMatchObject({ id: i.application, status: "active" }),
  },
  "POST /applications/{application}/keys": {
    method: "POST",
    path: (i) => `/applications/${i.application}/keys`,
    unknown: [() => `/applications/${missing}/keys`],
    body: () => ({ mode: "test" }),
    status: 201,
    data: (d) => {
      keyShape(d)
      expect(d).toMatchObject({ mode: "test", access: "full" })
      expect(d.key.startsWith("svc_test_")).toBe(true)
    },
  },
  "POST /accounts/{account}/keys": {
    method: "POST",
    path: (i) => `/accounts/${i.partner}/keys`,
    unknown: [() => `/accounts/${missing}/keys`],
    body: () => ({ mode: "partner_test" }),
    status: 201,
    data: (d) => {
      keyShape(d)
      expect(d).toMatchObject({ mode: "partner_test", access: "full" })
      expect(d.key.startsWith("svc_partner_test_")).toBe(true)
    },
  },
  "POST /applications/{application}/connected-app-keys": {
    method: "POST",
    path: (i) => `/applications/${i.application}/connected-app-keys`,
    unknown: [() => `/applications/${missing}/connected-app-keys`],
    body: () => ({ app_name: "Menus", scopes: ["chat:menus", "chat:attendant", "notifications:templates"] }),
    status: 201,
    data: (d) => {
      keyShape(d)
      expect(d).toMatchObject({ mode: "live", access: ["chat:menus", "chat:attendant", "notifications:templates"] })
      expect(d.key.startsWith("svc_live_")).toBe(true)
    },
  },
  "POST /accounts/{account}/account-tokens": {
    method: "POST",
    path: (i) => `/accounts/${i.account}/account-tokens`,
    unknown: [() => `/accounts/${missing}/account-tokens`],
    body: () => ({}),
    status: 201,
    data: (d) => {
      // DECISIONS 14: the token's person, an owner who manages contacts unless told otherwise.
      expect(d).toEqual({
        id: expect.any(String),
        token: expect.stringMatching(/^svc_acct_.{16,}$/),
        member_id: expect.any(String),
        role: "owner",
        email: null,
        manage_contacts: true,
      })
    },
  },
  "DELETE /keys/{key_id}": {
    method: "DELETE",
    path: (i) => `/keys/${i.key}`,
    unknown: [() => `/keys/${missing}`, () => "/keys/nope"],
    body: () => ({}),
    status: 200,
    data: (d, i) => expect(d).toEqual({ id: i.key, revoked: true }),
  },
  "PUT /applications/{application}/verify-settings": {
    method: "PUT",
    path: (i) => `/applications/${i.application}/verify-settings`,
    unknown: [() => `/applications/${missing}/verify-settings`],
    body: () => ({ code_length: 4, daily_spend_cap_halalas: 900 }),
    status: 200,
    data: (d) =>
      expect(d).toMatchObject({
        code_length: 4,
        code_lifetime_minutes: 10,
        max_attempts: 3,
        hourly_cap_per_destination: 5,
        max_per_ip_per_hour: 20,
        daily_spend_cap_halalas: 900,
        guard: expect.any(Object),
      }),
  },
  "POST /accounts/{account}/sandbox-destinations": {
    method: "POST",
    path: (i) => `/accounts/${i.account}/sandbox-destinations`,
    unknown: [() => `/accounts/${missing}/sandbox-destinations`],
    body: () => ({ to: "055-123 4567" }),
    status: 201,
    data: (d) => expect(d).toEqual({ to: "+966551234567" }),
  },
  "PUT /applications/{application}/webhook": {
    method: "PUT",
    path: (i) => `/applications/${i.application}/webhook`,
    unknown: [() => `/applications/${missing}/webhook`],
    body: () => ({ url: hookUrl }),
    status: 200,
    data: (d) => expect(d).toMatchObject({ url: hookUrl, secret: expect.stringMatching(/^whsec_/) }),
  },
  "PUT /accounts/{account}/webhook": {
    method: "PUT",
    path: (i) => `/accounts/${i.partner}/webhook`,
    unknown: [() => `/accounts/${missing}/webhook`],
    body: () => ({ url: hookUrl, events: ["verification.verified"] }),
    status: 200,
    data: (d) =>
      expect(d).toMatchObject({
        url: hookUrl,
        secret: expect.stringMatching(/^whsec_/),
        events: ["verification.verified"],
      }),
  },
  "POST /applications/{application}/webhook/test": {
    method: "POST",
    path: (i) => `/applications/${i.application}/webhook/test`,
    unknown: [() => `/applications/${missing}/webhook/test`],
    body: () => ({}),
    status: 200,
    data: () => {},
  },
  "POST /accounts/{account}/webhook/test": {
    method: "POST",
    path: (i) => `/accounts/${i.partner}/webhook/test`,
    unknown: [() => `/accounts/${missing}/webhook/test`],
    body: () => ({}),
    status: 200,
    data: () => {},
  },
  "POST /accounts/{account}/wallet/credit": {
    method: "POST",
    path: (i) => `/accounts/${i.account}/wallet/credit`,
    unknown: [() => `/accounts/${missing}/wallet/credit`],
    body: () => ({ amount_halalas: 1_234 }),
    status: 200,
    data: (d) => expect(d).toMatchObject({ balance_halalas: 1_234 }),
  },
  "GET /simulator/sms": {
    method: "GET",
    path: () => `/simulator/sms?to=${encodeURIComponent("0551234567")}`,
    body: () => undefined,
    status: 200,
    data: (d) => expect(Array.isArray(d)).toBe(true),
  },
  "POST /simulator/clock": {
    method: "POST",
    path: () => "/simulator/clock",
    body: () => ({ advance_ms: 0 }),
    status: 200,
    data: (d) => expect(d).toMatchObject({ now: expect.any(String) }),
  },
}

/** The webhook routes need an endpoint before a rehearsal can be sent. */
export const prepare = async (consoleCall: ConsoleCall, name: string, ids: Ids) => {
  if (name === "POST /applications/{application}/webhook/test") {
    await consoleCall("PUT", `/applications/${ids.application}/webhook`, { url: hookUrl })
  }
  if (name === "POST /accounts/{account}/webhook/test") {
    await consoleCall("PUT", `/accounts/${ids.partner}/webhook`, { url: hookUrl })
  }
}
