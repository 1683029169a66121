/**
 * Run in each test file's context before its tests (vitest.config.ts, `setupFiles`). A worker keeps its modules from
 * file to file (`isolate: false`, issue 28), so each file here starts from what the worker's first file found.
 */
import { readFileSync } from "node:fs"
import { it as effectIt } from "@effect/vitest"
import { afterAll } from "vitest"

const kept = <A>(name: string, make: () => A): A =>
  ((globalThis as Record<symbol, unknown>)[Symbol.for(`test-support.${name}`)] ??= make()) as A

// The environment as the command gave it: a test that sets a variable (a log level, a provider's URL) and does not
// put it back must not change the next file's.
const environment = kept("environment", () => ({ ...process.env }))
for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name]
Object.assign(process.env, environment)

// @effect/vitest 0.30's `layer(…)` writes its layer-bound `effect`, `scoped`, `prop`, `flakyTest` and `layer` onto
// Vitest's own `it` object (`Object.assign(V.it, …)`; effect-smol's PR 2177 stopped that in the next major): the next
// file's `it.effect` ran in the last file's layer, on a closed store, or on a live clock where it asked for TestClock.
Object.assign(effectIt, kept("effectVitestMethods", () => ({ ...effectIt })))

// Every new PGlite store of the file starts from the snapshot unpacked once, not gunzipped and parsed again per
// store. The symbol is adapters/sql/pglite-client.ts's `keepSeedsUnpacked`, named here so that a file that makes no
// store does not load PGlite for it.
Object.assign(globalThis, { [Symbol.for("pglite-client.keepSeedsUnpacked")]: true })

// The platform logs a JSON line per request at `info` by default: tests run quiet unless the command names a level
// (`LOG_LEVEL=debug npx vitest run …`); the hosts they start inherit it. A test of the logs sets its own.
process.env.LOG_LEVEL ??= "none"

// What the file cost in CPU (issue 28), for test/support/timing-reporter.ts: this worker's own CPU and that of the
// child processes it waited for (a build, tsc, a host), from /proc/self/stat where there is one (Linux).
const clockTicks = 100 // USER_HZ: 100 on every Linux the kernel's ABI allows
const cpuSeconds = (): { own: number; children: number } | undefined => {
  try {
    // The fields after the command's closing parenthesis: utime, stime, cutime, cstime are the 12th to 15th.
    const stat = readFileSync("/proc/self/stat", "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number)
    return { own: (utime + stime) / clockTicks, children: (cutime + cstime) / clockTicks }
  } catch {
    return undefined
  }
}
// Taken here, as the file starts: its imports (its collection) count too.
const startCpu = cpuSeconds()
afterAll((suite) => {
  const end = cpuSeconds()
  if (startCpu !== undefined && end !== undefined) {
    suite.meta.cpu = { own: end.own - startCpu.own, children: end.children - startCpu.children }
  }
})

declare module "vitest" {
  interface TaskMeta {
    /** CPU seconds the file took: its worker's own and its waited-for children's (test/support/setup.ts). */
    cpu?: { own: number; children: number }
  }
}
