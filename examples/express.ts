/**
 * The platform inside an Express app, under /messaging, next to the app's own routes.
 * `npx tsx examples/express.ts` (PORT, HOST, PGLITE_DIR, STORE, CONSOLE_TOKEN, … as for `npm start`).
 */
import express from "express"
import { Effect } from "effect"
import { close, listen, makePlatform, nodeServer, settingsFromEnv } from "../mod.ts"

const settings = await Effect.runPromise(settingsFromEnv)
const platform = await makePlatform(settings)

const app = express()
app.get("/hello", (_req, res) => {
  res.json({ hello: "from express" })
})
// No express.json() in front: the platform reads the body itself, up to its 1 MiB limit (Express's parser
// stops at 100 KB with an HTML page). Express takes /messaging off the path before the platform sees it.
app.use("/messaging", platform.node)

// The platform's server options, and its JSON answers to what node:http's parser refuses.
const server = nodeServer(platform.dispatch, { app, prefix: "/messaging" })
const port = await listen(server, settings.port, settings.host)
console.log(`listening on http://${settings.host === "0.0.0.0" ? "127.0.0.1" : settings.host}:${port}`)

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
