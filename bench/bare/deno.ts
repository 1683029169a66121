/** The baseline: Deno.serve answering a fixed JSON, nothing else. */
declare const Deno: any
export {}

const body = JSON.stringify({ error: "not_found" })
const server = Deno.serve(
  {
    port: Number(Deno.env.get("PORT") ?? 8080),
    hostname: Deno.env.get("HOST") ?? "127.0.0.1",
    onListen: ({ port }: { port: number }) => console.log(`listening on http://127.0.0.1:${port}`),
  },
  () => new Response(body, { status: 404, headers: { "content-type": "application/json" } }),
)
Deno.addSignalListener("SIGTERM", async () => {
  await server.shutdown()
  Deno.exit(0)
})
