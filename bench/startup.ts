/**
 * Issue 28's start benchmark: how long each host takes from its process' start to its first `200` on
 * `/healthz`, and what it holds at idle after, on a new `memory://` store, a new data directory and that
 * directory opened again. Prints figures; asserts nothing about timing.
 *
 *   npx tsx bench/startup.ts [--before REF] [--rounds N] [--hosts node,deno,bun,embedded] [--idle-ms MS]
 *   (also `npm run bench -- startup ...`)
 *
 * - node: the build as `npm start` runs it (dist/hosts/node.js with the start script's node flags; built first
 *   by scripts/ensure-built.mjs when a source is newer, which also makes the store snapshot);
 * - deno, bun: the `start:deno` / `start:bun` command of package.json, from the sources;
 * - embedded: a Node program that imports the built package (dist/mod.js), makes the platform and answers
 *   `/healthz` through `platform.fetch`, as an app embedding it would (bench/startup-embedded.mjs).
 *
 * `--before REF` also measures REF (a commit or branch), checked out in a temporary worktree beside the
 * repository with this checkout's node_modules, and built there: the two trees run alternately, case by case,
 * the order swapped every round, so both see the same minutes of a shared machine. RSS is VmRSS of
 * /proc/<pid>/status after `--idle-ms` (default 3000) of idling.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort } from "../test/support/net.ts"
import { npmStartFlags } from "./verify-lib/support.ts"

const root = resolve(fileURLToPath(new URL("..", import.meta.url)))
const argv = process.argv.slice(2)
const arg = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? argv[i + 1] : undefined
}
const rounds = Number(arg("rounds") ?? 3)
const idleMs = Number(arg("idle-ms") ?? 3000)
const before = arg("before")
type Host = "node" | "deno" | "bun" | "embedded"
const hosts = (arg("hosts") ?? "node,deno,bun,embedded").split(",") as Array<Host>
type Case = "memory://" | "new directory" | "existing directory"
const cases: ReadonlyArray<Case> = ["memory://", "new directory", "existing directory"]

interface Tree {
  readonly name: string
  readonly dir: string
}

const sh = (command: string, args: Array<string>, cwd: string) =>
  execFileSync(command, args, { cwd, stdio: ["ignore", "ignore", "inherit"] })

/** A tree ready to start: built (Node, embedded) with its snapshot made when it has one (Deno and Bun read it from the sources). */
const prepare = (tree: Tree): void => {
  if (existsSync(join(tree.dir, "scripts/snapshot.ts"))) {
    sh(process.execPath, ["--import", "tsx", "scripts/snapshot.ts"], tree.dir)
  }
  sh(process.execPath, ["scripts/ensure-built.mjs"], tree.dir)
}

const checkout = (ref: string): Tree => {
  const sha = execFileSync("git", ["rev-parse", "--short", ref], { cwd: root, encoding: "utf8" }).trim()
  const dir = join(tmpdir(), `startup-bench-${sha}`)
  if (!existsSync(dir)) {
    sh("git", ["worktree", "add", "--detach", dir, sha], root)
    symlinkSync(join(root, "node_modules"), join(dir, "node_modules"))
  }
  return { name: sha, dir }
}

const scriptWords = (tree: Tree, script: string): Array<string> => {
  const pkg = JSON.parse(readFileSync(join(tree.dir, "package.json"), "utf8")) as { scripts: Record<string, string> }
  return pkg.scripts[script].trim().split(/\s+/)
}

const commandOf = (tree: Tree, host: Host): { command: string; args: Array<string> } => {
  switch (host) {
    case "node":
      return { command: process.execPath, args: [...npmStartFlags(tree.dir), "dist/hosts/node.js"] }
    case "deno":
    case "bun": {
      const [runtime, ...args] = scriptWords(tree, `start:${host}`)
      return { command: join(root, "node_modules/.bin", runtime), args }
    }
    case "embedded":
      return {
        command: process.execPath,
        // The flags `npm start` gives the Node host (an app embedding the library chooses its own).
        args: [...npmStartFlags(tree.dir), join(root, "bench/startup-embedded.mjs")],
      }
  }
}

/** The store is PGlite's, whatever this shell selects. */
const environment = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => name !== "DATABASE_URL" && name !== "STORE"),
)

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const rssMb = (pid: number): number => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024
}

/** The process that answers: Deno and Bun may run the host as a child of their launcher. */
const leafPid = (pid: number): number => {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean)
    return children.length === 0 ? pid : leafPid(Number(children[0]))
  } catch {
    return pid
  }
}

const stop = (child: ChildProcess) =>
  new Promise<void>((done) => {
    if (child.exitCode !== null) return done()
    child.once("exit", () => done())
    child.kill("SIGTERM")
    setTimeout(() => child.kill("SIGKILL"), 10_000).unref()
  })

interface Sample {
  readonly ms: number
  readonly rss: number
}

const measure = async (tree: Tree, host: Host, pgliteDir: string): Promise<Sample> => {
  const port = await freePort()
  const { command, args } = commandOf(tree, host)
  const started = performance.now()
  const child = spawn(command, args, {
    cwd: tree.dir,
    env: { ...environment, PORT: String(port), PGLITE_DIR: pgliteDir },
    stdio: ["ignore", "ignore", "pipe"],
  })
  let stderr = ""
  child.stderr!.on("data", (d) => (stderr += d))
  const deadline = started + 120_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${tree.name} ${host} exited: ${stderr.slice(-2000)}`)
    if (performance.now() > deadline) throw new Error(`${tree.name} ${host}: no /healthz within 120 s`)
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false)
    if (ok) break
    await sleep(10)
  }
  const ms = performance.now() - started
  await sleep(idleMs)
  const rss = rssMb(leafPid(child.pid!))
  await stop(child)
  return { ms, rss }
}

const trees: Array<Tree> = [...(before ? [checkout(before)] : []), { name: "HEAD", dir: root }]
for (const tree of trees) prepare(tree)

const results = new Map<string, Array<Sample>>()
const key = (tree: Tree, host: Host, c: Case) => `${host}\t${c}\t${tree.name}`
console.log(`start to the first /healthz 200, and RSS after ${idleMs} ms idle (${rounds} rounds, trees alternating)`)
console.log("round\thost\tstore\ttree\tms\tRSS MB\tload")
for (let round = 1; round <= rounds; round++) {
  const order = round % 2 === 1 ? trees : [...trees].reverse()
  for (const host of hosts) {
    for (const tree of order) {
      const dir = mkdtempSync(join(tmpdir(), "startup-bench-store-"))
      rmSync(dir, { recursive: true })
      try {
        for (const c of cases) {
          const sample = await measure(tree, host, c === "memory://" ? "memory://" : dir)
          results.set(key(tree, host, c), [...(results.get(key(tree, host, c)) ?? []), sample])
          console.log(
            `${round}\t${host}\t${c}\t${tree.name}\t${Math.round(sample.ms)}\t${sample.rss.toFixed(0)}\t${
              loadavg()[0].toFixed(1)
            }`,
          )
        }
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }
  }
}

const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
const targets: Record<Case, { ms: number; rss: number }> = {
  "memory://": { ms: 1500, rss: 200 },
  "new directory": { ms: 1500, rss: 150 },
  "existing directory": { ms: 1000, rss: 150 },
}
console.log("\nmedians (targets: /healthz < 1,000 ms on an existing store, < 1,500 ms on a new one; RSS < 200 MB")
console.log("on memory://, < 150 MB on a directory)")
console.log(`host\tstore\t${trees.map((t) => `${t.name} ms\t${t.name} MB`).join("\t")}\tHEAD within targets`)
for (const host of hosts) {
  for (const c of cases) {
    const cells = trees.map((t) => {
      const samples = results.get(key(t, host, c)) ?? []
      return [median(samples.map((s) => s.ms)), median(samples.map((s) => s.rss))]
    })
    const [ms, rss] = cells[cells.length - 1]
    const within = ms < targets[c].ms && rss < targets[c].rss
      ? "yes"
      : `no (${ms < targets[c].ms ? "" : "time "}${rss < targets[c].rss ? "" : "RSS"})`.replace(" )", ")")
    console.log(
      `${host}\t${c}\t${cells.map(([m, r]) => `${Math.round(m)}\t${r.toFixed(0)}`).join("\t")}\t${within}`,
    )
  }
}
