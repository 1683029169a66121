/**
 * The project side of the Verify benchmark: the Node host in its own process, set up through the
 * console, driven over HTTP by N clients each looping start → read the code → check.
 */
import {
  codeIn,
  destination,
  type Host,
  Latencies,
  makeHttp,
  measureSlice,
  ownCpuSeconds,
  processCpuSeconds,
  sleep,
  type Slice,
  type SliceFigures,
  type SliceOptions,
  statusKb,
  StatusMix,
} from "./support.ts"

export interface Setup {
  readonly accountId: string
  /** The applications, all of the one account (one wallet): one, or several to spread the clients over. */
  readonly applicationIds: ReadonlyArray<string>
  /** Live keys of each application, in the order of `applicationIds`. */
  readonly keysByApplication: ReadonlyArray<ReadonlyArray<string>>
  /** Every key. */
  readonly keys: ReadonlyArray<string>
}

/**
 * An account with a deep wallet and `applications` approved applications (high caps, the guard off),
 * `keyCount` live keys shared out among them. `settings` replaces the Verify settings sent.
 */
export const setupThroughConsole = async (
  host: Host,
  keyCount: number,
  applications = 1,
  settings: Record<string, unknown> = {
    hourly_cap_per_destination: 10_000,
    max_per_ip_per_hour: 100_000,
    guard: { enabled: false },
  },
): Promise<Setup> => {
  const http = makeHttp(host.baseUrl, 8)
  const consoleCall = async (method: string, path: string, body: unknown) => {
    const res = await http.request(method, `/console/v1${path}`, host.consoleToken, body).catch(() =>
      // A kept-alive socket the host closed at the same moment: once more on a new one.
      http.request(method, `/console/v1${path}`, host.consoleToken, body)
    )
    if (res.status >= 300) throw new Error(`console ${method} ${path} -> ${res.status} ${res.body}`)
    return JSON.parse(res.body).data
  }
  try {
    const account = await consoleCall("POST", "/accounts", { name: "Bench merchant", sandbox_only: false })
    await consoleCall("POST", `/accounts/${account.id}/wallet/credit`, { amount_halalas: 10_000_000_000 })
    const applicationIds: Array<string> = []
    for (let a = 0; a < applications; a++) {
      const app = await consoleCall("POST", `/accounts/${account.id}/applications`, {
        name: applications === 1 ? "Bench shop" : `Bench shop ${a + 1}`,
        approved: true,
      })
      await consoleCall("PUT", `/applications/${app.id}/verify-settings`, settings)
      applicationIds.push(app.id)
    }
    const keysByApplication: Array<Array<string>> = applicationIds.map(() => [])
    const perApplication = Math.max(2, Math.ceil(keyCount / applications))
    const wanted = applicationIds.flatMap((id, a) => Array.from({ length: perApplication }, () => [id, a] as const))
    for (let i = 0; i < wanted.length; i += 8) {
      const batch = wanted.slice(i, i + 8)
      const made = await Promise.all(
        batch.map(([id]) => consoleCall("POST", `/applications/${id}/keys`, { mode: "live" })),
      )
      made.forEach((k, j) => keysByApplication[batch[j][1]].push(k.key))
    }
    return { accountId: account.id, applicationIds, keysByApplication, keys: keysByApplication.flat() }
  } finally {
    http.close()
  }
}

export interface ProjectRun extends SliceFigures {
  readonly start: Latencies
  readonly read: Latencies
  readonly check: Latencies
  readonly startMix: StatusMix
  readonly readMix: StatusMix
  readonly checkMix: StatusMix
  readonly failures: Array<string>
  peakRssKb: number
  hostCpuSeconds: number
  clientCpuSeconds: number
  keyRequests: number
  keys: number
  /** Round-robin positions, carried from one slice to the next. */
  nextKey: number
  nextTo: number
}

export const emptyProjectRun = (): ProjectRun => ({
  seconds: 0,
  verifications: 0,
  start: new Latencies(),
  read: new Latencies(),
  check: new Latencies(),
  startMix: new StatusMix(),
  readMix: new StatusMix(),
  checkMix: new StatusMix(),
  failures: [],
  slices: [],
  peakRssKb: Number.NaN,
  hostCpuSeconds: 0,
  dbCpuSeconds: Number.NaN,
  clientCpuSeconds: 0,
  machineBusyPercent: Number.NaN,
  keyRequests: 0,
  keys: 0,
  nextKey: 0,
  nextTo: 0,
})

/**
 * One slice: each client loops POST /v1/verify/start (a new destination each time), GET the simulator's
 * log for that destination (the code is only ever in the SMS), POST /v1/verify/check with the code.
 * Keys are taken round robin over all of them, so each sees the same share of requests. Figures of the
 * measured part (after `warmup`) are added to `acc`.
 */
export const driveProject = async (
  host: Host,
  setup: Setup,
  opts: SliceOptions,
  acc: ProjectRun,
): Promise<void> => {
  const http = makeHttp(host.baseUrl, opts.clients)
  acc.keys = setup.keys.length
  const apps = setup.keysByApplication
  // Client i starts and checks with the keys of application i mod (applications), round robin among them.
  const key = (client: number) => {
    const own = apps[client % apps.length]
    return own[Math.floor(acc.nextKey++ / apps.length) % own.length]
  }
  const fail = (what: string) => {
    if (acc.failures.length < 5) acc.failures.push(what)
  }

  // A network error is an answer of its own in the status mix (`ECONNRESET`, ...).
  const request = (...a: Parameters<typeof http.request>) =>
    http.request(...a).catch((e: NodeJS.ErrnoException) => ({ status: e.code ?? "network error", body: String(e) }))

  let clients = 0
  const client = async (slice: Slice) => {
    const me = clients++
    while (!slice.stopping) {
      const to = destination(acc.nextTo++)
      const t0 = performance.now()
      const s = await request("POST", "/v1/verify/start", key(me), { to })
      const t1 = performance.now()
      const counted = slice.measuring
      if (counted) {
        acc.start.add(t1 - t0)
        acc.startMix.add(s.status)
        acc.keyRequests++
      }
      if (s.status !== 200) {
        fail(`start ${s.status} ${s.body}`)
        continue
      }
      const id = JSON.parse(s.body).id as string
      const r = await request("GET", `/console/v1/simulator/sms?to=${encodeURIComponent(to)}`, host.consoleToken)
      const t2 = performance.now()
      if (counted) {
        acc.read.add(t2 - t1)
        acc.readMix.add(r.status)
      }
      if (r.status !== 200) {
        fail(`read ${r.status} ${r.body}`)
        continue
      }
      const code = codeIn(JSON.parse(r.body).data[0].text)
      const t3 = performance.now()
      const c = await request("POST", "/v1/verify/check", key(me), { id, code })
      const t4 = performance.now()
      const verified = c.status === 200 && JSON.parse(c.body).status === "verified"
      if (!verified) fail(`check ${c.status} ${c.body}`)
      if (counted && slice.measuring) {
        acc.check.add(t4 - t3)
        acc.checkMix.add(verified ? "200 verified" : c.status)
        acc.keyRequests++
        if (verified) slice.verifications++
      }
    }
  }

  const [hostCpu, clientCpu] = await measureSlice(opts, client, acc, [() => processCpuSeconds(host.pid), ownCpuSeconds])
  http.close()
  acc.hostCpuSeconds += hostCpu
  acc.clientCpuSeconds += clientCpu
  acc.peakRssKb = statusKb(host.pid, "VmHWM")
}

/** Statements of the background loops (job leases, expiry sweep, webhook routing and delivery). */
const background =
  /\bjobs\b|outbox_routing|webhook_deliveries|webhook_endpoints|webhook_attempts|rate_windows WHERE window_start <|idempotency WHERE expires_at <=/

/**
 * The request's own statements among a trace: per connection, a transaction (BEGIN .. COMMIT) or a
 * lone statement is a unit, and a unit that touches what only the background loops touch is theirs.
 */
export const requestStatements = (lines: ReadonlyArray<string>): Array<string> => {
  const parsed = lines.map((l, i) => {
    const [, conn, ...rest] = l.split("\t")
    return { i, conn, text: rest.join("\t") }
  })
  const drop = new Set<number>()
  const open = new Map<string, Array<number>>()
  const settle = (unit: Array<number>) => {
    if (unit.some((i) => background.test(parsed[i].text))) { for (const i of unit) drop.add(i) }
  }
  for (const s of parsed) {
    const unit = open.get(s.conn)
    if (s.text === "BEGIN") open.set(s.conn, [s.i])
    else if (unit !== undefined) {
      unit.push(s.i)
      if (s.text === "COMMIT" || s.text === "ROLLBACK") {
        settle(unit)
        open.delete(s.conn)
      }
    } else settle([s.i])
  }
  for (const unit of open.values()) settle(unit)
  return parsed.filter((s) => !drop.has(s.i)).map((s) => s.text)
}

/** One verification with the host's statement trace on: the statements of each request, in order. */
export const traceOne = async (host: Host, setup: Setup) => {
  const http = makeHttp(host.baseUrl, 1)
  const to = destination(9_999_999)
  const mark = async () => {
    await sleep(300)
    const lines = requestStatements(host.stderr.filter((l) => l.startsWith("SQL\t")))
    host.stderr.length = 0
    return lines
  }
  // A process prepares its first send of an application twice (once on the defaults, then on the settings
  // the send answers, adapters/sql/verify.ts): one start first, so the trace is of the steady state.
  const warm = await http.request("POST", "/v1/verify/start", setup.keys[0], { to: destination(9_999_998) })
  if (warm.status !== 200) throw new Error(`trace: start answered ${warm.status} ${warm.body}`)
  await mark()
  const s = await http.request("POST", "/v1/verify/start", setup.keys[0], { to })
  if (s.status !== 200) throw new Error(`trace: start answered ${s.status} ${s.body}`)
  const startSql = await mark()
  const r = await http.request("GET", `/console/v1/simulator/sms?to=${encodeURIComponent(to)}`, host.consoleToken)
  const readSql = await mark()
  const c = await http.request("POST", "/v1/verify/check", setup.keys[1], {
    id: JSON.parse(s.body).id,
    code: codeIn(JSON.parse(r.body).data[0].text),
  })
  const checkSql = await mark()
  http.close()
  if (JSON.parse(c.body).status !== "verified") throw new Error(`trace: check answered ${c.status} ${c.body}`)
  return { start: startSql, read: readSql, check: checkSql }
}
