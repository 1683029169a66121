/**
 * The platform inside a Hono app on @hono/node-server, under /messaging, next to the app's own routes.
 * `npx tsx examples/hono.ts` (PORT, HOST, PGLITE_DIR, STORE, CONSOLE_TOKEN, … as for `npm start`).
 */
import type { Server } from "node:http"
import { serve } from "@hono/node-server"
import { getConnInfo } from "@hono/node-server/conninfo"
import { Effect } from "effect"
import { Hono } from "hono"
import { answerParserRefusals, close, makePlatform, nodeServerOptions, settingsFromEnv, webHandler } from "../mod.ts"

const settings = await Effect.runPromise(settingsFromEnv)
const platform = await makePlatform(settings)
// The web handler reads the body itself, up to the platform's 1 MiB limit; it takes /messaging off the path.
const messaging = webHandler(platform.dispatch, { prefix: "/messaging" })

const app = new Hono()
app.get("/hello", (c) => c.json({ hello: "from hono" }))
// The caller's address is the socket's (for keys with an IP allowlist), never a header.
app.all("/messaging/*", (c) => messaging(c.req.raw, getConnInfo(c).remote.address))

const server = serve(
  { fetch: app.fetch, port: settings.port, hostname: settings.host, serverOptions: nodeServerOptions },
  (info) =>
    console.log(`listening on http://${settings.host === "0.0.0.0" ? "127.0.0.1" : settings.host}:${info.port}`),
) as Server
// What node:http's parser refuses is answered by the platform, as JSON.
answerParserRefusals(server, platform.dispatch, { prefix: "/messaging" })

let stopping = false
const stop = async () => {
  if (stopping) return
  stopping = true
  await close(server) // stop accepting, finish the requests in flight
  await platform.dispose() // then the background jobs and the store
  process.exit(0)
}
process.on("SIGTERM", stop)
process.on("SIGINT", stop)
