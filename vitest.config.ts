import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Vitest's default on a 2-core machine is one worker: files ran one after another while many of them wait on
    // child processes, sockets and timers. Three workers: the test command with PostgreSQL took 231 s against
    // 356 s on the same quiet machine (2026-11-26, 1,519 tests each).
    maxWorkers: 3,
    minWorkers: 1,
    globalSetup: ["test/support/global-setup.ts"],
    setupFiles: ["test/support/setup.ts"],
    reporters: ["default", "./test/support/timing-reporter.ts"],
  },
})
