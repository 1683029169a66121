/**
 * The Deno host: Deno.serve over the web handler. `npm run start:deno` runs it with the npm packages
 * from ./node_modules (deno.json: `nodeModulesDir: "manual"`), so it needs no network at start.
 */
import { banner, boot } from "./start.ts"

declare const Deno: any

const started = await boot()
const { serve } = started.platform

// The answers in progress that had to wait (a body still arriving, the store). Deno 2.9's `server.shutdown()`
// cuts the body of a request that is still arriving (denoland/deno#36809), so the stop below lets them
// finish first.
const answering = new Set<Promise<Response>>()
const tracked = (answer: Promise<Response>) => {
  answering.add(answer)
  const done = () => answering.delete(answer)
  answer.then(done, done)
  return answer
}
/** An answer ready at once is returned at once (the hot path): only a promise is tracked. */
const track = (answer: Response | Promise<Response>) => answer instanceof Promise ? tracked(answer) : answer

let stopping = false
const stop = async () => {
  if (stopping) return
  stopping = true
  started.platform.stopping()
  while (answering.size > 0) await Promise.allSettled(answering) // the requests in flight (see above)
  // Stops accepting, lets what is left finish, closes idle keep-alive connections.
  await server.shutdown()
  await started.platform.dispose()
  Deno.exit(0)
}
// Installed before Deno.serve prints the banner: whoever reads it may stop the host at once, and a SIGTERM before
// the listener is installed ends the process with the signal instead of stopping it (`server` is set by then).
Deno.addSignalListener("SIGINT", stop)
Deno.addSignalListener("SIGTERM", stop)

const server = Deno.serve(
  {
    port: started.settings.port,
    hostname: started.settings.host,
    onListen: ({ port }: { port: number }) => {
      for (const line of banner(started, port)) console.log(line)
    },
  },
  // One expression, the tracking in functions of its own: measured against the same steps written out in a
  // block here, Deno's young-generation collections took 3.2 against 4.9 ms each and a request about 0.7 µs
  // less CPU (Deno 2.9, `GET` of an unknown verification on the memory store under wrk; see
  // docs/performance.md, "Before and after the product frame").
  (request: Request, info: { remoteAddr: { hostname: string } }) =>
    track(serve(request, () => info.remoteAddr.hostname)),
)
