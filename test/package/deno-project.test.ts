/**
 * The package as a Deno app gets it: deno.json names it, maps its npm imports and says what a publish
 * holds; `deno publish --dry-run` passes; a fresh Deno project that links the repository (`"links"`, as a
 * JSR package under development is used) type-checks an app that embeds the platform with `deno check` and
 * runs it: a verification end to end on `Deno.serve`, with no `--config` pointing into the repository.
 */
import { createHash } from "node:crypto"
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { appUsage } from "./app-usage.ts"
import { run as runProcess } from "../support/run.ts"

const repo = resolve(import.meta.dirname, "../..")
const deno = join(repo, "node_modules/.bin/deno")
/**
 * The app's folder, the same for every run of this checkout: Deno keeps what `deno check` found for a module graph by
 * the modules' paths and sources (DENO_DIR's check cache), so a run after one that checked the same sources takes
 * 0.1 s instead of 14 CPU-seconds, and one after a change re-checks from TypeScript's incremental state (issue 28).
 * Its files are written anew every run; a changed source is checked again.
 */
const app = join(tmpdir(), `deno-project-${createHash("sha256").update(repo).digest("hex").slice(0, 12)}`)

const consumer = `import { Effect } from "effect"
import { makePlatform, type Platform, settingsFromEnv } from "@sa-messaging/platform"

const settings = await Effect.runPromise(settingsFromEnv)
const platform: Platform = await makePlatform({ ...settings, store: "memory", smsProvider: "simulator", clock: "simulated" })
const server = Deno.serve(
  { port: 0, hostname: "127.0.0.1", onListen: () => {} },
  (req, info) => platform.serve(req, info.remoteAddr.hostname),
)
const base = \`http://127.0.0.1:\${server.addr.port}\`
const key: string = platform.demo!.liveKey
const to = "+966551234567"
const call = async (method: string, path: string, body?: unknown, token = key): Promise<any> => {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: \`Bearer \${token}\`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return res.json()
}
${appUsage}
await server.shutdown()
await platform.dispose()
`

const run = (args: Array<string>, cwd: string, env: Record<string, string> = {}) =>
  runProcess(deno, args, {
    cwd,
    timeout: 180_000,
    env: { ...process.env, NO_COLOR: "1", DATABASE_URL: "", ...env },
  })

beforeAll(() => {
  rmSync(app, { recursive: true, force: true })
  mkdirSync(app, { recursive: true })
  writeFileSync(
    join(app, "deno.json"),
    JSON.stringify({
      links: [repo],
      imports: { "@sa-messaging/platform": "jsr:@sa-messaging/platform@^0.1.0", effect: "npm:effect@^3.22.4" },
    }),
  )
  writeFileSync(join(app, "main.ts"), consumer)
})

afterAll(() => rmSync(app, { recursive: true, force: true }))

describe("a Deno project imports the package by its name", () => {
  it("`deno publish --dry-run` passes (slow types allowed: Effect's class factories, docs/decisions.md)", async () => {
    const out = await run(["publish", "--dry-run", "--allow-dirty", "--allow-slow-types"], repo)
    expect(out.stderr + out.stdout).toMatch(/Success/)
    // No diagnostic (`error[…]`, `warning[…]`, "Found N problems"); the one notice is the slow types' own.
    expect(out.stderr + out.stdout).not.toMatch(/^\s*(error|warning)\[|Found \d+ problem/im)
    expect(out.status).toBe(0)
  }, 180_000)

  it("`deno check` of an app that embeds it: 0 errors", async () => {
    const out = await run(["check", "main.ts"], app)
    expect(out.stderr).not.toMatch(/ERROR|error:/)
    expect(out.status).toBe(0)
  }, 180_000)

  it("the app runs on Deno.serve and serves a verification and an Arabic proforma's PDF", async () => {
    const out = await run(["run", "--allow-all", "main.ts"], app, { CONSOLE_TOKEN: "deno-project-console" })
    expect(out.stdout.trim().split("\n").at(-1)).toBe(JSON.stringify({
      started: "pending",
      checked: "verified",
      pdf: [200, "application/pdf", "%PDF-"],
    }))
    expect(out.status).toBe(0)
  }, 120_000)
})
