// bench/startup.ts's "embedded" host: an app that imports the built package from its working directory
// (dist/mod.js), makes the platform and mounts its node:http listener on a server of its own.
import { createServer } from "node:http"
import { join } from "node:path"
import { pathToFileURL } from "node:url"

const { makePlatform, settingsFromEnv } = await import(pathToFileURL(join(process.cwd(), "dist/mod.js")).href)
const { Effect } = await import("effect")
const platform = await makePlatform(await Effect.runPromise(settingsFromEnv))
const server = createServer(platform.node)
server.listen(Number(process.env.PORT), "127.0.0.1")
process.on("SIGTERM", async () => {
  server.close()
  await platform.dispose()
  process.exit(0)
})
