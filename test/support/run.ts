/**
 * Runs a command to its end without blocking the test worker. `spawnSync` and `execFileSync` hold the worker's
 * event loop for as long as the child runs: a minute of `npm pack`, `tsc` or `deno publish` under load, and
 * vitest's worker cannot read the answer to its own `onTaskUpdate` call before its fixed 60 s RPC timeout fires
 * ("[vitest-worker]: Timeout calling onTaskUpdate": every test passes and the run exits 1).
 */
import { spawn } from "node:child_process"

export interface Ran {
  readonly status: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

export interface RunOptions {
  readonly cwd?: string
  readonly env?: NodeJS.ProcessEnv
  /** Kills the child after this many milliseconds (SIGKILL), as spawnSync's `timeout`. */
  readonly timeout?: number
}

export const run = (command: string, args: ReadonlyArray<string>, options: RunOptions = {}): Promise<Ran> =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] })
    const out: Array<Buffer> = []
    const err: Array<Buffer> = []
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk))
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk))
    const timer = options.timeout === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), options.timeout)
    child.on("error", (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.on("close", (status, signal) => {
      clearTimeout(timer)
      resolve({
        status,
        signal,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      })
    })
  })

/** `run`, failing with the command's output unless it exits 0 (as execFileSync does). */
export const runOk = async (command: string, args: ReadonlyArray<string>, options: RunOptions = {}): Promise<Ran> => {
  const ran = await run(command, args, options)
  if (ran.status !== 0) {
    throw Object.assign(
      new Error(`${command} ${args.join(" ")} exited ${ran.status ?? ran.signal}:\n${ran.stderr}${ran.stdout}`),
      ran,
    )
  }
  return ran
}
