/**
 * Server processes on one PostgreSQL for the webhook benchmarks and tests: a fresh schema, N Node
 * hosts (the Node host as `npm start` runs it, test/hosts/host-process.ts: SIGKILL reaches the server itself), console
 * calls.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { randomUUID } from "node:crypto"
import { createServer } from "node:net"
import * as path from "node:path"
import pg from "pg"
import { hostCommand, prepareHost } from "../../test/hosts/host-process.ts"

const root = path.resolve(import.meta.dirname, "../..")

/** A schema of its own; answers the url whose `search_path` is that schema, and its cleanup. */
export const freshSchema = async (url: string) => {
  const schema = `wh_${randomUUID().replaceAll("-", "").slice(0, 16)}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`CREATE SCHEMA ${schema}`)
  await admin.query(`SET search_path TO ${schema}`)
  const u = new URL(url)
  u.searchParams.set("options", `-c search_path=${schema}`)
  return {
    url: u.toString(),
    query: async (text: string): Promise<Array<any>> => (await admin.query(text)).rows,
    drop: async () => {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`).catch(() => undefined)
      await admin.end()
    },
  }
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer()
    s.once("error", reject)
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })

export interface Host {
  readonly baseUrl: string
  readonly child: ChildProcess
  /** Whether the process is gone. */
  exited: boolean
}

export const startHost = async (
  databaseUrl: string,
  consoleToken: string,
  env: Record<string, string> = {},
): Promise<Host> => {
  const port = await freePort()
  await prepareHost("node")
  const { command, args } = hostCommand("node")
  const child = spawn(command, args, {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      CONSOLE_TOKEN: consoleToken,
      PORT: String(port),
      HOST: "127.0.0.1",
      CLOCK: "system",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  })
  const host: Host = { baseUrl: `http://127.0.0.1:${port}`, child, exited: false }
  child.once("exit", () => (host.exited = true))
  let output = ""
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`host did not start:\n${output}`)), 60_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes("listening on")) {
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", (c: Buffer) => (output += c.toString()))
    child.once("exit", (code) => reject(new Error(`host exited (${code}):\n${output}`)))
  })
  return host
}

export const stopHost = async (host: Host, signal: NodeJS.Signals = "SIGTERM") => {
  if (host.exited) return
  const gone = new Promise<void>((resolve) => host.child.once("exit", () => resolve()))
  host.child.kill(signal)
  await gone
}

/** A console call; answers `data` and throws on anything but 2xx. */
export const consoleCall = async (host: Host, token: string, method: string, p: string, body: unknown = {}) => {
  const res = await fetch(`${host.baseUrl}/console/v1${p}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: method === "GET" ? undefined : JSON.stringify(body),
  })
  const json: any = await res.json()
  if (res.status >= 300) throw new Error(`console ${method} ${p} -> ${res.status} ${JSON.stringify(json)}`)
  return json.data
}

export const apiCall = async (host: Host, key: string, method: string, p: string, body?: unknown) => {
  const res = await fetch(`${host.baseUrl}${p}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as any }
}
