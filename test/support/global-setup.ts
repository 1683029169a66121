/**
 * The test command's global setup: what is generated from the sources is made once before any test file
 * runs, as the build makes it (tsup.config.ts). The store snapshot every new PGlite store starts from
 * (adapters/sql/snapshot.ts), when it is missing or stale; docs/openapi.json, the document of the declared
 * operations, when it is stale (a changed operation rewrites it, to be committed with it); with DATABASE_URL, the
 * PostgreSQL template database every test's PostgreSQL store is cloned from (test/support/pg-template.ts). All three
 * in one process of their own (test/support/generated.ts).
 */
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../..", import.meta.url))

export default function setup(): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const path = "test/support/generated.ts"
    const child = spawn(process.execPath, ["--import", "tsx", path], { cwd: root, stdio: "inherit" })
    child.on("error", reject)
    child.on(
      "exit",
      (code, signal) => code === 0 ? resolve() : reject(new Error(`${path} failed (${signal ?? `exit code ${code}`})`)),
    )
  })
}
