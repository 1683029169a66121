/**
 * `npm run bench -- clock-advance [--days N] [--store pglite|memory|postgres]`: how long the simulated
 * clock's advance (DECISIONS 16: every job that falls due runs before the answer) takes to move a store at
 * rest by N days (default 90), through the console as a test or a newcomer calls it, after `--traffic N`
 * codes (default 100) left pending; round 1 expires them and prunes their records, rounds 2 and 3 move a
 * store with nothing due. Prints seconds per round.
 */
import { Effect, Option } from "effect"
import { settingsFromEnv } from "../adapters/config.ts"
import { makePlatform } from "../adapters/platform.ts"
import { close, listen, nodeServer } from "../adapters/http/node.ts"

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i === -1 ? fallback : process.argv[i + 1]
}
const days = Number(arg("days", "90"))
const store = arg("store", "pglite")

const base = await Effect.runPromise(settingsFromEnv)
const platform = await makePlatform({
  ...base,
  store: store === "memory" ? "memory" : "sql",
  pgliteDir: "memory://",
  databaseUrl: store === "postgres" ? Option.fromNullable(process.env.DATABASE_URL) : Option.none(),
  clock: "simulated",
  smsProvider: "simulator",
  consoleToken: "bench-console",
}, { jobs: false })
const server = nodeServer(platform.dispatch)
const port = await listen(server, 0, "127.0.0.1")
const advance = async (ms: number) => {
  const res = await fetch(`http://127.0.0.1:${port}/console/v1/simulator/clock`, {
    method: "POST",
    headers: { authorization: "Bearer bench-console", "content-type": "application/json" },
    body: JSON.stringify({ advance_ms: ms }),
  })
  if (res.status !== 200) throw new Error(`advance answered ${res.status}: ${await res.text()}`)
}
// Some history first, so the move has work on the way: codes left pending (the sweep expires them),
// idempotency records and rate-limit windows (retention drops them).
const traffic = Number(arg("traffic", "100"))
const key = platform.demo?.liveKey
for (let i = 0; i < traffic && key !== undefined; i++) {
  const res = await fetch(`http://127.0.0.1:${port}/v1/verify/start`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": `bench-${i}` },
    body: JSON.stringify({ to: `+96655${String(1_000_000 + i).slice(-7)}` }),
  })
  if (res.status !== 200) throw new Error(`start answered ${res.status}: ${await res.text()}`)
  if (i % 50 === 49) await advance(61_000) // a new rate-limit window now and then
}
console.log(`${store}: ${traffic} codes started and left pending, then the clock moves`)
for (const round of [1, 2, 3]) {
  const t0 = performance.now()
  await advance(days * 24 * 3_600_000)
  const seconds = (performance.now() - t0) / 1000
  console.log(
    `${store}: round ${round}: ${days} days in ${seconds.toFixed(2)} s (target: 90 days at rest within 2 s)`,
  )
}
await close(server)
await platform.dispose()
