/**
 * "Adding a product is one folder and one line" (issue 27), done as a contributor does it, on a copy of the
 * project: the example product's files (test/frame/example-product/, at the paths a product's files take) are
 * laid over the copy, where none of them exists, and the product is added to the list in adapters/products.ts
 * (its import and one line). Nothing else is touched. Then tsc accepts the copy, the store contract runs the
 * product's own contract on every store, and the copy's server (the Node host, from its sources) serves it:
 * its scope on keys made in the console, its inclusion, its error code, its decoding, its migration, its job on
 * the simulated clock, and its tag, paths, code and scopes in `/openapi.json`. docs/adding-a-product.md is
 * this test in words.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process"
import { promisify } from "node:util"
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkerState } from "../support/checker-state.ts"
import { type Call, type ConsoleCall, consoleCaller, jsonCall } from "../support/net.ts"

const repo = fileURLToPath(new URL("../..", import.meta.url))
const example = join(repo, "test/frame/example-product")
const bin = (name: string) => join(repo, "node_modules/.bin", name)
const run = promisify(execFile)
let copy = ""

/** Every file under `dir`, as paths relative to it. */
const filesUnder = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path).map((f) => join(name, f)) : [name]
  })

/** The product's files, at the paths they take in the project (the folder's README says what it is). */
const productFiles = filesUnder(example).filter((f) => f !== "README.md")

/** The one central edit: the product's import, and its line at the end of the list. */
const addToList = (source: string): string => {
  const lines = source.split("\n")
  const lastImport = lines.length - 1 - [...lines].reverse().findIndex((l) => l.startsWith("import "))
  lines.splice(lastImport + 1, 0, 'import { remindersProduct } from "./modules/reminders.ts"')
  const end = lines.findIndex((l, i) =>
    i > lines.findIndex((x) => x.startsWith("export const products = ")) && l === "])"
  )
  lines.splice(end, 0, "  remindersProduct,")
  return lines.join("\n")
}

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), "example-product-"))
  const tracked = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: repo })
    .toString()
    .split("\0")
    .filter((f) => f !== "" && !f.startsWith("test/frame/example-product/") && existsSync(join(repo, f)))
  for (const f of tracked) {
    mkdirSync(dirname(join(copy, f)), { recursive: true })
    cpSync(join(repo, f), join(copy, f))
  }
  symlinkSync(join(repo, "node_modules"), join(copy, "node_modules"), "dir")
  for (const f of productFiles) {
    if (existsSync(join(copy, f))) throw new Error(`${f} exists already: the example product must only add files`)
    mkdirSync(dirname(join(copy, f)), { recursive: true })
    cpSync(join(example, f), join(copy, f))
  }
  const list = join(copy, "adapters/products.ts")
  writeFileSync(list, addToList(readFileSync(list, "utf8")))
}, 120_000)

afterAll(() => {
  if (copy !== "") rmSync(copy, { recursive: true, force: true })
})

describe("adding a product is its files and one line in the products list", () => {
  it("the product's files are new files, and the list gains exactly its import and its line", () => {
    const before = readFileSync(join(repo, "adapters/products.ts"), "utf8").split("\n")
    const after = readFileSync(join(copy, "adapters/products.ts"), "utf8").split("\n")
    expect(after.filter((l) => !before.includes(l))).toEqual([
      'import { remindersProduct } from "./modules/reminders.ts"',
      "  remindersProduct,",
    ])
    expect(after.length).toBe(before.length + 2)
    expect(productFiles.map((f) => relative(".", f)).sort()).toEqual([
      "adapters/memory/reminders.ts",
      "adapters/modules/reminders.ts",
      "adapters/sql/migrations/reminders/0001_reminders.ts",
      "adapters/sql/reminders.ts",
      "core/reminders/errors.ts",
      "core/reminders/model.ts",
      "core/reminders/operations.ts",
      "core/reminders/scopes.ts",
      "core/reminders/service.ts",
      "ports/store/reminders.ts",
      "test/store/contracts/reminders.ts",
    ])
  })

  // Run asynchronously: a synchronous child would hold this worker's event loop (and vitest's calls to it).
  it(
    "tsc accepts the product in the list: the list's order, its types and its operations' errors, in everything the list reaches",
    async () => {
      // The project's compiler options over what a product's line in the list can break: the layers (core, ports,
      // adapters), the hosts and the embedding entry that fold the list, the store contract that runs the product's
      // own, and the list's order checks (test/frame/product-order.ts). The rest of test/, bench/ and examples/ do
      // not see a product they do not name, and checking them here took 12 of the 28 s.
      const reached = ["core", "ports", "adapters", "hosts", "mod.ts", "test/store/contract.ts", "test/store/contracts"]
      writeFileSync(
        join(copy, "tsconfig.product.json"),
        JSON.stringify({ extends: "./tsconfig.json", include: [...reached, "test/frame/product-order.ts"] }),
      )
      // Every file of the product is under those folders.
      for (const f of productFiles) expect(reached.some((r) => f === r || f.startsWith(`${r}/`)), f).toBe(true)
      // The last passing run's incremental state: 5 CPU-seconds instead of 20 when the sources did not change.
      const state = checkerState("adding-a-product-tsc", [".tsbuildinfo"])
      state.restore(copy)
      const { stdout } = await run(bin("tsc"), [
        "--noEmit",
        "-p",
        "tsconfig.product.json",
        "--incremental",
        "--tsBuildInfoFile",
        ".tsbuildinfo",
      ], { cwd: copy })
      expect(stdout).toBe("")
      state.save(copy)
    },
    240_000,
  )

  it("the store contract runs the product's own contract on the memory store, PGlite and PostgreSQL", async () => {
    const { stdout } = await run(bin("vitest"), [
      "run",
      "test/store/contract.test.ts",
      "-t",
      "reminders",
      "--reporter=verbose",
      // One file: one worker (each of the config's kept workers would be a process started for nothing).
      "--maxWorkers=1",
      "--minWorkers=1",
    ], {
      cwd: copy,
      env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
      maxBuffer: 64 * 1024 * 1024,
    })
    const passed = Number(/Tests\s+(\d+) passed/.exec(stdout)?.[1] ?? 0)
    expect(passed, stdout).toBe(process.env.DATABASE_URL === undefined ? 2 : 3)
    expect(stdout).toMatch(/reminders > reminders: counted and listed per application/)
  }, 240_000)
})

describe("the copy's server serves the added product", () => {
  let server: ChildProcess | undefined
  let call: Call
  let console: ConsoleCall
  const consoleToken = "example-product-console-token"

  beforeAll(async () => {
    // From its sources (the copy is not built), through tsx's loader in the one process.
    const child = spawn(process.execPath, ["--import", "tsx", "hosts/node.ts"], {
      cwd: copy,
      env: {
        ...process.env,
        PORT: "0",
        HOST: "127.0.0.1",
        STORE: "sql",
        PGLITE_DIR: "memory://",
        DATABASE_URL: "",
        CLOCK: "simulated",
        SMS_PROVIDER: "simulator",
        CONSOLE_TOKEN: consoleToken,
      },
      stdio: ["ignore", "pipe", "pipe"],
    })
    server = child
    let output = ""
    const baseUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 90_000)
      const read = (chunk: Buffer) => {
        output += chunk.toString()
        const found = /listening on (http:\/\/\S+)/.exec(output)
        if (found) {
          clearTimeout(timer)
          resolve(found[1])
        }
      }
      child.stdout!.on("data", read)
      child.stderr!.on("data", read)
      child.on("exit", (code) => reject(new Error(`the server exited (${code}):\n${output}`)))
    })
    call = jsonCall(baseUrl)
    console = consoleCaller(call, consoleToken)
  }, 120_000)

  afterAll(() => {
    server?.kill("SIGTERM")
  })

  /** An application and keys of these accesses, made in the console. */
  const keysOf = async (...accesses: ReadonlyArray<unknown>) => {
    const account = await console("POST", "/accounts", { name: "Reminding" })
    const app = await console("POST", `/accounts/${account.id}/applications`, { name: "Shop", approved: true })
    const keys: Array<string> = []
    for (const access of accesses) {
      keys.push((await console("POST", `/applications/${app.id}/keys`, { mode: "live", access })).key)
    }
    return keys
  }

  it("a key holding its scope schedules; the limit answers its own code; a bad body names the fields", async () => {
    const [write] = await keysOf(["reminders:write"])
    for (let i = 0; i < 3; i++) {
      const res = await call("POST", "/v1/reminders", { key: write, body: { text: `call ${i}`, due_in_seconds: 60 } })
      expect(res.status).toBe(201)
      expect(res.body).toMatchObject({ text: `call ${i}`, status: "scheduled" })
    }
    const refused = await call("POST", "/v1/reminders", { key: write, body: { text: "one more", due_in_seconds: 60 } })
    expect(refused.status).toBe(409)
    expect(refused.body.error).toBe("too_many_reminders")
    expect(refused.body.message).toMatch(/3 reminders/)
    const bad = await call("POST", "/v1/reminders", { key: write, body: { text: "", due_in_seconds: 0, extra: 1 } })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({
      error: "invalid_request",
      errors: { text: "invalid", due_in_seconds: "invalid", extra: "unknown" },
    })
  })

  it("its scopes: write includes read, full covers both, another product's scope is refused, an unknown one cannot be held", async () => {
    const [write, read, verify, full] = await keysOf(["reminders:write"], ["reminders:read"], ["verify:send"], "full")
    expect((await call("GET", "/v1/reminders", { key: write })).status).toBe(200)
    expect((await call("GET", "/v1/reminders", { key: read })).status).toBe(200)
    expect((await call("GET", "/v1/reminders", { key: full })).status).toBe(200)
    const body = { text: "x", due_in_seconds: 5 }
    const readOnly = await call("POST", "/v1/reminders", { key: read, body })
    expect(readOnly.status).toBe(403)
    expect(readOnly.body.error).toBe("insufficient_scope")
    expect(readOnly.headers.get("www-authenticate")).toContain("scope=reminders:write")
    expect((await call("GET", "/v1/reminders", { key: verify })).status).toBe(403)
    const account = await console("POST", "/accounts", { name: "Unknown scope" })
    const app = await console("POST", `/accounts/${account.id}/applications`, { name: "Shop", approved: true })
    const unknown = await call("POST", `/console/v1/applications/${app.id}/keys`, {
      key: consoleToken,
      body: { mode: "live", access: ["reminders:delete"] },
    })
    expect(unknown.status).toBe(400)
    expect(unknown.body.errors).toMatchObject({ access: "invalid" })
  })

  it("its job sends what falls due on the simulated clock's advance (its table, made by its migration, on PGlite)", async () => {
    const [write] = await keysOf(["reminders:write"])
    await call("POST", "/v1/reminders", { key: write, body: { text: "soon", due_in_seconds: 30 } })
    await call("POST", "/v1/reminders", { key: write, body: { text: "later", due_in_seconds: 3_600 } })
    await console("POST", "/simulator/clock", { advance_ms: 31_000 })
    const listed = await call("GET", "/v1/reminders", { key: write })
    expect(listed.body.data.map((r: { text: string; status: string }) => [r.text, r.status])).toEqual([
      ["soon", "sent"],
      ["later", "scheduled"],
    ])
  })

  it("/openapi.json documents it: its tag, its paths, its code under 409, its scopes and what they include", async () => {
    const document = (await call("GET", "/openapi.json")).body
    expect(document.tags).toContainEqual({ name: "reminders", description: "Reminders an application schedules." })
    const schedule = document.paths["/v1/reminders"].post
    expect(schedule.operationId).toBe("reminders.schedule")
    expect(schedule.tags).toEqual(["reminders"])
    expect(schedule["x-scope"]).toBe("reminders:write")
    expect(schedule.responses["409"].description).toContain("too_many_reminders")
    expect(document.components.schemas.Scope.enum).toEqual(
      expect.arrayContaining(["reminders:read", "reminders:write"]),
    )
    expect(document["x-scopes"]).toContainEqual({
      scope: "reminders:write",
      includes: ["reminders:read"],
      connected_app_only: false,
      description: "Schedule reminders.",
    })
  })
})
