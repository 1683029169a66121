// `npm start` builds first when dist/ (or its store snapshot) is missing or older than any source file. The tests
// that run the Node host as `npm start` does run this too (test/hosts/host-process.ts), from several workers at once:
// one build at a time (a lock beside dist/), and whoever waited finds the build done.
//
// The code only (tsup.config.ts's PLATFORM_BUILD=code: 6 s on a fresh clone, against 24 s with the declarations);
// `--declarations` also writes dist/mod.d.ts when it is missing or older than a source (the package's test, before
// `npm pack`), beside the code and without emptying dist/. `npm run build` and `npm pack` build both at once.
import { execSync } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"

const out = "dist/hosts/node.js"
const lock = "dist.lock"
const newest = (dir) => {
  let t = 0
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs)
  }
  return t
}
// The build's own configuration too: a bundling choice changed in tsup.config.ts is a new build.
// (Read once: the sources do not change while this runs.)
const sources = Math.max(
  ...["core", "ports", "adapters", "hosts"].map(newest),
  ...["mod.ts", "tsup.config.ts", "package.json"].map((f) => statSync(f).mtimeMs),
)
const olderThanSources = (file) => !existsSync(file) || statSync(file).mtimeMs < sources
const stale = () => olderThanSources(out) || !existsSync("dist/store-snapshot/manifest.json")
const declarations = "dist/mod.d.ts"
const wantDeclarations = process.argv.includes("--declarations")

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
const alive = (pid) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return e.code === "EPERM"
  }
}
/** Takes the lock, waiting while another live process holds it (a lock left by a process that died is taken over). */
const take = () => {
  for (let waited = 0;; waited += 200) {
    try {
      mkdirSync(lock)
      writeFileSync(join(lock, "pid"), String(process.pid))
      return
    } catch (e) {
      if (e.code !== "EEXIST") throw e
    }
    let holder = NaN
    try {
      holder = Number(readFileSync(join(lock, "pid"), "utf8"))
    } catch {
      // Made but its pid not yet written: wait.
    }
    if (Number.isInteger(holder) && holder > 0 && !alive(holder)) rmSync(lock, { recursive: true, force: true })
    else if (waited === 0) process.stderr.write("another process is building dist/: waiting for it…\n")
    sleep(200)
  }
}

const tsup = (part) =>
  execSync("npx tsup", { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, PLATFORM_BUILD: part } })
const declarationsStale = () => wantDeclarations && olderThanSources(declarations)

if (stale() || declarationsStale()) {
  take()
  try {
    if (stale()) {
      // The build takes seconds and says nothing of its own: a first `npm start` must not look hung.
      const why = existsSync(out) ? "the sources changed since the last build" : "first start"
      process.stderr.write(`building the server into dist/ (${why}; about 6 s)…\n`)
      const started = Date.now()
      tsup("code")
      process.stderr.write(`built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`)
    }
    if (declarationsStale()) {
      process.stderr.write("writing the package's declarations into dist/mod.d.ts (about 25 s)…\n")
      const started = Date.now()
      tsup("declarations")
      process.stderr.write(`written in ${((Date.now() - started) / 1000).toFixed(1)} s\n`)
    }
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}
