/**
 * The differential fuzz in CI: the fixed cases and FUZZ_RUNS (default 5,000) generated requests, each sent to
 * the five ways in (the Node, Deno and Bun hosts as processes, the web handler, the Node handler behind
 * Express), so more than 20,000 requests in all. Every answer must be the same on every way in, and none a
 * 5xx, a dropped connection or anything but a catalogue error or a success with an X-Request-Id.
 *
 * FUZZ_SEED picks another seed (the default is fixed, so CI runs the same requests every time). The report,
 * with every class of difference and its minimal request, is printed whatever the outcome; `npx tsx
 * test/fuzz/run.ts --runs N --seed S` runs the same from the command line.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { formatReport, type FuzzReport, runFuzz } from "./fuzz.ts"

const runs = Number(process.env.FUZZ_RUNS ?? 5_000)
const seed = Number(process.env.FUZZ_SEED ?? 20_261_125)

describe("the five ways in give the same answer to the same bytes", () => {
  let report: FuzzReport

  beforeAll(async () => {
    report = await runFuzz({ runs, seed, shrinkBudget: 60 })
    console.log(formatReport(report))
  }, 300_000)

  it("sent at least 4,000 generated requests to each way in, 20,000 in all", () => {
    console.log(
      `fuzz: ${report.total} requests in all (${Object.entries(report.sent).map(([t, n]) => `${t} ${n}`).join(", ")})` +
        ` in ${(report.elapsedMs / 1000).toFixed(1)} s`,
    )
    expect(report.generated).toBeGreaterThanOrEqual(4_000)
    for (const n of Object.values(report.sent)) expect(n).toBeGreaterThanOrEqual(4_000)
    expect(report.total).toBeGreaterThanOrEqual(20_000)
  })

  it("no 5xx", () => {
    expect(report.fiveXX).toBe(0)
  })

  it("no dropped connection", () => {
    expect(report.dropped).toBe(0)
  })

  it("every answer is a catalogue error or a success with an X-Request-Id", () => {
    expect(report.findings.filter((f) => f.kind === "fault").map((f) => f.key)).toEqual([])
  })

  it("no differences between the ways in", () => {
    expect(report.findings.filter((f) => f.kind === "difference").map((f) => f.key)).toEqual([])
    expect(report.differences).toBe(0)
  })
})
