/**
 * The platform side of the Chat benchmark: the Node host in its own process with the simulated chat network, set
 * up through the console (an approved application, a connected app's key, a published attendant), and simulated
 * customers in conversation with it over the simulator's inbound route.
 */
import {
  type Host,
  makeHttp,
  measureSlice,
  ownCpuSeconds,
  processCpuSeconds,
  sleep,
  type Slice,
  type SliceOptions,
} from "../verify-lib/support.ts"
import type { PlatformRun } from "../notifications-lib/platform.ts"

export interface Setup {
  readonly accountId: string
  readonly applicationId: string
}

/** The published menu: a greeting, a nested menu whose one choice hands over to the team, an answer. */
export const benchMenu = {
  greeting: "Welcome to the shop",
  choices: [
    { id: "hours", title: "Opening hours", action: { type: "answer", text: "9 to 5, Sunday to Thursday" } },
    {
      id: "orders",
      title: "Orders",
      description: "Where is my order?",
      action: { type: "menu", choices: [{ id: "late", title: "It is late", action: { type: "team" } }] },
    },
    { id: "talk", title: "Talk to us", action: { type: "team" } },
  ],
}

/** One conversation: a first message (the greeting), a tap into the nested menu, the tap that hands over. */
export const script: ReadonlyArray<{ readonly text?: string; readonly choice_id?: string }> = [
  { text: "hello" },
  { choice_id: "orders" },
  { choice_id: "late" },
]

export const setupThroughConsole = async (host: Host): Promise<Setup> => {
  const http = makeHttp(host.baseUrl, 2)
  const call = async (method: string, path: string, body?: unknown, key = host.consoleToken) => {
    const res = await http.request(method, path, key, body)
    if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${res.body}`)
    return JSON.parse(res.body)
  }
  try {
    const account = (await call("POST", "/console/v1/accounts", { name: "Bench merchant", sandbox_only: false })).data
    const app =
      (await call("POST", `/console/v1/accounts/${account.id}/applications`, { name: "Bench shop", approved: true }))
        .data
    const made = (await call("POST", `/console/v1/applications/${app.id}/connected-app-keys`, {
      app_name: "Bench attendant",
      scopes: ["chat:attendant"],
    })).data
    await call("PUT", "/v1/chat/attendant/draft", { menu: benchMenu, enabled: true }, made.key)
    await call("POST", "/v1/chat/attendant/publish", undefined, made.key)
    return { accountId: account.id, applicationId: app.id }
  } finally {
    http.close()
  }
}

/** A customer's number: `+9665` and 8 digits (a fresh one per conversation). */
export const customerNumber = (n: number) => `+96656${String(n % 10_000_000).padStart(7, "0")}`

const inboundPath = "/console/v1/simulator/chatmsg/inbound"

/** One conversation's messages traced (after one to warm up): each inbound's own statements, in order. */
export const traceConversation = async (
  host: Host,
  setup: Setup,
  requestStatements: (lines: ReadonlyArray<string>) => Array<string>,
): Promise<Array<Array<string>>> => {
  const http = makeHttp(host.baseUrl, 1)
  try {
    for (const m of script) {
      await http.request("POST", inboundPath, host.consoleToken, {
        application: setup.applicationId,
        from: customerNumber(9_999_998),
        ...m,
      })
    }
    const out: Array<Array<string>> = []
    for (const m of script) {
      await sleep(300)
      host.stderr.length = 0
      const res = await http.request("POST", inboundPath, host.consoleToken, {
        application: setup.applicationId,
        from: customerNumber(9_999_999),
        ...m,
      })
      if (res.status !== 200) throw new Error(`trace: the inbound answered ${res.status} ${res.body}`)
      await sleep(300)
      out.push(requestStatements(host.stderr.filter((l) => l.startsWith("SQL\t"))))
    }
    return out
  } finally {
    http.close()
  }
}

/**
 * One slice of conversations: each client plays `script` with a new customer each time (every message one
 * request, counted when answered 200 with the attendant's step).
 */
export const driveConversations = async (
  host: Host,
  setup: Setup,
  opts: SliceOptions,
  acc: PlatformRun,
): Promise<void> => {
  const http = makeHttp(host.baseUrl, opts.clients)
  const client = async (slice: Slice) => {
    while (!slice.stopping) {
      const from = customerNumber(acc.nextTo++)
      for (const m of script) {
        const t0 = performance.now()
        const res = await http.request("POST", inboundPath, host.consoleToken, {
          application: setup.applicationId,
          from,
          ...m,
        }).catch((e: NodeJS.ErrnoException) => ({ status: e.code ?? "network error", body: String(e) }))
        const elapsed = performance.now() - t0
        if (res.status !== 200 && acc.failures.length < 5) acc.failures.push(`${res.status} ${res.body}`)
        if (slice.measuring) {
          acc.latency.add(elapsed)
          acc.mix.add(res.status)
          if (res.status === 200) slice.verifications++
        }
        if (slice.stopping) break
      }
    }
  }
  const [hostCpu, clientCpu] = await measureSlice(opts, client, acc, [() => processCpuSeconds(host.pid), ownCpuSeconds])
  http.close()
  acc.hostCpuSeconds += hostCpu
  acc.clientCpuSeconds += clientCpu
}
