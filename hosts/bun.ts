/** The Bun host: Bun.serve over the web handler. */
import { banner, boot, hostname } from "./start.ts"

declare const Bun: any

const started = await boot()
const { serve } = started.platform

const server = Bun.serve({
  port: started.settings.port,
  hostname: hostname(),
  fetch: (request: Request, srv: { requestIP: (r: Request) => { address: string } | null }) =>
    serve(request, () => srv.requestIP(request)?.address),
})
for (const line of banner(started, server.port)) console.log(line)

let stopping = false
const stop = async () => {
  if (stopping) return
  stopping = true
  // Stops accepting and lets in-flight requests finish.
  await server.stop()
  await started.platform.dispose()
  process.exit(0)
}
process.on("SIGINT", stop)
process.on("SIGTERM", stop)
