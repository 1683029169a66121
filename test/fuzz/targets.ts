/**
 * The five ways in, each its own platform instance with the same settings (memory store, simulated clock,
 * SMS simulator, a fixed console token, the same allowed origins):
 *
 *   node     the Node host as a process (`node --import tsx hosts/node.ts`, as test/hosts/host-process.ts runs it)
 *   deno     the Deno host as a process (the `start:deno` command)
 *   bun      the Bun host as a process (the `start:bun` command: the Node host on Bun's node:http)
 *   web      the web handler in this process: `platform.fetch(request, "127.0.0.1")`
 *   express  the Node handler mounted as an Express 5 app does it: `app.use(platform.node)`, served by
 *            `nodeServer(platform.dispatch, { app })` as the README shows
 *
 * The three processes and the Express server get raw bytes over a socket (wire.ts); the web handler gets the
 * `Request` a web server would build from the same bytes (request.ts).
 */
import { Effect } from "effect"
import express from "express"
import type { Server } from "node:http"
import { settingsFromEnv } from "../../adapters/config.ts"
import { listen, nodeServer } from "../../adapters/http/node.ts"
import { makePlatform, type Platform } from "../../adapters/platform.ts"
import { type HostName, type HostProcess, startHost } from "../hosts/host-process.ts"
import type { Answer, TargetName } from "./compare.ts"
import { allowedOrigins, consoleToken, keySlots, replaySlots } from "./generate.ts"
import { type Fill, type FuzzRequest, noVerification, webRequest, wireBytes } from "./request.ts"
import { Connection, isDropped } from "./wire.ts"

export interface Target {
  readonly name: TargetName
  /** This way in's values for the placeholders; `VID` follows the verifications it starts. */
  readonly fill: { live: Array<string>; test: Array<string>; ACCOUNT: string; APP: string; VID: string; CODE: string }
  readonly send: (req: FuzzRequest) => Promise<Answer>
  readonly close: () => Promise<void>
  /** Output of a process (for a report), if the way in is one. */
  readonly output?: () => string
}

/** The environment of the three host processes; the in-process instances get the same as Settings. */
export const hostEnv: Record<string, string> = {
  STORE: "memory",
  CLOCK: "simulated",
  SMS_PROVIDER: "simulator",
  CONSOLE_TOKEN: consoleToken,
  ALLOWED_ORIGINS: allowedOrigins.join(","),
  TRUSTED_PROXIES: "",
  PORT: "0",
}

const inProcessPlatform = async (): Promise<Platform> => {
  const base = await Effect.runPromise(settingsFromEnv)
  return makePlatform({
    ...base,
    store: "memory",
    clock: "simulated",
    smsProvider: "simulator",
    consoleToken,
    consoleTokenGenerated: false,
    allowedOrigins,
    trustedProxies: [],
    host: "127.0.0.1",
    port: 0,
  })
}

const wireSend = (conn: Connection) => async (req: FuzzRequest, fill: Fill): Promise<Answer> => {
  const r = await conn.send(wireBytes(req, fill), req.method === "HEAD")
  if (isDropped(r)) return { status: 0, headers: [], body: "", dropped: r.dropped, received: r.received }
  return { status: r.status, headers: r.headers, body: r.body.toString("utf8") }
}

const emptyFill = () => ({
  live: [] as Array<string>,
  test: [] as Array<string>,
  ACCOUNT: "",
  APP: "",
  VID: noVerification,
  CODE: "000000",
})

const hostTarget = async (host: HostName, timeoutMs: number): Promise<Target> => {
  const p: HostProcess = await startHost(host, hostEnv, { timeoutMs: 120_000 })
  const conn = new Connection({ port: p.port, timeoutMs })
  const fill = emptyFill()
  fill.live.push(p.banner.demoLiveKey!)
  fill.test.push(p.banner.demoTestKey!)
  fill.ACCOUNT = p.banner.demoAccount!
  fill.APP = p.banner.demoApplication!
  const send = wireSend(conn)
  return {
    name: host,
    fill,
    send: (req) => send(req, fill),
    close: async () => {
      conn.close()
      await p.stop(5_000)
    },
    output: p.output,
  }
}

const webTarget = async (): Promise<Target> => {
  const platform = await inProcessPlatform()
  const fill = emptyFill()
  const demo = platform.demo!
  fill.live.push(demo.liveKey)
  fill.test.push(demo.testKey)
  fill.ACCOUNT = demo.accountId
  fill.APP = demo.applicationId
  return {
    name: "web",
    fill,
    send: async (req) => {
      let request: Request
      try {
        request = webRequest(req, fill)
      } catch (e) {
        return { status: 0, headers: [], body: "", dropped: `Request refused the request: ${(e as Error).message}` }
      }
      try {
        // The socket's peer as a web server reports it (the processes see 127.0.0.1 too).
        const res = await platform.fetch(request, "127.0.0.1")
        return { status: res.status, headers: [...res.headers], body: await res.text() }
      } catch (e) {
        return { status: 0, headers: [], body: "", dropped: `the handler threw: ${(e as Error).message}` }
      }
    },
    close: () => platform.dispose(),
  }
}

const expressTarget = async (timeoutMs: number): Promise<Target> => {
  const platform = await inProcessPlatform()
  const app = express()
  // As an embedder mounts it (README, "Embedding"): no body parser in front, the app served by the
  // platform's node:http server (its options and its answers to what the parser refuses).
  app.use(platform.node)
  const server: Server = nodeServer(platform.dispatch, { app })
  const port = await listen(server, 0, "127.0.0.1")
  const conn = new Connection({ port, timeoutMs })
  const fill = emptyFill()
  const demo = platform.demo!
  fill.live.push(demo.liveKey)
  fill.test.push(demo.testKey)
  fill.ACCOUNT = demo.accountId
  fill.APP = demo.applicationId
  const send = wireSend(conn)
  return {
    name: "express",
    fill,
    send: (req) => send(req, fill),
    close: async () => {
      conn.close()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      await platform.dispose()
    },
  }
}

export const startTarget = (name: TargetName, timeoutMs = 15_000): Promise<Target> =>
  name === "web" ? webTarget() : name === "express" ? expressTarget(timeoutMs) : hostTarget(name, timeoutMs)

// ---------------------------------------------------------------------------------------------- setup

/** A JSON request for setup (the console token, `Host: setup.test`), sent through the target's own way in. */
const consoleRequest = (method: string, target: string, body?: unknown): FuzzRequest => {
  const bytes = body === undefined ? undefined : new Uint8Array(Buffer.from(JSON.stringify(body)))
  return {
    method,
    target,
    headers: [
      ["Host", "setup.test"],
      ["Authorization", `Bearer ${consoleToken}`],
      ...(bytes === undefined ? [] : [["Content-Type", "application/json"] as const]),
    ],
    body: bytes,
    framing: "length",
  }
}

const consoleCall = async (t: Target, method: string, path: string, body?: unknown): Promise<any> => {
  const a = await t.send(consoleRequest(method, `/console/v1${path}`, body))
  if (a.dropped !== undefined || a.status >= 300) {
    throw new Error(`${t.name}: setup ${method} ${path} -> ${a.dropped ?? a.status} ${a.body}`)
  }
  return JSON.parse(a.body).data
}

/**
 * Brings every way in to the same state: `keySlots + replaySlots` key pairs of the demo application (slot 0
 * the printed pair; the generator uses the first `keySlots`, the replays of fuzz.ts the rest), Verify settings that let a long run keep starting verifications (destination and IP caps raised, the
 * guard off), a wallet that does not run dry, and one platform clock: each simulated clock starts at its
 * process's start time, so each is advanced to the same instant (mid-minute: a rate-limit window's
 * `Retry-After` is then the same everywhere, and it never rolls since nothing moves the clocks again).
 */
export const setUp = async (targets: ReadonlyArray<Target>): Promise<void> => {
  await Promise.all(targets.map(async (t) => {
    for (let i = t.fill.live.length; i < keySlots + replaySlots; i++) {
      t.fill.live.push((await consoleCall(t, "POST", `/applications/${t.fill.APP}/keys`, { mode: "live" })).key)
      t.fill.test.push((await consoleCall(t, "POST", `/applications/${t.fill.APP}/keys`, { mode: "test" })).key)
    }
    await consoleCall(t, "PUT", `/applications/${t.fill.APP}/verify-settings`, {
      hourly_cap_per_destination: 10_000,
      max_per_ip_per_hour: 100_000,
      guard: { enabled: false },
    })
    await consoleCall(t, "POST", `/accounts/${t.fill.ACCOUNT}/wallet/credit`, { amount_halalas: 1_000_000 })
  }))
  const nows = await Promise.all(
    targets.map(async (t) => (await consoleCall(t, "POST", "/simulator/clock", { advance_ms: 0 })).now_ms as number),
  )
  const at = Math.ceil((Math.max(...nows) + 1_000) / 60_000) * 60_000 + 30_000
  await Promise.all(targets.map((t, i) => consoleCall(t, "POST", "/simulator/clock", { advance_ms: at - nows[i] })))
}

/** The verification an answer shows (a start's, a resend's or a read's while pending): its id and destination. */
export const pendingVerification = (answer: Answer): { id: string; to: string } | undefined => {
  if (answer.dropped !== undefined || answer.status !== 200) return undefined
  try {
    const body = JSON.parse(answer.body)
    if (typeof body?.id === "string" && body.status === "pending" && typeof body.to === "string") {
      return { id: body.id, to: body.to }
    }
  } catch { /* not JSON */ }
  return undefined
}

/** The code in the latest SMS the simulator sent to `to` (one console request on the target's own way in). */
const latestCode = async (t: Target, to: string): Promise<string> => {
  const a = await t.send(consoleRequest("GET", `/console/v1/simulator/sms?to=${encodeURIComponent(to)}`))
  try {
    const text: string = JSON.parse(a.body).data[0].text
    return /\b\d{4,8}\b/.exec(text)?.[0] ?? "000000"
  } catch {
    return "000000"
  }
}

/**
 * Follows the verifications the ways in start and resend: `{{VID}}` becomes the new one, and `{{CODE}}` the code
 * each SMS simulator sent for it, only when every way in answered with one (when a way in answered otherwise,
 * that is a difference already; following it there would make every later request naming `{{VID}}` differ
 * too). Answers the console requests it made on each way in (0 or 1).
 */
export const track = async (
  targets: ReadonlyArray<Target>,
  method: string,
  answers: ReadonlyArray<Answer>,
): Promise<number> => {
  if (/^(get|head)$/i.test(method)) return 0
  const found = answers.map(pendingVerification)
  if (!found.every((v) => v !== undefined)) return 0
  await Promise.all(targets.map(async (t, i) => {
    t.fill.VID = found[i]!.id
    t.fill.CODE = await latestCode(t, found[i]!.to)
  }))
  return 1
}

/** Ends every target, whatever happens to the others. */
export const closeAll = async (targets: ReadonlyArray<Target>): Promise<void> => {
  await Promise.allSettled(targets.map((t) => t.close()))
}

export { isDropped }
