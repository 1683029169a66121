/**
 * The npm package as a TypeScript app gets it: `npm pack` of dist/ as the build makes it (the code built once for
 * the suite by scripts/ensure-built.mjs, which the Node host's tests share, and the bundled declarations it writes
 * beside it for this file, so the pack itself runs no `prepack`: that it is the build is asserted below), installed
 * into a fresh project (`file:` the tarball, the dependencies from npm's cache or the registry), compiled by `tsc`
 * under `module: NodeNext`, `strict`, without `skipLibCheck`, and run: the app embeds the platform and serves a
 * verification end to end.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { appUsage } from "./app-usage.ts"
import { checkerState } from "../support/checker-state.ts"
import { run, runOk } from "../support/run.ts"
import { ensureBuilt } from "../hosts/host-process.ts"

const repo = resolve(import.meta.dirname, "../..")
const work = mkdtempSync(join(tmpdir(), "npm-tarball-"))
const app = join(work, "app")
const tsc = join(repo, "node_modules/typescript/bin/tsc")
const npm = process.platform === "win32" ? "npm.cmd" : "npm"

const consumer = `import { Effect } from "effect"
import { close, listen, makePlatform, nodeServer, type Platform, settingsFromEnv } from "@sa-messaging/platform"

const settings = await Effect.runPromise(settingsFromEnv)
const platform: Platform = await makePlatform({ ...settings, store: "memory", smsProvider: "simulator", clock: "simulated" })
const server = nodeServer(platform.dispatch)
const port: number = await listen(server, 0, "127.0.0.1")
const base = \`http://127.0.0.1:\${port}\`
const key: string = platform.demo!.liveKey
const to = "+966551234567"

const call = async (method: string, path: string, body?: unknown, token = key): Promise<any> => {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: \`Bearer \${token}\`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return res.json()
}

${appUsage}
await close(server)
await platform.dispose()
`

let tarball = ""

beforeAll(async () => {
  await ensureBuilt({ declarations: true })
  await runOk(npm, ["pack", "--ignore-scripts", "--pack-destination", work, "--silent"], { cwd: repo })
  tarball = readdirSync(work).find((f) => f.endsWith(".tgz"))!
  mkdirSync(join(app, "src"), { recursive: true })
  const types = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")).devDependencies["@types/node"]
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify({
      name: "consumer",
      private: true,
      type: "module",
      dependencies: { "@sa-messaging/platform": `file:../${tarball}` },
      devDependencies: { "@types/node": types },
    }),
  )
  writeFileSync(
    join(app, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        module: "NodeNext",
        moduleResolution: "NodeNext",
        target: "ES2022",
        lib: ["ES2022", "DOM"],
        types: ["node"],
        strict: true,
        skipLibCheck: false,
        outDir: "out",
      },
      include: ["src"],
    }),
  )
  writeFileSync(join(app, "src/main.ts"), consumer)
  await runOk(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--silent"], { cwd: app })
  // The build (tsup with its type bundle), when this file is the first to need it: about 30 s quiet, over 240 s beside
  // a loaded suite (2026-11-27).
}, 600_000)

afterAll(() => rmSync(work, { recursive: true, force: true }))

describe("a TypeScript project installs the npm package and uses it", () => {
  it("`npm pack` and `npm publish` build first: `prepack` is the build, and the build is tsup (what made dist/ here)", () => {
    const { scripts } = JSON.parse(readFileSync(join(repo, "package.json"), "utf8"))
    expect([scripts.prepack, scripts.build]).toEqual(["npm run build", "tsup"])
  })

  it("the tarball holds the built entry, its declarations and the docs, not the sources", async () => {
    const listing = (await runOk("tar", ["-tzf", join(work, tarball)])).stdout.split("\n")
    expect(listing).toContain("package/dist/mod.js")
    expect(listing).toContain("package/dist/mod.d.ts")
    expect(listing).toContain("package/dist/fonts/DejaVuSans.ttf")
    expect(listing).toContain("package/dist/fonts/DejaVuSans-Bold.ttf")
    expect(listing).toContain("package/docs/spec/platform-api.md")
    expect(listing.filter((f) => f.startsWith("package/core/"))).toEqual([])
  })

  it("its JavaScript is ASCII (V8 holds a source with any other character at two bytes a character: issue 28)", () => {
    const dist = join(app, "node_modules/@sa-messaging/platform/dist")
    const scripts = readdirSync(dist, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".js"))
    expect(scripts).toContain("mod.js")
    expect(scripts.filter((f) => /[^\x00-\x7f]/.test(readFileSync(join(dist, f), "utf8")))).toEqual([])
  })

  it("compiles with tsc under module NodeNext, strict, without skipLibCheck: 0 errors", async () => {
    // The last passing run's incremental state and output: 2.5 s instead of 7 when the declarations did not change.
    const state = checkerState("npm-tarball-tsc", [".tsbuildinfo", "out"])
    state.restore(app)
    const out = await run(process.execPath, [
      tsc,
      "-p",
      app,
      "--incremental",
      "--tsBuildInfoFile",
      join(app, ".tsbuildinfo"),
    ])
    expect(out.stdout + out.stderr).toBe("")
    expect(out.status).toBe(0)
    state.save(app)
  }, 120_000)

  it("the compiled app embeds the platform and serves a verification and an Arabic proforma's PDF", async () => {
    const out = await run(process.execPath, [join(app, "out/main.js")], {
      cwd: app,
      env: { ...process.env, CONSOLE_TOKEN: "tarball-console-token", DATABASE_URL: "" },
      // A start, a verification and a PDF take seconds; under the suite's load on 2 cores, up to a minute or more.
      timeout: 150_000,
    })
    expect(out.stderr).not.toMatch(/Error/)
    expect(out.stdout.trim().split("\n").at(-1)).toBe(JSON.stringify({
      started: "pending",
      checked: "verified",
      pdf: [200, "application/pdf", "%PDF-"],
    }))
    expect(out.status, out.stderr).toBe(0)
  }, 180_000)
})
