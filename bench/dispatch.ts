/**
 * The shared dispatcher without HTTP (`npm run bench -- dispatch`): CPU microseconds a request on the
 * memory store, for `GET /healthz` (the dispatcher's floor) and the http bench's request
 * (`GET /v1/verify/<random unknown uuid>` with a valid key → 404 not_found). CPU time, not wall time,
 * so a busy machine inflates it less. N (20,000) requests a measurement, REPEAT (1) rounds; WEB=0 leaves out
 * the web handler's rounds.
 *
 *   npm run bench -- dispatch
 *   node --cpu-prof --import tsx bench/dispatch.ts     (a profile of the same run)
 */
import { Effect } from "effect"
import { settingsFromEnv } from "../adapters/config.ts"
import { makePlatform } from "../adapters/platform.ts"
import type { PlainRequest, PlainResponse } from "../adapters/http/dispatcher.ts" // tsx turns on source-mapped stack traces; `npm start` (plain node on dist/) runs without them, and a
 // failing `Effect.fn` span formats two stacks, so measure as production runs.
;(process as { setSourceMapsEnabled?: (on: boolean) => void }).setSourceMapsEnabled?.(false)

const n = Number(process.env.N ?? 20_000)
const settings = { ...(await Effect.runPromise(settingsFromEnv)), store: "memory" as const, consoleToken: "bench" }
const p = await makePlatform(settings, { jobs: false })
const demo = p.demo!

const request = (method: string, url: string, auth?: string, body = ""): PlainRequest => ({
  method,
  url,
  headers: (h) => (h === "authorization" && auth !== undefined ? `Bearer ${auth}` : undefined),
  body,
  ip: "127.0.0.1",
})

let last: PlainResponse = { status: 0, headers: {}, body: "" }
const measure = async (label: string, count: number, make: (i: number) => PlainRequest) => {
  const statuses: Record<number, number> = {}
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  for (let i = 0; i < count; i++) {
    const r = (last = await p.dispatch(make(i)))
    statuses[r.status] = (statuses[r.status] ?? 0) + 1
  }
  const wall = (performance.now() - t0) * 1000
  const cpu = process.cpuUsage(cpu0)
  console.log(
    `${label.padEnd(40)} ${((cpu.user + cpu.system) / count).toFixed(1).padStart(7)} µs CPU  ` +
      `${(wall / count).toFixed(1).padStart(7)} µs wall  ${JSON.stringify(statuses)}`,
  )
}

// Enough keys that none meets the rate limit (120 a minute each).
const repeat = Number(process.env.REPEAT ?? 1)
const keyCount = Math.ceil((2 * n * repeat + 2_000) / 100)
const keys: Array<string> = []
await measure("POST /console/v1/applications/:id/keys", keyCount, (i) => {
  if (i > 0) keys.push(JSON.parse(last.body as string).data.key)
  return request("POST", `/console/v1/applications/${demo.applicationId}/keys`, "bench", '{"mode":"live"}')
})
keys.push(JSON.parse(last.body as string).data.key)

const verifyGet = (i: number) => request("GET", `/v1/verify/${crypto.randomUUID()}`, keys[i % keys.length])
await measure("warmup", 2_000, verifyGet)
// The same through the web handler (Deno and Bun hosts): Request in, Response out.
const measureFetch = async (label: string, count: number, make: (i: number) => Request) => {
  const statuses: Record<number, number> = {}
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  for (let i = 0; i < count; i++) {
    const res = await p.fetch(make(i))
    await res.text()
    statuses[res.status] = (statuses[res.status] ?? 0) + 1
  }
  const wall = (performance.now() - t0) * 1000
  const cpu = process.cpuUsage(cpu0)
  console.log(
    `${label.padEnd(40)} ${((cpu.user + cpu.system) / count).toFixed(1).padStart(7)} µs CPU  ` +
      `${(wall / count).toFixed(1).padStart(7)} µs wall  ${JSON.stringify(statuses)}`,
  )
}
const verifyFetch = (i: number) =>
  new Request(`http://127.0.0.1/v1/verify/${crypto.randomUUID()}`, {
    headers: { authorization: `Bearer ${keys[i % keys.length]}`, host: "127.0.0.1", accept: "*/*" },
  })

for (let r = 0; r < repeat; r++) {
  await measure("GET /healthz", n, () => request("GET", "/healthz"))
  await measure("GET /v1/verify/<unknown> (key) → 404", n, verifyGet)
  if (process.env.WEB === "0") continue
  await measureFetch("web handler: GET /healthz", n, () => new Request("http://127.0.0.1/healthz"))
  await measureFetch("web handler: GET /v1/verify/<unknown>", n, verifyFetch)
}
await p.dispose()
