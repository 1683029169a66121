/**
 * The platform inside a Deno.serve app, under /messaging, next to the app's own routes.
 * `npx deno run -A --unstable-sloppy-imports --node-modules-dir=manual examples/deno.ts`
 * (PORT, HOST, PGLITE_DIR, STORE, CONSOLE_TOKEN, … as for `npm start`).
 */
import { Effect } from "effect"
import { makePlatform, settingsFromEnv, webHandler } from "../mod.ts"

const settings = await Effect.runPromise(settingsFromEnv)
const platform = await makePlatform(settings)
// The web handler reads the body itself, up to the platform's 1 MiB limit; it takes /messaging off the path.
const messaging = webHandler(platform.dispatch, { prefix: "/messaging" })

// The platform's answers in progress. Deno 2.9's `server.shutdown()` cuts the body of a request that is
// still arriving (denoland/deno#36809), so the stop below lets them finish before it shuts the server down.
const answering = new Set<Promise<Response>>()

const server = Deno.serve({
  port: settings.port,
  hostname: settings.host,
  onListen: ({ port }) =>
    console.log(`listening on http://${settings.host === "0.0.0.0" ? "127.0.0.1" : settings.host}:${port}`),
}, (request, info) => {
  const path = new URL(request.url).pathname
  if (path === "/hello") return Response.json({ hello: "from deno" })
  if (path !== "/messaging" && !path.startsWith("/messaging/")) return new Response("not found", { status: 404 })
  // The caller's address is the socket's (for keys with an IP allowlist), never a header.
  const answer = messaging(request, info.remoteAddr.hostname)
  answering.add(answer)
  const done = () => answering.delete(answer)
  answer.then(done, done)
  return answer
})

let stopping = false
const stop = async () => {
  if (stopping) return
  stopping = true
  while (answering.size > 0) await Promise.allSettled(answering) // the requests in flight (see above)
  await server.shutdown() // stop accepting, finish what is left
  await platform.dispose() // then the background jobs and the store
  Deno.exit(0)
}
Deno.addSignalListener("SIGTERM", stop)
Deno.addSignalListener("SIGINT", stop)
