/**
 * Test harness: real server processes (the Node host as `npm start` runs it: test/hosts/host-process.ts) on one
 * PostgreSQL, each on a port of its own, every one in a fresh schema so runs never see each other's rows.
 *
 * - `freshPgSchema(url)` creates `mp_<random>` and answers the url whose `search_path` is that schema
 *   (`?options=-c search_path=…`, which node-postgres, under @effect/sql-pg, passes to the server).
 * - `spawnServer` starts one process and resolves once it printed its banner and `/healthz` answers;
 *   the banner is parsed (`console token: …`, and the `demo …` lines of the process that seeded the demo).
 * - `stop()` sends SIGTERM to the process group it started, then SIGKILL after a grace.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { hostCommand, prepareHost } from "../hosts/host-process.ts"
import { type Call, freePort, jsonCall } from "./net.ts"
import { createSchema, dropSchema, withSearchPath } from "./pg.ts"

const root = fileURLToPath(new URL("../..", import.meta.url))

export interface PgSchema {
  readonly schema: string
  /** The database url whose connections use the schema. */
  readonly url: string
  /** A `pg` client on the schema, for reading tables from the test. */
  readonly client: pg.Client
  /** A second client for holding locks while the first reads. */
  readonly connect: () => Promise<pg.Client>
  readonly drop: () => Promise<void>
}

export const freshPgSchema = async (databaseUrl: string): Promise<PgSchema> => {
  const schema = `mp_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`
  await createSchema(databaseUrl, schema)
  const url = withSearchPath(databaseUrl, schema)
  const clients: Array<pg.Client> = []
  const connect = async () => {
    const c = new pg.Client({ connectionString: url })
    await c.connect()
    clients.push(c)
    return c
  }
  const client = await connect()
  return {
    schema,
    url,
    client,
    connect,
    drop: async () => {
      for (const c of clients) await c.end().catch(() => {})
      await dropSchema(databaseUrl, schema)
    },
  }
}

export interface DemoKeys {
  readonly accountId: string
  readonly applicationId: string
  readonly liveKey: string
  readonly testKey: string
}

export interface ServerProcess {
  readonly port: number
  readonly baseUrl: string
  readonly consoleToken: string
  /** Every stdout line so far. */
  readonly stdout: ReadonlyArray<string>
  /** Set when this process seeded the demo account. */
  readonly demo: () => DemoKeys | undefined
  readonly pid: number
  /** fetch against this process (see `Call`). */
  readonly call: Call
  readonly console: (method: string, path: string, body?: unknown) => Promise<any>
  readonly stop: () => Promise<void>
}

export interface SpawnOptions {
  readonly databaseUrl: string
  readonly consoleToken: string
  readonly port?: number
  readonly env?: Record<string, string>
  /** How long to wait for the banner and /healthz (default 90 s). */
  readonly timeoutMs?: number
}

const bannerValue = (lines: ReadonlyArray<string>, label: string) => {
  const line = lines.find((l) => l.startsWith(`${label}: `))
  return line === undefined ? undefined : line.slice(label.length + 2).trim()
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once("exit", () => resolve())
  })

export const spawnServer = async (options: SpawnOptions): Promise<ServerProcess> => {
  const port = options.port ?? (await freePort())
  await prepareHost("node")
  const { command, args } = hostCommand("node")
  const child = spawn(command, args, {
    cwd: root,
    // Its own process group, so that stop() reaches whatever the host started.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: options.databaseUrl,
      CONSOLE_TOKEN: options.consoleToken,
      SMS_PROVIDER: "simulator",
      CLOCK: "system",
      ...options.env,
    },
  })
  const stdout: Array<string> = []
  const stderr: Array<string> = []
  let partial = ""
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    partial += chunk
    const lines = partial.split("\n")
    partial = lines.pop() ?? ""
    stdout.push(...lines.map((l) => l.trimEnd()))
  })
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => stderr.push(chunk))

  const baseUrl = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return
    const gone = exited(child)
    try {
      process.kill(-child.pid, "SIGTERM")
    } catch { /* already gone */ }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL")
      } catch { /* already gone */ }
    }, 5_000)
    await gone
    clearTimeout(timer)
  }

  const deadline = Date.now() + (options.timeoutMs ?? 90_000)
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`server on port ${port} exited with ${child.exitCode}:\n${stdout.join("\n")}\n${stderr.join("")}`)
    }
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`server on port ${port} did not start in time:\n${stdout.join("\n")}\n${stderr.join("")}`)
    }
    if (stdout.some((l) => l.startsWith("console token: "))) {
      const healthy = await fetch(`${baseUrl}/healthz`).then((r) => r.status === 200, () => false)
      if (healthy) break
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  if (stdout[0] !== `listening on http://127.0.0.1:${port}`) {
    await stop()
    throw new Error(`unexpected banner: ${stdout.join("\n")}`)
  }

  const call = jsonCall(baseUrl)

  return {
    port,
    baseUrl,
    consoleToken: bannerValue(stdout, "console token")!,
    stdout,
    pid: child.pid!,
    demo: () => {
      const liveKey = bannerValue(stdout, "demo live key")
      if (liveKey === undefined) return undefined
      return {
        accountId: bannerValue(stdout, "demo account")!,
        applicationId: bannerValue(stdout, "demo application")!,
        liveKey,
        testKey: bannerValue(stdout, "demo test key")!,
      }
    },
    call,
    console: async (method, path, body) => {
      const res = await call(method, `/console/v1${path}`, {
        key: bannerValue(stdout, "console token")!,
        ...(method === "GET" ? {} : { body: body ?? {} }),
      })
      if (res.status >= 300) throw new Error(`console ${method} ${path} -> ${res.status} ${JSON.stringify(res.body)}`)
      return res.body.data
    },
    stop,
  }
}
