/**
 * The fence of adapters/http/node-parser-refusals.ts: `bun` is the pinned version, and node:http on Node and
 * on Bun still reports a refused request as the module reads it (`clientError`'s code and raw bytes, the
 * socket taken from the parser by a `data` listener). Runs a probe (test/fences/probes/node-parser.ts) on the
 * Node that runs the tests, through tsx, and on Bun from node_modules/.bin, as the host tests run them.
 */
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { checkedAgainst } from "../../adapters/http/node-parser-refusals.ts"
import { expectPinned } from "./pinned.ts"
import { run } from "../support/run.ts"

const module = "adapters/http/node-parser-refusals.ts"
const root = fileURLToPath(new URL("../..", import.meta.url))
const probeFile = "test/fences/probes/node-parser.ts"

interface Probe {
  readonly runtime: string
  readonly version: string
  readonly method: { readonly headOverflow: boolean; readonly bytes?: string; readonly later: string }
  readonly overflow: { readonly headOverflow: boolean }
}

const probe = async (command: string, args: Array<string>): Promise<Probe> => {
  const out = await run(command, [...args, probeFile], {
    cwd: root,
    timeout: 60_000,
    env: { ...process.env, NO_COLOR: "1" },
  })
  expect(out.status, `the probe failed on ${command}: ${out.stderr}`).toBe(0)
  return JSON.parse(out.stdout.trim().split("\n").at(-1)!)
}

/** Bun's probe, run once for the two Bun tests. */
let bunProbe: Promise<Probe> | undefined
const onBun = () => bunProbe ??= probe(join(root, "node_modules", ".bin", "bun"), [])

const moved = (runtime: string, internal: string, upgrade: string) =>
  `${runtime} moved ${internal}: ${module} must be updated before ${upgrade} ` +
  `(it was checked against Node ${checkedAgainst.node} and Bun ${checkedAgainst.bun})`

const refusedHead = "FOO /fence HTTP/1.1\r\nHost: fence\r\nContent-Length: 5\r\n\r\nab"

/** What both runtimes report alike: the refused bytes, and the overflow's code. */
const expectRefusals = (p: Probe, runtime: string, upgrade: string) => {
  expect(p.method.headOverflow).toBe(false)
  expect(p.method.bytes, moved(runtime, "`clientError`'s `err.rawPacket` (the refused request's bytes)", upgrade))
    .toBe(refusedHead)
  expect(p.overflow.headOverflow, moved(runtime, "`clientError`'s `err.code` `HPE_HEADER_OVERFLOW`", upgrade))
    .toBe(true)
}

describe(`${module}: how node:http reports what its parser refuses`, () => {
  it(`on Node ${process.versions.node}: the refused bytes, the overflow's code, the rest of the body after`, async () => {
    const node = `Node ${process.versions.node}`
    const p = await probe(process.execPath, ["--import", "tsx"])
    expect(p.runtime).toBe("node")
    expectRefusals(p, node, "running on it")
    expect(
      p.method.later,
      moved(
        node,
        "the refused request's socket (a `data` listener no longer takes it from the parser)",
        "running on it",
      ),
    ).toBe("cde")
  })

  it(`bun is pinned and installed at ${checkedAgainst.bun}, and that is the runtime node_modules/.bin runs`, async () => {
    expectPinned("bun", checkedAgainst.bun, module)
    expect((await onBun()).version, `node_modules/.bin/bun is not Bun ${checkedAgainst.bun}: reinstall (npm ci)`)
      .toBe(checkedAgainst.bun)
  })

  it(`on Bun ${checkedAgainst.bun}: the refused bytes, the overflow's code, nothing after the refused packet`, async () => {
    const bun = `Bun ${checkedAgainst.bun}`
    const p = await onBun()
    expect(p.runtime).toBe("bun")
    expectRefusals(p, bun, "upgrading bun")
    expect(
      p.method.later,
      `${bun}'s node:http now hands a refused request's later bytes to a \`data\` listener: ${module} can read ` +
        "the body there as on Node (drop `onBun` and `answerWithoutBody`) before upgrading bun",
    ).toBe("")
  })
})
