/**
 * Issue 32: `PORT=abc npm start` and every other refused setting stop the start with one line on stderr naming
 * the variable, exit code 2 and no stack trace, before the store opens. The Node host is started as a child
 * process for each (as `npm start` runs it, as test/hosts does); `--help` and `--version` answer instead of starting.
 */
import { spawn } from "node:child_process"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { hostCommand, type HostName, prepareHost, root } from "../hosts/host-process.ts"

/** At most three hosts start at once: the file runs beside others on a shared machine. */
let running = 0
const waiting: Array<() => void> = []
const limited = async <A>(f: () => Promise<A>): Promise<A> => {
  if (running >= 3) await new Promise<void>((ok) => waiting.push(ok))
  running++
  try {
    return await f()
  } finally {
    running--
    waiting.shift()?.()
  }
}

const run = (env: Record<string, string>, args: ReadonlyArray<string> = [], host: HostName = "node") =>
  limited(async () => {
    await prepareHost(host)
    return spawnHost(env, args, host)
  })

const spawnHost = (env: Record<string, string>, args: ReadonlyArray<string>, host: HostName) =>
  new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>((resolve) => {
    const started = Date.now()
    const { command, args: base } = hostCommand(host)
    const child = spawn(command, [...base, ...args], {
      cwd: root,
      env: {
        ...process.env,
        PATH: `${join(root, "node_modules", ".bin")}:${process.env.PATH ?? ""}`,
        DATABASE_URL: "",
        PGLITE_DIR: "memory://",
        PORT: "0",
        HOST: "127.0.0.1",
        NO_COLOR: "1",
        DENO_NO_UPDATE_CHECK: "1",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s))
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s))
    // A start that was not refused would run for ever: stopped, and the test fails on its exit code.
    const timer = setTimeout(() => child.kill("SIGKILL"), 45_000)
    child.once("exit", (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr, ms: Date.now() - started })
    })
  })

describe.concurrent("a refused setting: one line on stderr naming it, exit code 2, no stack trace", () => {
  it.each([
    [{ PORT: "abc" }, "PORT", `"abc"`],
    [{ DATABASE_URL: "not-a-url" }, "DATABASE_URL", `"not-a-url"`],
    [{ DATABASE_URL: "postgres://u:pw@127.0.0.1:1/x", DATABASE_WAIT_MS: "1000" }, "DATABASE_URL", "ECONNREFUSED"],
    [{ SMS_PROVIDER: "twilio" }, "SMS_PROVIDER", `"twilio"`],
    [{ SMS_PROVIDER: "unifonic" }, "UNIFONIC_APP_SID", "SMS_PROVIDER=unifonic"],
    [{ CHAT_PROVIDER: "whatsapp_cloud" }, "WHATSAPP_ACCESS_TOKEN", "CHAT_PROVIDER=whatsapp_cloud"],
    [{ PGLITE_DIR: "/proc/nope" }, "PGLITE_DIR", `"/proc/nope"`],
    [{ CONSOLE_TOKEN: "a" }, "CONSOLE_TOKEN", "at least 16 characters"],
  ])("%j", async (env, variable, shown) => {
    const { code, stdout, stderr } = await run(env)
    expect(code, stderr).toBe(2)
    const lines = stderr.split("\n").filter((l) => l !== "")
    expect(lines, stderr).toHaveLength(1)
    expect(lines[0]).toMatch(new RegExp(`^configuration: ${variable}\\b`))
    expect(lines[0]).toContain(shown)
    expect(lines[0]).toContain("expected")
    expect(stderr).not.toMatch(/^\s+at /m)
    expect(stdout).not.toContain("listening on")
  })
})

describe.concurrent("the Deno and Bun hosts refuse the same way", () => {
  it.each([["deno"], ["bun"]] as const)("%s: PORT=abc and CONSOLE_TOKEN=a", async (host) => {
    for (
      const [env, line] of [
        [{ PORT: "abc" }, /^configuration: PORT="abc" is not accepted; expected an integer/],
        [{ CONSOLE_TOKEN: "a" }, /^configuration: CONSOLE_TOKEN \(a secret of 1 character\) is not accepted/],
      ] as const
    ) {
      const { code, stderr } = await run(env, [], host)
      expect(code, stderr).toBe(2)
      expect(stderr.split("\n").filter((l) => l !== "")).toHaveLength(1)
      expect(stderr).toMatch(line)
    }
  })
})

describe.concurrent("--help and --version answer instead of starting", () => {
  it("--version prints the package's name and version", async () => {
    const { code, stdout } = await run({}, ["--version"])
    expect(code).toBe(0)
    expect(stdout.trim()).toMatch(/^@sa-messaging\/platform \d+\.\d+\.\d+/)
  })

  it("--help prints the usage and every setting, even with a refused one in the environment", async () => {
    const { code, stdout, stderr } = await run({ PORT: "abc" }, ["--help"])
    expect(code, stderr).toBe(0)
    expect(stdout).toContain("Usage: npm start")
    for (const name of ["PORT", "DATABASE_URL", "PGLITE_DIR", "CONSOLE_TOKEN", "PAYMENT_PROVIDER", "PUBLIC_URL"]) {
      expect(stdout).toContain(name)
    }
    expect(stdout).not.toContain("listening on")
  })
})
