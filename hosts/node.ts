/** The Node host: node:http straight into the shared dispatcher. */
import { close, listen, nodeServer } from "../adapters/http/node.ts"
import { banner, boot } from "./start.ts"

const started = await boot()
const server = nodeServer(started.platform.dispatch)
const port = await listen(server, started.settings.port, started.settings.host)
for (const line of banner(started, port)) console.log(line)

let stopping = false
const stop = async () => {
  if (stopping) return
  stopping = true
  await close(server)
  await started.platform.dispose()
  process.exit(0)
}
process.on("SIGINT", stop)
process.on("SIGTERM", stop)
