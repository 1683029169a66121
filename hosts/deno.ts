/**
 * The Deno host: Deno.serve over the web handler. `npm run start:deno` runs it with the npm packages
 * from ./node_modules (deno.json: `nodeModulesDir: "manual"`), so it needs no network at start.
 */
import { banner, boot } from "./start.ts"

declare const Deno: any

const started = await boot()
const { serve } = started.platform

const server = Deno.serve(
  {
    port: started.settings.port,
    hostname: started.settings.host,
    onListen: ({ port }: { port: number }) => {
      for (const line of banner(started, port)) console.log(line)
    },
  },
  (request: Request, info: { remoteAddr: { hostname: string } }) => serve(request, () => info.remoteAddr.hostname),
)

let stopping = false
const stop = async () => {
  if (stopping) return
  stopping = true
  // Stops accepting, lets in-flight requests finish, closes idle keep-alive connections.
  await server.shutdown()
  await started.platform.dispose()
  Deno.exit(0)
}
Deno.addSignalListener("SIGINT", stop)
Deno.addSignalListener("SIGTERM", stop)
