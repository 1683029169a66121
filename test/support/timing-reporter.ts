/**
 * Where the test command's time goes (issue 28), printed before vitest's closing summary: the slowest files (their
 * import and their tests and hooks), and the tests' time by the store they name (a test or suite whose name
 * says memory, PGlite or PostgreSQL), and the costliest files in CPU (the worker's own and the child processes' it
 * waited for, measured by test/support/setup.ts). Files run in parallel, so the sums exceed the wall-clock time. Every
 * file's figures are written to node_modules/.cache/test-timing.json.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import type { Reporter, TestModule } from "vitest/node"

const stores = [["memory", /\bmemory\b/i], ["PGlite", /pglite/i], ["PostgreSQL", /postgres/i]] as const

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

export default class TimingReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const files = modules.map((m) => {
      const d = m.diagnostic()
      return { file: m.moduleId.replace(`${process.cwd()}/`, ""), ms: d.collectDuration + d.duration }
    }).sort((a, b) => b.ms - a.ms)
    const byStore = new Map<string, number>()
    for (const m of modules) {
      for (const test of m.children.allTests()) {
        const ms = test.diagnostic()?.duration ?? 0
        const store = stores.find(([, pattern]) => pattern.test(test.fullName))?.[0] ?? "no store named"
        byStore.set(store, (byStore.get(store) ?? 0) + ms)
      }
    }
    const cpu = modules.flatMap((m) => {
      const c = m.meta().cpu
      return c === undefined ? [] : [{ file: m.moduleId.replace(`${process.cwd()}/`, ""), ...c }]
    }).sort((a, b) => b.own + b.children - a.own - a.children)
    const cpuOwn = cpu.reduce((n, f) => n + f.own, 0)
    const cpuChildren = cpu.reduce((n, f) => n + f.children, 0)
    const total = files.reduce((n, f) => n + f.ms, 0)
    const lines = [
      "",
      `Time by file (${files.length} files, ${seconds(total)} in all, run in parallel); the slowest 15:`,
      ...files.slice(0, 15).map((f) => `  ${seconds(f.ms).padStart(8)}  ${f.file}`),
      ...(cpu.length === 0 ? [] : [
        `CPU by file (${cpu.length} files: ${cpuOwn.toFixed(0)} s in the workers, ${
          cpuChildren.toFixed(0)
        } s in the child processes they waited for); the costliest 15 (own + children):`,
        ...cpu.slice(0, 15).map((f) =>
          `  ${(f.own + f.children).toFixed(1).padStart(6)} s  (${f.own.toFixed(1)} + ${
            f.children.toFixed(1)
          })  ${f.file}`
        ),
      ]),
      "Tests' time by the store they name:",
      ...[...byStore].sort((a, b) => b[1] - a[1]).map(([store, ms]) => `  ${seconds(ms).padStart(8)}  ${store}`),
    ]
    console.log(lines.join("\n"))
    // Every file's figures, for a closer look than the 15 above.
    mkdirSync("node_modules/.cache", { recursive: true })
    writeFileSync(
      "node_modules/.cache/test-timing.json",
      JSON.stringify({ files, cpu, byStore: Object.fromEntries(byStore) }, null, 1),
    )
  }
}
