/**
 * The test command's workers keep their modules from file to file (vitest.config.ts, `isolate: false`; issue 28), and
 * test/support/setup.ts puts back before each file what the last one left. @effect/vitest 0.30's `layer(…)` writes its
 * methods onto Vitest's `it`: without the setup, a file's `it.effect` after a layer file in the same worker runs in that
 * layer (here, without TestClock). Two files in one worker, in that order, with the setup and without it.
 */
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { run } from "../support/run.ts"

const repo = join(import.meta.dirname, "../..")
const vitest = (env: Record<string, string>) =>
  run(process.execPath, [
    join(repo, "node_modules/vitest/vitest.mjs"),
    "run",
    "--config",
    "test/fences/shared-worker/vitest.config.ts",
  ], {
    cwd: repo,
    env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1", ...env },
    timeout: 120_000,
  })

describe("a file after a layer file in the same worker finds @effect/vitest as a new worker would", () => {
  it("with test/support/setup.ts: both files pass", async () => {
    const r = await vitest({})
    expect(r.stdout + r.stderr).toMatch(/Tests\s+2 passed \(2\)/)
    expect(r.status).toBe(0)
  }, 120_000)

  it(
    "without it: the second file's TestClock is missing (what the setup mends; if this passes, the library mended it)",
    async () => {
      const r = await vitest({ WITHOUT_SETUP: "1" })
      expect(r.stdout + r.stderr).toMatch(/Tests\s+1 failed \| 1 passed \(2\)/)
      expect(r.stdout + r.stderr).toMatch(/2-clock\.check\.ts/)
    },
    120_000,
  )
})
