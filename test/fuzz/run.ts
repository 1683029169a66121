/**
 * The differential fuzz from the command line:
 *
 *   npx tsx test/fuzz/run.ts [--runs N] [--seed S] [--targets node,deno,bun,web,express] [--shrink N]
 *                            [--no-fixed] [--quiet] [--json FILE]
 *
 * Prints the requests sent to each way in and in all, the differences, 5xx and dropped connections, and for
 * every class of difference or fault the minimal request and each way in's answer. Exits 1 when any was found.
 */
import { writeFileSync } from "node:fs"
import { parseArgs } from "node:util"
import { type TargetName, targetNames } from "./compare.ts"
import { formatReport, runFuzz } from "./fuzz.ts"

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "1000" },
    seed: { type: "string" },
    targets: { type: "string", default: targetNames.join(",") },
    shrink: { type: "string", default: "200" },
    "no-fixed": { type: "boolean", default: false },
    quiet: { type: "boolean", default: false },
    json: { type: "string" },
    timeout: { type: "string", default: "15000" },
    help: { type: "boolean", default: false },
  },
})

if (values.help) {
  console.log(
    "npx tsx test/fuzz/run.ts [--runs N] [--seed S] [--targets node,deno,bun,web,express] [--shrink STEPS] [--no-fixed] [--quiet] [--json FILE]",
  )
  process.exit(0)
}

const targets = values.targets!.split(",").map((t) => t.trim()) as Array<TargetName>
for (const t of targets) if (!targetNames.includes(t)) throw new Error(`unknown target ${t}`)
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed)

const report = await runFuzz({
  runs: Number(values.runs),
  seed,
  targets,
  shrinkBudget: Number(values.shrink),
  fixed: !values["no-fixed"],
  timeoutMs: Number(values.timeout),
  log: values.quiet ? undefined : (line) => console.error(line),
})
console.log(formatReport(report))
if (values.json) {
  writeFileSync(
    values.json,
    JSON.stringify(
      report,
      (_k, v) => (v instanceof Uint8Array ? Buffer.from(v).toString("latin1") : v),
      2,
    ),
  )
}
process.exit(report.findings.length > 0 ? 1 : 0)
