/**
 * The fence of adapters/http/deno-headers.ts: `deno` is the pinned version, and a request served by
 * `Deno.serve` still holds its header list under `Symbol("header list")`, as the fields came. Runs Deno from
 * node_modules/.bin on a probe (test/fences/probes/deno-headers.ts), as the host tests run it.
 */
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { denoVersion } from "../../adapters/http/deno-headers.ts"
import { expectPinned, installedVersion } from "./pinned.ts"
import { run } from "../support/run.ts"

const module = "adapters/http/deno-headers.ts"
const root = fileURLToPath(new URL("../..", import.meta.url))

const moved = (internal: string) =>
  `Deno ${installedVersion("deno")} moved ${internal}: ${module} must be updated before upgrading deno ` +
  `(it was checked against ${denoVersion}; without it the Deno host iterates every request's Headers)`

type Fields = Array<[string, string]>

const probe = async (): Promise<{ deno: string; held: Fields | null; iterated: Fields }> => {
  const out = await run(
    join(root, "node_modules", ".bin", "deno"),
    ["run", "--allow-net", "--node-modules-dir=manual", "test/fences/probes/deno-headers.ts"],
    { cwd: root, timeout: 60_000, env: { ...process.env, NO_COLOR: "1" } },
  )
  expect(out.status, `the Deno probe failed: ${out.stderr}`).toBe(0)
  return JSON.parse(out.stdout.trim().split("\n").at(-1)!)
}

describe(`${module}: Deno's header list`, () => {
  it(`deno is pinned and installed at ${denoVersion}, and that is the runtime node_modules/.bin runs`, async () => {
    expectPinned("deno", denoVersion, module)
    expect((await probe()).deno, `node_modules/.bin/deno is not Deno ${denoVersion}: reinstall (npm ci)`).toBe(
      denoVersion,
    )
  })

  it('a request served by Deno.serve holds its fields under Symbol("header list"), as they came', async () => {
    const { held, iterated } = await probe()
    expect(held, moved('the `Headers` list under `Symbol("header list")` (not found, or not an array)'))
      .not.toBeNull()
    const names = held!.map(([name, value]) => [name.toLowerCase(), value])
    expect(names, moved('the `Headers` list under `Symbol("header list")` (not the fields as they came)')).toEqual([
      ["host", "fence"],
      ["x-fence", "one"],
      ["x-fence-two", "two"],
      ["x-fence", "again"],
      ["connection", "close"],
    ])
    // What the iterator answers instead: sorted, the repeated field joined.
    expect(iterated).toContainEqual(["x-fence", "one, again"])
  })
})
