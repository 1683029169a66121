/**
 * The platform inside a Fastify app, under /messaging, next to the app's own routes.
 * `npx tsx examples/fastify.ts` (PORT, HOST, PGLITE_DIR, STORE, CONSOLE_TOKEN, … as for `npm start`).
 */
import Fastify from "fastify"
import { Effect } from "effect"
import { makePlatform, nodeHandler, nodeServer, settingsFromEnv, stopKeepAlive } from "../mod.ts"

const settings = await Effect.runPromise(settingsFromEnv)
const platform = await makePlatform(settings)
// Fastify leaves the path as it came: the handler takes /messaging off.
const messaging = nodeHandler(platform.dispatch, { prefix: "/messaging" })

const app = Fastify({
  // The platform's server options, and its JSON answers to what node:http's parser refuses.
  serverFactory: (handler) => nodeServer(platform.dispatch, { app: handler, prefix: "/messaging" }),
})
app.get("/hello", () => ({ hello: "from fastify" }))

await app.register((scope, _opts, done) => {
  // The platform takes its requests before Fastify parses anything (content type, body): it reads the body
  // itself, up to its 1 MiB limit, and writes the answer. The routes only claim the paths.
  scope.addHook("onRequest", (req, reply) => {
    reply.hijack()
    messaging(req.raw, reply.raw)
  })
  scope.all("/", () => {})
  scope.all("/*", () => {})
  done()
}, { prefix: "/messaging" })

await app.listen({ port: settings.port, host: settings.host })
const address = app.server.address()
const port = typeof address === "object" && address ? address.port : settings.port
console.log(`listening on http://${settings.host === "0.0.0.0" ? "127.0.0.1" : settings.host}:${port}`)

let stopping = false
const stop = async () => {
  if (stopping) return
  stopping = true
  // Keep-alive connections close once their request is answered, so the close ends with the last one.
  stopKeepAlive(app.server)
  await app.close() // stop accepting, finish the requests in flight
  await platform.dispose() // then the background jobs and the store
  process.exit(0)
}
process.on("SIGTERM", stop)
process.on("SIGINT", stop)
