import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Vitest's default on a 2-core machine is one worker: files ran one after another while many of them wait on
    // child processes, sockets and timers. Three workers: the test command with PostgreSQL took 231 s against
    // 356 s on the same quiet machine (2026-11-26, 1,519 tests each). Four, once the hosts ran from their build
    // (issue 28, 2026-11-28): 305 s against 375 s with three, one run after the other (the cores were busy 158 % of
    // the run with three, 176 % with four).
    maxWorkers: 4,
    // A worker keeps its modules from file to file: each file's process imported the platform again before, 388 s
    // of the suite's 1,046 CPU-seconds (issue 28). test/support/setup.ts puts back what a file may leave behind.
    isolate: false,
    // As many kept as may run: with `isolate: false` and fewer, tinypool ended an idle worker with a task still on it
    // ("Terminating worker thread", an unhandled rejection that failed the run after every file had passed).
    minWorkers: 4,
    globalSetup: ["test/support/global-setup.ts"],
    setupFiles: ["test/support/setup.ts"],
    reporters: ["default", "./test/support/timing-reporter.ts"],
  },
})
