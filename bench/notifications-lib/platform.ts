/**
 * The platform side of the Notifications benchmark: the Node host in its own process, set up through the
 * console (one approved application with a connected simulated number and an approved utility template, a deep
 * wallet, live keys), driven over HTTP by N clients each looping `POST /v1/chatmsg/messages`; and the status
 * reports, through the simulator's console route.
 */
import { requestStatements } from "../verify-lib/project.ts"
import {
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
  StatusMix,
} from "../verify-lib/support.ts"
import { templateCopy, templateName } from "./ceiling.ts"

export interface Setup {
  readonly accountId: string
  readonly applicationId: string
  readonly keys: ReadonlyArray<string>
}

const consoleClient = (host: Host) => {
  const http = makeHttp(host.baseUrl, 8)
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await http.request(method, `/console/v1${path}`, host.consoleToken, body).catch(() =>
      // A kept-alive socket the host closed at the same moment: once more on a new one.
      http.request(method, `/console/v1${path}`, host.consoleToken, body)
    )
    if (res.status >= 300) throw new Error(`console ${method} ${path} -> ${res.status} ${res.body}`)
    return JSON.parse(res.body).data
  }
  return { call, close: http.close }
}

/** The application, its number and template, a deep wallet and `keyCount` live keys, made through the console. */
export const setupThroughConsole = async (host: Host, keyCount: number): Promise<Setup> => {
  const c = consoleClient(host)
  try {
    const account = await c.call("POST", "/accounts", { name: "Bench merchant", sandbox_only: false })
    await c.call("POST", `/accounts/${account.id}/wallet/credit`, { amount_halalas: 10_000_000_000 })
    const app = await c.call("POST", `/accounts/${account.id}/applications`, { name: "Bench shop", approved: true })
    await c.call("PUT", `/simulator/chatmsg/applications/${app.id}/number`, { number: "0555000111", connected: true })
    await c.call("PUT", `/simulator/chatmsg/applications/${app.id}/templates/${templateName}/ar`, {
      status: "approved",
      ...templateCopy,
    })
    const keys: Array<string> = []
    for (let i = 0; i < keyCount; i += 8) {
      const made = await Promise.all(
        Array.from(
          { length: Math.min(8, keyCount - i) },
          () => c.call("POST", `/applications/${app.id}/keys`, { mode: "live" }),
        ),
      )
      keys.push(...made.map((k) => k.key as string))
    }
    return { accountId: account.id, applicationId: app.id, keys }
  } finally {
    c.close()
  }
}

const sendBody = (n: number) => ({ to: destination(n), template: templateName, params: { order_id: `A-${n}` } })

/** One send with the host's statement trace on (after one to warm up): the send's own statements, in order. */
export const traceOne = async (host: Host, setup: Setup): Promise<Array<string>> => {
  const http = makeHttp(host.baseUrl, 1)
  try {
    for (const n of [9_999_998, 9_999_999]) {
      await sleep(300)
      host.stderr.length = 0
      const res = await http.request("POST", "/v1/chatmsg/messages", setup.keys[0], sendBody(n))
      if (res.status !== 200) throw new Error(`trace: the send answered ${res.status} ${res.body}`)
    }
    await sleep(300)
    return requestStatements(host.stderr.filter((l) => l.startsWith("SQL\t")))
  } finally {
    http.close()
  }
}

export interface PlatformRun extends SliceFigures {
  readonly latency: Latencies
  readonly mix: StatusMix
  readonly failures: Array<string>
  hostCpuSeconds: number
  clientCpuSeconds: number
  keys: number
  nextKey: number
  nextTo: number
}

export const emptyPlatformRun = (): PlatformRun => ({
  seconds: 0,
  verifications: 0,
  latency: new Latencies(),
  mix: new StatusMix(),
  failures: [],
  slices: [],
  dbCpuSeconds: Number.NaN,
  machineBusyPercent: Number.NaN,
  hostCpuSeconds: 0,
  clientCpuSeconds: 0,
  keys: 0,
  nextKey: 0,
  nextTo: 0,
})

/**
 * One slice of sends: each client loops `POST path` with `bodyOf(n)` (a new recipient each time, keys round robin:
 * the rate limit is 120 requests a key a minute). `verifications` counts the sends answered 200. The Email
 * benchmark drives its sends with it too.
 */
export const drivePosts = async (
  host: Host,
  keys: ReadonlyArray<string>,
  path: string,
  bodyOf: (n: number) => unknown,
  opts: SliceOptions,
  acc: PlatformRun,
): Promise<void> => {
  const http = makeHttp(host.baseUrl, opts.clients)
  acc.keys = keys.length
  const client = async (slice: Slice) => {
    while (!slice.stopping) {
      const key = keys[acc.nextKey++ % keys.length]
      const t0 = performance.now()
      const res = await http.request("POST", path, key, bodyOf(acc.nextTo++)).catch((
        e: NodeJS.ErrnoException,
      ) => ({ status: e.code ?? "network error", body: String(e) }))
      const elapsed = performance.now() - t0
      if (res.status !== 200 && acc.failures.length < 5) acc.failures.push(`${res.status} ${res.body}`)
      if (slice.measuring) {
        acc.latency.add(elapsed)
        acc.mix.add(res.status)
        if (res.status === 200) slice.verifications++
      }
    }
  }
  const [hostCpu, clientCpu] = await measureSlice(opts, client, acc, [() => processCpuSeconds(host.pid), ownCpuSeconds])
  http.close()
  acc.hostCpuSeconds += hostCpu
  acc.clientCpuSeconds += clientCpu
}

/** One slice of template sends (`POST /v1/chatmsg/messages`). */
export const driveSends = (host: Host, setup: Setup, opts: SliceOptions, acc: PlatformRun): Promise<void> =>
  drivePosts(host, setup.keys, "/v1/chatmsg/messages", sendBody, opts, acc)

// ---------------------------------------------------------------------------------------------------------------
// Status reports

export type ReportStatus = "sent" | "delivered" | "read" | "failed"

/** Sends `count` messages over HTTP with `clients` clients: their ids, and the sends/s it took. */
export const sendMessages = async (host: Host, setup: Setup, count: number, clients: number) => {
  const http = makeHttp(host.baseUrl, clients)
  const ids: Array<string> = []
  let next = 0
  const t0 = performance.now()
  await Promise.all(Array.from({ length: clients }, async () => {
    while (next < count) {
      const n = next++
      const res = await http.request("POST", "/v1/chatmsg/messages", setup.keys[n % setup.keys.length], sendBody(n))
      if (res.status !== 200) throw new Error(`send ${n}: ${res.status} ${res.body}`)
      ids.push(JSON.parse(res.body).id)
    }
  }))
  const seconds = (performance.now() - t0) / 1000
  http.close()
  return { ids, perSecond: count / seconds }
}

/** A small seeded generator (mulberry32), so a run's shuffle can be repeated with `--seed`. */
export const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/**
 * `count` reports over `ids`: each message gets its share, each report's status drawn (sent 30 %, delivered 30 %,
 * read 30 %, failed 10 %), then the whole list shuffled, so that most arrive out of order or behind the state the
 * message has reached.
 */
export const makeReports = (ids: ReadonlyArray<string>, count: number, seed: number) => {
  const rnd = random(seed)
  const statuses: ReadonlyArray<ReportStatus> = ["sent", "delivered", "read", "failed"]
  const weights = [0.3, 0.6, 0.9, 1]
  const reports = Array.from({ length: count }, (_, i) => {
    const r = rnd()
    return { id: ids[i % ids.length], status: statuses[weights.findIndex((w) => r < w)] }
  })
  for (let i = reports.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1))
    ;[reports[i], reports[j]] = [reports[j], reports[i]]
  }
  return reports
}

export interface ReportRun {
  readonly reports: number
  readonly seconds: number
  readonly latency: Latencies
  readonly mix: StatusMix
  readonly failures: ReadonlyArray<string>
  readonly hostCpuSeconds: number
}

/** The reports, in their order, through `POST /console/v1/simulator/chatmsg/messages/{id}/report`. */
export const driveReports = async (
  host: Host,
  reports: ReadonlyArray<{ id: string; status: ReportStatus }>,
  clients: number,
): Promise<ReportRun> => {
  const http = makeHttp(host.baseUrl, clients)
  const latency = new Latencies()
  const mix = new StatusMix()
  const failures: Array<string> = []
  let next = 0
  const cpu0 = processCpuSeconds(host.pid)
  const t0 = performance.now()
  await Promise.all(Array.from({ length: clients }, async () => {
    while (next < reports.length) {
      const r = reports[next++]
      const a = performance.now()
      const res = await http.request(
        "POST",
        `/console/v1/simulator/chatmsg/messages/${r.id}/report`,
        host.consoleToken,
        { status: r.status },
      ).catch((e: NodeJS.ErrnoException) => ({ status: e.code ?? "network error", body: String(e) }))
      latency.add(performance.now() - a)
      mix.add(res.status)
      if (res.status !== 200 && failures.length < 5) failures.push(`${res.status} ${res.body}`)
    }
  }))
  const seconds = (performance.now() - t0) / 1000
  http.close()
  return {
    reports: reports.length,
    seconds,
    latency,
    mix,
    failures,
    hostCpuSeconds: processCpuSeconds(host.pid) - cpu0,
  }
}

const rank: Record<string, number> = { accepted: 0, sent: 1, delivered: 2, read: 3, failed: 4 }

export interface ReportCheck {
  readonly messages: number
  readonly events: number
  /** Messages whose events went backwards, or whose status is not their last event's. */
  readonly backwards: ReadonlyArray<string>
  readonly finalStatuses: StatusMix
  readonly eventsByKind: StatusMix
}

/**
 * From the store, after the reports: each message's status and its `message.*` events in the order written
 * (`seq`). No message may have moved backwards: each event's state after the one before it (`failed` only from
 * a state before `read`), and the message's status its last event's (`accepted` with none).
 */
export const checkReports = (
  messages: ReadonlyArray<{ id: string; status: string }>,
  events: ReadonlyArray<{ id: string; event: string }>,
): ReportCheck => {
  const byMessage = new Map<string, Array<string>>()
  const eventsByKind = new StatusMix()
  for (const e of events) {
    eventsByKind.add(e.event)
    const status = e.event.slice("message.".length)
    const list = byMessage.get(e.id)
    if (list === undefined) byMessage.set(e.id, [status])
    else list.push(status)
  }
  const backwards: Array<string> = []
  const finalStatuses = new StatusMix()
  for (const m of messages) {
    finalStatuses.add(m.status)
    const steps = ["accepted", ...(byMessage.get(m.id) ?? [])]
    const forward = steps.every((s, i) =>
      i === 0 || (rank[s] > rank[steps[i - 1]] && steps[i - 1] !== "read" && steps[i - 1] !== "failed")
    )
    if (!forward || steps.at(-1) !== m.status) backwards.push(`${m.id}: ${steps.join(" → ")} (now ${m.status})`)
  }
  return { messages: messages.length, events: events.length, backwards, finalStatuses, eventsByKind }
}

/** The reads `checkReports` takes, on any driver. */
export const reportCheckSql = {
  messages: `SELECT id::text AS id, status FROM chat_messages WHERE application_id = $1`,
  events: `SELECT data->>'id' AS id, event FROM outbox_events
    WHERE application_id = $1 AND event LIKE 'message.%' ORDER BY seq`,
}
