/** The baseline: Bun.serve answering a fixed JSON, nothing else. */
declare const Bun: any
export {}

const body = JSON.stringify({ error: "not_found" })
const server = Bun.serve({
  port: Number(process.env.PORT ?? 8080),
  hostname: process.env.HOST ?? "127.0.0.1",
  fetch: () => new Response(body, { status: 404, headers: { "content-type": "application/json" } }),
})
console.log(`listening on http://127.0.0.1:${server.port}`)
process.on("SIGTERM", async () => {
  await server.stop()
  process.exit(0)
})
