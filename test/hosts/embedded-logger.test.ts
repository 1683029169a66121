/**
 * Issue 32, "Logs": an embedding host hands the platform its own logger (a layer). The README's pino snippet
 * ("Logs"), taken from the README as it is, runs as an app of its own (its import of the package pointed at this
 * checkout's mod.ts), and pino prints the platform's lines: the start, and each request's with its request id.
 */
import { spawn } from "node:child_process"
import { readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { root } from "./host-process.ts"

/** The README's snippet that imports pino. */
const readmeSnippet = (): string => {
  const readme = readFileSync(join(root, "README.md"), "utf8")
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1])
  const withPino = blocks.filter((b) => b.includes('from "pino"'))
  expect(withPino).toHaveLength(1)
  return withPino[0]
}

/** What the test adds after the snippet: two requests through the platform, then a clean end. */
const drive = `
const healthz = await platform.fetch(new Request("http://localhost/healthz", {
  headers: { "x-request-id": "embedded-logger-test-0001" },
}))
const unknown = await platform.fetch(new Request("http://localhost/v1/verify/abc"))
console.error("answered", healthz.status, unknown.status, unknown.headers.get("x-request-id"))
await platform.dispose()
`

const app = join(root, "test", "hosts", `.embedded-logger-${process.pid}.ts`)

const run = (env: Record<string, string>) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", app], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: "", STORE: "memory", CONSOLE_TOKEN: "console-embedded-logger", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s))
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s))
    child.once("exit", (code) => resolve({ code, stdout, stderr }))
  })

afterAll(() => rmSync(app, { force: true }))

describe("an embedding host hands the platform its own logger (a layer); the README shows it with pino", () => {
  it("the README's pino app receives the platform's lines as pino lines, request ids and routes as fields", async () => {
    writeFileSync(app, readmeSnippet().replace('"@sa-messaging/platform"', '"../../mod.ts"') + drive)
    const { code, stdout, stderr } = await run({ LOG_LEVEL: "info" })
    expect(code, stderr).toBe(0)
    const answered = /^answered 200 401 (\S+)$/m.exec(stderr)
    expect(answered, stderr).not.toBeNull()
    const lines = stdout.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)
    // pino's own shape: a numeric level, its time, pid and hostname, the message as `msg`.
    for (const line of lines) {
      expect(line).toMatchObject({ level: expect.any(Number), time: expect.any(Number), msg: expect.any(String) })
    }
    expect(lines.map((l) => l.msg)).toContain("platform started")
    const requests = lines.filter((l) => l.msg === "request")
    expect(requests).toEqual([
      expect.objectContaining({
        level: 30,
        request_id: "embedded-logger-test-0001",
        method: "GET",
        route: "/healthz",
        status: 200,
      }),
      expect.objectContaining({
        level: 30,
        request_id: answered![1],
        route: "/v1/verify/:id",
        status: 401,
        error: "unauthorized",
      }),
    ])
  })

  it("LOG_LEVEL applies to the host's logger too: at warn, pino prints none of these lines", async () => {
    writeFileSync(app, readmeSnippet().replace('"@sa-messaging/platform"', '"../../mod.ts"') + drive)
    const { code, stdout, stderr } = await run({ LOG_LEVEL: "warn" })
    expect(code, stderr).toBe(0)
    expect(stderr).toMatch(/^answered 200 401 /m)
    expect(stdout).toBe("")
  })
})
