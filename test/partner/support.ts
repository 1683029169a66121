/** Partner accounts for the Partner API's feed, log and services tests: made through the console. */
import { latestCode, type TestServer } from "../support/server.ts"

export interface PartnerSetup {
  readonly account: { readonly id: string }
  readonly key: string
  readonly testKey: string
}

/** A partner account with a partner key, a partner-test key and a funded wallet. */
export const partnerAccount = async (s: TestServer, balance = 100_000): Promise<PartnerSetup> => {
  const account = await s.console("POST", "/accounts", { name: "Platform", partner: true })
  if (balance > 0) await s.console("POST", `/accounts/${account.id}/wallet/credit`, { amount_halalas: balance })
  const key = await s.console("POST", `/accounts/${account.id}/keys`, { mode: "partner" })
  const testKey = await s.console("POST", `/accounts/${account.id}/keys`, { mode: "partner_test" })
  return { account, key: key.key, testKey: testKey.key }
}

/** A client application of the partner (pending unless `approved`). */
export const clientApplication = (
  s: TestServer,
  p: PartnerSetup,
  over: { name?: string; approved?: boolean; external_id?: string } = {},
) =>
  s.console("POST", `/accounts/${p.account.id}/applications`, {
    name: over.name ?? "Merchant",
    approved: over.approved ?? false,
    ...(over.external_id === undefined ? {} : { external_id: over.external_id }),
  })

export const feed = (s: TestServer, key: string, query = "") =>
  s.call("GET", `/v1/partner/events${query === "" ? "" : `?${query}`}`, { key })

/** Reads the whole feed from `cursor` (none: the start) page by page; answers the entries and the last cursor. */
export const readAll = async (s: TestServer, key: string, cursor?: string, limit = 100) => {
  const entries: Array<any> = []
  let next = cursor
  for (;;) {
    const q = new URLSearchParams({ limit: String(limit) })
    if (next !== undefined) q.set("cursor", next)
    const res = await feed(s, key, q.toString())
    if (res.status !== 200) throw new Error(`feed ${res.status} ${JSON.stringify(res.body)}`)
    entries.push(...res.body.data)
    next = res.body.next_cursor
    if (res.body.data.length < limit) return { entries, cursor: next! }
  }
}

/** Starts a code for the client application with the partner key and checks it right: `verification.verified`. */
export const verifyOnce = async (s: TestServer, key: string, application: string, to = "+966512345678", extra = {}) => {
  const start = await s.call("POST", "/v1/verify/start", { key, body: { to, application, ...extra } })
  if (start.status !== 200) throw new Error(`start ${start.status} ${JSON.stringify(start.body)}`)
  const code = await latestCode(s, to)
  const check = await s.call("POST", "/v1/verify/check", { key, body: { id: start.body.id, code, application } })
  if (check.status !== 200) throw new Error(`check ${check.status} ${JSON.stringify(check.body)}`)
  return check.body
}

export const advance = (s: TestServer, ms: number) =>
  s.call("POST", "/console/v1/simulator/clock", { key: s.consoleToken, body: { advance_ms: ms } })
