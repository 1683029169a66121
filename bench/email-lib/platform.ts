/**
 * The platform side of the Email benchmark: the Node host in its own process (`EMAIL_PROVIDER=simulator`,
 * `DNS_PROVIDER=simulator`, `CLOCK=simulated`), set up as the README's Email walk-through does (an account token,
 * access asked and granted, a sender domain, its three records published in the simulated DNS, the clock moved 10
 * minutes so the job finds them), then driven over HTTP by N clients each looping `POST /v1/email/messages`.
 *
 * The clock is the simulated one so the domain's check comes at once; it moves only when told, so each slice first
 * moves it a minute (a new rate window for every key: 120 requests a key a minute).
 */
import { requestStatements } from "../verify-lib/project.ts"
import { type Host, Latencies, makeHttp, sleep, type SliceOptions, StatusMix } from "../verify-lib/support.ts"
import { drivePosts, type PlatformRun } from "../notifications-lib/platform.ts"
export { emptyPlatformRun, type PlatformRun } from "../notifications-lib/platform.ts"

export interface Setup {
  readonly accountId: string
  readonly applicationId: string
  /** An account token (owner) of the account, for the account API (the log). */
  readonly accountToken: string
  readonly keys: ReadonlyArray<string>
}

export const senderDomain = "shop.sa"

export const consoleClient = (host: Host) => {
  const http = makeHttp(host.baseUrl, 8)
  const call = async (method: string, path: string, body?: unknown, token = host.consoleToken) => {
    const res = await http.request(method, path, token, body).catch(() =>
      // A kept-alive socket the host closed at the same moment: once more on a new one.
      http.request(method, path, token, body)
    )
    if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${res.body}`)
    return JSON.parse(res.body).data
  }
  return { console: (m: string, p: string, b?: unknown) => call(m, `/console/v1${p}`, b), call, close: http.close }
}

/** Moves the host's simulated clock by `ms` (console `POST /simulator/clock`). */
export const advanceClock = async (host: Host, ms: number) => {
  const c = consoleClient(host)
  try {
    await c.console("POST", "/simulator/clock", { advance_ms: ms })
  } finally {
    c.close()
  }
}

/** The README's Email walk-through up to the send, then `keyCount` live keys. */
export const setupThroughConsole = async (host: Host, keyCount: number): Promise<Setup> => {
  const c = consoleClient(host)
  try {
    const account = await c.console("POST", "/accounts", { name: "Bench merchant", sandbox_only: false })
    const app = await c.console("POST", `/accounts/${account.id}/applications`, { name: "Bench shop", approved: true })
    const { token } = await c.console("POST", `/accounts/${account.id}/account-tokens`, {
      role: "owner",
      email: "owner@shop.sa",
    })
    await c.call("POST", "/v1/account/email/access", {}, token)
    await c.console("PUT", `/accounts/${account.id}/email-access`, { status: "granted" })
    const domain = await c.call("POST", `/v1/applications/${app.id}/email/senders`, { domain: senderDomain }, token)
    for (const r of domain.records) {
      await c.console("PUT", "/simulator/dns/records", { type: r.type, name: r.name, values: [r.value] })
    }
    await c.console("POST", "/simulator/clock", { advance_ms: 600_000 })
    let status = ""
    for (let i = 0; i < 50 && status !== "verified"; i++) {
      if (i > 0) await sleep(100)
      status = (await c.call("GET", `/v1/applications/${app.id}/email/senders`, undefined, token))[0].status
    }
    if (status !== "verified") throw new Error(`the sender domain is ${status}, not verified`)
    const keys: Array<string> = []
    for (let i = 0; i < keyCount; i += 8) {
      const made = await Promise.all(
        Array.from(
          { length: Math.min(8, keyCount - i) },
          () => c.console("POST", `/applications/${app.id}/keys`, { mode: "live" }),
        ),
      )
      keys.push(...made.map((k) => k.key as string))
    }
    return { accountId: account.id, applicationId: app.id, accountToken: token, keys }
  } finally {
    c.close()
  }
}

export const sendBody = (n: number) => ({
  from: "receipts@shop.sa",
  to: `c${n}@example.net`,
  subject: `Your receipt ${n}`,
  text: "Thank you for your order.",
  reference: `INV-${n}`,
})

/** One send with the host's statement trace on (after one to warm up): the send's own statements, in order. */
export const traceOne = async (host: Host, setup: Setup): Promise<Array<string>> => {
  const http = makeHttp(host.baseUrl, 1)
  try {
    for (const n of [9_999_998, 9_999_999]) {
      await sleep(300)
      host.stderr.length = 0
      const res = await http.request("POST", "/v1/email/messages", setup.keys[0], sendBody(n))
      if (res.status !== 200) throw new Error(`trace: the send answered ${res.status} ${res.body}`)
    }
    await sleep(300)
    return requestStatements(host.stderr.filter((l) => l.startsWith("SQL\t")))
  } finally {
    http.close()
  }
}

/** One slice: the clock moved a minute (fresh rate windows), then sends of `POST /v1/email/messages`. */
export const driveSends = async (host: Host, setup: Setup, opts: SliceOptions, acc: PlatformRun): Promise<void> => {
  await advanceClock(host, 60_000)
  await drivePosts(host, setup.keys, "/v1/email/messages", sendBody, opts, acc)
}

/**
 * `n` timed calls of `GET path` with `token`, one at a time, after one untimed (fewer once `budgetMs` is spent, at
 * least 5): their latencies and the last answer.
 */
export const timeGets = async (host: Host, path: string, token: string, n: number, budgetMs = Infinity) => {
  const http = makeHttp(host.baseUrl, 1)
  const latency = new Latencies()
  const mix = new StatusMix()
  let last = ""
  try {
    // One call first, not timed: the new connection's opening and the path's first run in the host (a cold start
    // is the startup bench's to measure); the `n` calls after it are the search's.
    await http.request("GET", path, token)
    const start = performance.now()
    for (let i = 0; i < n && (i < 5 || performance.now() - start < budgetMs); i++) {
      const t0 = performance.now()
      const res = await http.request("GET", path, token)
      latency.add(performance.now() - t0)
      mix.add(res.status)
      last = res.body
      if (res.status !== 200) throw new Error(`GET ${path} -> ${res.status} ${res.body}`)
    }
  } finally {
    http.close()
  }
  return { latency, mix, last }
}
