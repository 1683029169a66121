/** Helpers for Email over HTTP on the in-process test server (the simulated provider, DNS and clock). */
import { setupApplication, type TestServer } from "../support/server.ts"

let made = 0
/** A name no other test of the suite's server uses. */
export const unique = (prefix: string) => `${prefix}${++made}-${Math.floor(Math.random() * 1e6)}`

/** An account token of the account (an owner's, unless told). */
export const accountToken = async (s: TestServer, accountId: string, role = "owner"): Promise<string> =>
  (await s.console("POST", `/accounts/${accountId}/account-tokens`, { role, email: `${role}@shop.sa` })).token

/** The account API: answers status and body. */
export const api = (s: TestServer, token: string, method: string, path: string, body?: unknown) =>
  s.call(method, `/v1${path}`, { key: token, body: body ?? (method === "GET" ? undefined : {}) })

export const advance = (s: TestServer, ms: number) => s.console("POST", "/simulator/clock", { advance_ms: ms })

/** Publishes a sender domain's three records in the simulated DNS, as its owner would. */
export const publish = async (
  s: TestServer,
  records: ReadonlyArray<{ type: string; name: string; value: string }>,
) => {
  for (const r of records) {
    await s.console("PUT", "/simulator/dns/records", { type: r.type, name: r.name, values: [r.value] })
  }
}

/** Adds a sender domain and publishes its records before the add, so the check at add verifies it. */
export const verifiedDomain = async (s: TestServer, token: string, applicationId: string, domain: string) => {
  const pending = await api(s, token, "POST", `/applications/${applicationId}/email/senders`, { domain })
  if (pending.status !== 201) throw new Error(`add ${domain}: ${pending.status} ${JSON.stringify(pending.body)}`)
  await publish(s, pending.body.data.records)
  await advance(s, 10 * 60_000)
  return pending.body.data.id as string
}

export interface EmailSetup {
  readonly access?: "none" | "pending" | "granted" | "denied"
  /** A domain verified at setup (default `shop.sa`; null: none). */
  readonly domain?: string | null
  readonly mode?: "live" | "test"
  readonly approved?: boolean
}

/**
 * An approved application with a key (live unless told), an owner's token, access granted and a domain of its own
 * (`shopN-….sa`) verified;
 * or with the access and domain asked for (`access: "none"` only with `domain: null`).
 */
export const setupEmail = async (s: TestServer, opts: EmailSetup = {}) => {
  const app = await setupApplication(s, { mode: opts.mode, approved: opts.approved })
  const token = await accountToken(s, app.account.id)
  const access = opts.access ?? "granted"
  const domain = opts.domain === undefined ? `${unique("shop")}.sa` : opts.domain
  const decide = (status: string) => s.console("PUT", `/accounts/${app.account.id}/email-access`, { status })
  if (domain !== null || access === "granted") {
    await api(s, token, "POST", "/account/email/access")
    await decide("granted")
  }
  if (domain !== null) await verifiedDomain(s, token, app.app.id, domain)
  if (access === "denied" || access === "pending") await decide("denied")
  if (access === "pending") await api(s, token, "POST", "/account/email/access")
  const to = `${unique("customer")}@example.net`
  /** A message the application may send (from its verified domain), to a recipient of this setup alone. */
  const mail = { from: `receipts@${domain ?? "shop.sa"}`, to, subject: "Your receipt", text: "Thank you." }
  return { ...app, token, domain, to, mail }
}

export const send = (s: TestServer, key: string, body: unknown) => s.call("POST", "/v1/email/messages", { key, body })

export const sendRaw = (s: TestServer, key: string, rawBody: string) =>
  s.call("POST", "/v1/email/messages", { key, rawBody })

export const report = (s: TestServer, id: string, status: string) =>
  s.call("POST", `/console/v1/simulator/email/messages/${id}/report`, { key: s.consoleToken, body: { status } })

/** What the simulated provider took, newest first. */
export const inbox = async (s: TestServer, to?: string): Promise<ReadonlyArray<any>> => {
  const query = to === undefined ? "" : `?to=${encodeURIComponent(to)}`
  const res = await s.call("GET", `/console/v1/simulator/email${query}`, { key: s.consoleToken })
  if (res.status !== 200) throw new Error(`inbox: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.data
}
