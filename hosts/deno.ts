/** The Deno host: Deno.serve over the web handler. */
import { banner, boot, hostname } from "./start.ts"

declare const Deno: any

const started = await boot()
const { fetch } = started.platform

const server = Deno.serve(
  {
    port: started.settings.port,
    hostname: hostname(),
    onListen: ({ port }: { port: number }) => {
      for (const line of banner(started, port)) console.log(line)
    },
  },
  (request: Request, info: { remoteAddr: { hostname: string } }) => fetch(request, info.remoteAddr.hostname),
)

const stop = async () => {
  await server.shutdown()
  await started.platform.dispose()
  Deno.exit(0)
}
Deno.addSignalListener("SIGINT", stop)
Deno.addSignalListener("SIGTERM", stop)
