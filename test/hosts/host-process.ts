/**
 * Starts a host (Node, Deno, Bun) as a real child process, waits for its banner and parses it.
 * Shared by the host smoke tests and `bench/http.ts`.
 *
 * Deno and Bun run exactly the command of their npm script (`start:deno`, `start:bun`), with the
 * runtime taken from `node_modules/.bin`. Node runs as `npm start` runs it: dist/hosts/node.js with the start
 * script's node flags, built first when a source is newer (scripts/ensure-built.mjs, one build for all the workers).
 * A start from the bundle took 2.5 s of CPU where `node --import tsx hosts/node.ts` took 6, a refused start 0.3 s
 * where it took 1.7 (issue 28). `TEST_NODE_HOST=source` runs hosts/node.ts through tsx instead (no build: a
 * developer's loop on one host test).
 */
import { type ChildProcess, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort } from "../support/net.ts"

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..")

export type HostName = "node" | "deno" | "bun"
export const hostNames: ReadonlyArray<HostName> = ["node", "deno", "bun"]

const bin = (name: string) => join(root, "node_modules", ".bin", name)

/** The command of an npm script whose first word is a runtime from node_modules/.bin. */
const fromScript = (script: string, runtime: string): { command: string; args: Array<string> } => {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }
  const words = pkg.scripts[script]?.trim().split(/\s+/) ?? []
  if (words[0] !== runtime || words.some((w) => /[&|;<>]/.test(w))) {
    throw new Error(`package.json script ${script} is not a plain \`${runtime} …\` command: ${pkg.scripts[script]}`)
  }
  return { command: bin(runtime), args: words.slice(1) }
}

/** HOST_CPU_PROF=<dir>: the Node and Bun hosts write a V8 CPU profile there when it exits (for the benchmarks). */
const profileFlags = (): Array<string> =>
  process.env.HOST_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.HOST_CPU_PROF}`] : []

/** The node flags of the `start` script (`node scripts/ensure-built.mjs && node <flags> dist/hosts/node.js`). */
export const npmStartFlags = (dir: string = root): Array<string> => {
  const start: string = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).scripts.start
  const run = start.split("&&").at(-1)!.trim()
  const flags = /^node\s+(.*?)\s*dist\/hosts\/node\.js$/.exec(run)
  if (!flags) throw new Error(`package.json's start script does not end in "node … dist/hosts/node.js": ${start}`)
  return flags[1].split(/\s+/).filter((f) => f !== "")
}

/** The Node host from its sources through tsx (`TEST_NODE_HOST=source`), or built as `npm start` runs it. */
const nodeFromSource = () => process.env.TEST_NODE_HOST === "source"

let built: Promise<void> | undefined
/**
 * Builds dist/ when a source is newer than it (scripts/ensure-built.mjs; once per worker, and one build across the
 * workers): awaited before the Node host runs from it; with `declarations`, also dist/mod.d.ts (before the package
 * is packed).
 */
export const ensureBuilt = (options: { readonly declarations?: boolean } = {}): Promise<void> =>
  options.declarations ? runEnsureBuilt(["--declarations"]) : built ??= runEnsureBuilt([])

const runEnsureBuilt = (args: ReadonlyArray<string>) =>
  new Promise<void>((ok, fail) => {
    const child = spawn(process.execPath, ["scripts/ensure-built.mjs", ...args], {
      cwd: root,
      stdio: ["ignore", "ignore", "pipe"],
    })
    let err = ""
    child.stderr!.setEncoding("utf8").on("data", (s: string) => (err += s))
    child.once("error", fail)
    child.once(
      "exit",
      (code) => (code === 0 ? ok() : fail(new Error(`scripts/ensure-built.mjs failed (${code}):\n${err}`))),
    )
  })

/** What a host needs before `hostCommand` can run it: the build, for the Node host run as `npm start` runs it. */
export const prepareHost = (host: HostName): Promise<void> =>
  host === "node" && !nodeFromSource() ? ensureBuilt() : Promise.resolve()

/** The command that runs the host (after `prepareHost`). */
export const hostCommand = (host: HostName): { command: string; args: Array<string> } => {
  switch (host) {
    case "node":
      return nodeFromSource()
        ? { command: process.execPath, args: [...profileFlags(), "--import", "tsx", "hosts/node.ts"] }
        : { command: process.execPath, args: [...npmStartFlags(), ...profileFlags(), "dist/hosts/node.js"] }
    case "deno":
      return fromScript("start:deno", "deno")
    case "bun": {
      const { command, args } = fromScript("start:bun", "bun")
      return { command, args: [...profileFlags(), ...args] }
    }
  }
}

export interface Banner {
  readonly url: string
  readonly consoleToken: string
  readonly demoAccount?: string
  readonly demoApplication?: string
  readonly demoLiveKey?: string
  readonly demoTestKey?: string
  readonly provenDestination?: string
}

const bannerPattern: ReadonlyArray<[keyof Banner, RegExp]> = [
  ["url", /^listening on (http:\/\/\S+)$/m],
  ["consoleToken", /^console token: (\S+)$/m],
  ["demoAccount", /^demo account: (\S+)$/m],
  ["demoApplication", /^demo application: (\S+)$/m],
  ["demoLiveKey", /^demo live key: (\S+)$/m],
  ["demoTestKey", /^demo test key: (\S+)$/m],
  ["provenDestination", /^demo proven destination \(test key\): (\S+)$/m],
]

/** A child process that printed what `ready` waits for. */
export interface ReadyProcess {
  readonly port: number
  readonly baseUrl: string
  readonly child: ChildProcess
  /** Everything the process wrote so far (stdout and stderr). */
  readonly output: () => string
  /** Resolves with the exit code (or the signal name) once the process ends. */
  readonly exited: Promise<number | string>
  /** SIGKILL if still running (cleanup). */
  readonly kill: () => Promise<void>
  /** SIGTERM, then SIGKILL after `graceMs`; answers the exit code. */
  readonly stop: (graceMs?: number) => Promise<number | string>
}

/** Spawns `command` in the project root with PORT=<a free port>, and waits until its output matches `ready`. */
export const spawnReady = async (
  name: string,
  command: string,
  args: ReadonlyArray<string>,
  env: Record<string, string>,
  ready: RegExp,
  timeoutMs = 90_000,
): Promise<ReadyProcess> => {
  // PORT=0 in `env`: the host picks a free port and its banner tells which.
  const chosen = env.PORT === "0" ? 0 : await freePort()
  const child = spawn(command, args, {
    cwd: root,
    env: {
      ...process.env,
      // The hosts run on their own store (PGlite or memory): CI's DATABASE_URL is for the PostgreSQL suites.
      DATABASE_URL: "",
      PATH: `${join(root, "node_modules", ".bin")}:${process.env.PATH ?? ""}`,
      HOST: "127.0.0.1",
      DENO_NO_UPDATE_CHECK: "1",
      NO_COLOR: "1",
      ...env,
      PORT: String(chosen),
    },
    stdio: ["ignore", "pipe", "pipe"],
  })
  let out = ""
  child.stdout!.setEncoding("utf8").on("data", (s: string) => (out += s))
  child.stderr!.setEncoding("utf8").on("data", (s: string) => (out += s))
  const exited = new Promise<number | string>((ok) =>
    child.once("exit", (code, signal) => ok(code ?? signal ?? "unknown"))
  )
  const running = () => child.exitCode === null && child.signalCode === null
  const kill = async () => {
    if (running()) {
      child.kill("SIGKILL")
      await exited
    }
  }
  const stop = async (graceMs = 10_000) => {
    if (running()) child.kill("SIGTERM")
    const timer = setTimeout(() => void kill(), graceMs)
    const code = await exited
    clearTimeout(timer)
    return code
  }
  try {
    await new Promise<void>((ok, fail) => {
      let settled = false
      const done = (f: () => void) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        clearInterval(poll)
        f()
      }
      const timer = setTimeout(
        () => done(() => fail(new Error(`${name}: not ready within ${timeoutMs} ms`))),
        timeoutMs,
      )
      const poll = setInterval(() => {
        if (ready.test(out)) done(ok)
      }, 25)
      void exited.then((code) => done(() => fail(new Error(`${name} exited (${code}) before it was ready`))))
    })
  } catch (e) {
    await kill()
    throw new Error(`${(e as Error).message}\n--- output ---\n${out}`)
  }
  const port = chosen !== 0 ? chosen : Number(/^listening on http:\/\/\S+:(\d+)$/m.exec(out)?.[1])
  return { port, baseUrl: `http://127.0.0.1:${port}`, child, output: () => out, exited, kill, stop }
}

export interface HostProcess extends ReadyProcess {
  readonly host: HostName
  readonly banner: Banner
}

/**
 * Spawns the host with `env` on top of this process's environment, and waits until it printed the
 * whole banner (the last demo line, or the console token line when `demo: false`).
 */
export const startHost = async (
  host: HostName,
  env: Record<string, string>,
  opts: { timeoutMs?: number; demo?: boolean; args?: ReadonlyArray<string> } = {},
): Promise<HostProcess> => {
  await prepareHost(host)
  const { command, args: base } = hostCommand(host)
  const args = [...base, ...(opts.args ?? [])]
  const last = opts.demo === false ? /^console token: \S+$/m : /^demo proven destination \(test key\): \S+$/m
  const p = await spawnReady(host, command, args, env, last, opts.timeoutMs)
  const out = p.output()
  const banner: Record<string, string> = {}
  for (const [name, re] of bannerPattern) {
    const m = re.exec(out)
    if (m) banner[name] = m[1]
  }
  return { ...p, host, banner: banner as unknown as Banner }
}
