// `npm start` builds first when dist/ (or its store snapshot) is missing or older than any source file. The tests
// that run the Node host as `npm start` does run this too (test/hosts/host-process.ts), from several workers at once:
// one build at a time (a lock beside dist/), and whoever waited finds the build done.
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
const stale = () => {
  const sources = Math.max(
    ...["core", "ports", "adapters", "hosts"].map(newest),
    ...["mod.ts", "tsup.config.ts", "package.json"].map((f) => statSync(f).mtimeMs),
  )
  return !existsSync(out) || !existsSync("dist/store-snapshot/manifest.json") || statSync(out).mtimeMs < sources
}

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

if (stale()) {
  take()
  try {
    if (stale()) {
      // The build takes about 20 s and says nothing of its own: a first `npm start` must not look hung.
      const why = existsSync(out) ? "the sources changed since the last build" : "first start"
      process.stderr.write(`building the server into dist/ (${why}; about 20 s)…\n`)
      const started = Date.now()
      execSync("npx tsup", { stdio: ["ignore", "ignore", "inherit"] })
      process.stderr.write(`built in ${((Date.now() - started) / 1000).toFixed(1)} s; starting\n`)
    }
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}
