/**
 * A PostgreSQL of the test's own, from Debian's server binaries (/usr/lib/postgresql/<version>/bin): initdb
 * into a temporary directory, started and stopped with pg_ctl on a free port, so that a test may stop the
 * store under a running host and start it again. Missing binaries fail the test, naming what to install.
 */
import { execFileSync } from "node:child_process"
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort } from "./net.ts"

export const postgresBin = (): string => {
  const base = "/usr/lib/postgresql"
  const versions = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a)) : []
  const found = versions.map((v) => join(base, v, "bin")).find((bin) => existsSync(join(bin, "pg_ctl")))
  if (found === undefined) {
    throw new Error(
      `PostgreSQL's server binaries (initdb, pg_ctl) are not under ${base}/<version>/bin: install Debian's postgresql package`,
    )
  }
  return found
}

export interface OwnPostgres {
  readonly url: string
  readonly stop: () => void
  readonly start: () => void
  /** Stops it if running and removes its directory. */
  readonly destroy: () => void
}

export const ownPostgres = async (): Promise<OwnPostgres> => {
  const bin = postgresBin()
  const dir = mkdtempSync(join(tmpdir(), "own-postgres-"))
  const port = await freePort()
  // initdb refuses to run as root: the cluster is then the postgres user's.
  const asRoot = process.getuid?.() === 0
  const run = (tool: string, args: ReadonlyArray<string>) =>
    asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", join(bin, tool), ...args], { stdio: "pipe" })
      : execFileSync(join(bin, tool), args, { stdio: "pipe" })
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString())
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString())
    chownSync(dir, uid, gid)
  }
  const data = join(dir, "data")
  run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"])
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off`
  let running = false
  const start = () => {
    run("pg_ctl", ["-D", data, "-o", options, "-l", join(dir, "log"), "-w", "-t", "60", "start"])
    running = true
  }
  const stop = () => {
    run("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "60", "stop"])
    running = false
  }
  start()
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy: () => {
      try {
        if (running) stop()
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}
