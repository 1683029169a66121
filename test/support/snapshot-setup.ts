/**
 * The test command's global setup: the store snapshot every new PGlite store starts from
 * (adapters/sql/snapshot.ts) is made once before any test file runs, when it is missing or stale.
 */
import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"

export default function setup(): void {
  const root = fileURLToPath(new URL("../..", import.meta.url))
  execFileSync(process.execPath, ["--import", "tsx", "scripts/snapshot.ts"], { cwd: root, stdio: "inherit" })
}
