/** Shared steps of the webhook tests, over the in-process test server. */
import type { TestServer } from "../support/server.ts"

/** Moves the simulated clock (0 runs whatever is due now, the first attempts included). */
export const advance = (s: TestServer, ms: number) => s.console("POST", "/simulator/clock", { advance_ms: ms })

export const deliveries = async (s: TestServer, owner: { application?: string; account?: string }, limit = 100) => {
  const q = owner.application !== undefined ? `application=${owner.application}` : `account=${owner.account}`
  const res = await s.call("GET", `/console/v1/webhook-deliveries?${q}&limit=${limit}`, { key: s.consoleToken })
  if (res.status !== 200) throw new Error(`delivery log -> ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.data as Array<any>
}

/** A started verification checked with `code` (or the right code when omitted). */
export const verifyFlow = async (s: TestServer, key: string, to: string, codes: ReadonlyArray<string | null>) => {
  const started = await s.call("POST", "/v1/verify/start", { key, body: { to } })
  if (started.status !== 200) throw new Error(`start -> ${started.status} ${JSON.stringify(started.body)}`)
  const sms = await s.call("GET", `/console/v1/simulator/sms?to=${encodeURIComponent(to)}`, { key: s.consoleToken })
  const right = /\b\d{4,8}\b/.exec(sms.body.data[0].text)![0]
  let last: any = started.body
  for (const code of codes) {
    last = (await s.call("POST", "/v1/verify/check", { key, body: { id: started.body.id, code: code ?? right } })).body
  }
  return last
}
