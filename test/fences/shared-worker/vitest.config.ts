// The two files in one worker that keeps its modules, in their names' order, as the test command runs files.
import { defineConfig } from "vitest/config"
import { BaseSequencer, type TestSpecification } from "vitest/node"

class ByName extends BaseSequencer {
  override sort(files: Array<TestSpecification>) {
    return Promise.resolve([...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId)))
  }
}

export default defineConfig({
  test: {
    include: ["test/fences/shared-worker/*.check.ts"],
    isolate: false,
    pool: "forks",
    maxWorkers: 1,
    minWorkers: 1,
    sequence: { sequencer: ByName },
    setupFiles: process.env.WITHOUT_SETUP ? [] : ["test/support/setup.ts"],
  },
})
