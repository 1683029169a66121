/**
 * The Bun host. By default it runs the Node host as it is: Bun's node:http server over the shared
 * dispatcher, so that the same bytes get the same answer as on every other host. Bun.serve's parser closes
 * the connection on a method it does not know (`FOO`, lower-case `get`) and answers `OPTIONS *`, a request
 * without Host and header fields over its 16 KiB with a bare 400 or 431 before any code of ours runs; Bun's
 * node:http hands all of them to `clientError`, where the platform answers them in JSON.
 *
 * `BUN_SERVER=serve` runs Bun.serve over the web handler instead, for a deployment behind a proxy that never
 * forwards those requests: Bun's node:http costs 2 to 18 µs of CPU a request more than Bun.serve, by machine
 * (docs/performance.md, "Before and after the product frame"). Every request Bun.serve lets through gets the
 * platform's answer as on every other host.
 */
import { maxHeaderSize } from "node:http"
import { directWebHandler } from "../adapters/http/web.ts"
import { Http } from "../core/limits.ts"
import { settingsTable } from "../adapters/config.ts"
import { answerCommandLine, banner, boot, checkedSetting } from "./start.ts"

answerCommandLine()
const server = await checkedSetting(settingsTable.bunServer)

if (server === "node") await import("./node.ts")
else await serveWithBun()

async function serveWithBun() {
  // deno-lint-ignore no-explicit-any
  const Bun = (globalThis as any).Bun
  const started = await boot()
  // Bun.serve refuses a head over its limit (node:http's `maxHeaderSize`, 16 KiB unless
  // `--max-http-header-size` raises it) with a bare 431: within ours, the fields it lets through need no count.
  const serve = directWebHandler(started.platform.dispatch, {
    serverLimitsHead: maxHeaderSize <= Http.maxHeaderBytes,
    bodyTimeoutMs: started.settings.requestTimeoutMs,
  })
  const bunServer = Bun.serve({
    port: started.settings.port,
    hostname: started.settings.host,
    fetch: (request: Request, srv: { requestIP: (r: Request) => { address: string } | null }) =>
      serve(request, () => srv.requestIP(request)?.address),
  })

  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    started.platform.stopping()
    // Stops accepting and lets the requests in flight finish.
    await bunServer.stop()
    await started.platform.dispose()
    process.exit(0)
  }
  process.on("SIGINT", stop)
  process.on("SIGTERM", stop)
  // The banner last: whoever reads it may stop the host at once (hosts/node.ts).
  for (const line of banner(started, bunServer.port)) console.log(line)
}
