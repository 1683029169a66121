/**
 * The Node host: node:http straight into the shared dispatcher. `npm start` runs the build with V8 heap flags
 * (package.json's `start`; why: docs/decisions.md, "Embedded store (PGlite) settings").
 */
import { close, listen, nodeServer } from "../adapters/http/node.ts"
import { banner, boot } from "./start.ts"

const started = await boot()
const server = nodeServer(started.platform.dispatch, { requestTimeoutMs: started.settings.requestTimeoutMs })
const port = await listen(server, started.settings.port, started.settings.host)

// Opt-in (off by default): `MEMORY_LOG_MS=5000` prints the process' memory on stderr every 5 s, one line
// `memory rss=… heapTotal=… heapUsed=… external=… arrayBuffers=…` in bytes (bench/footprint.ts reads it).
const memoryLogMs = started.settings.memoryLogMs
if (memoryLogMs > 0) {
  setInterval(() => {
    const m = process.memoryUsage()
    const fields = Object.entries(m).map(([name, bytes]) => `${name}=${bytes}`)
    process.stderr.write(`memory ${fields.join(" ")}\n`)
  }, memoryLogMs).unref()
}

let stopping = false
const stop = async () => {
  if (stopping) return
  stopping = true
  started.platform.stopping()
  await close(server)
  await started.platform.dispose()
  process.exit(0)
}
process.on("SIGINT", stop)
process.on("SIGTERM", stop)
// The banner last: whoever reads it may stop the host at once, and a SIGTERM before the handler above is installed
// ends the process with the signal instead of stopping it.
for (const line of banner(started, port)) console.log(line)
