/**
 * Run by Deno for test/fences/deno-headers.test.ts: a request served by `Deno.serve`, its header list read as
 * adapters/http/deno-headers.ts reads it. Prints one JSON line: Deno's version, the held list (null when
 * there is none) and the fields as the `Headers` iterator answers them (sorted, repeated ones joined).
 */
import { heldHeaderList } from "../../../adapters/http/deno-headers.ts"

declare const Deno: any

let seen: unknown
const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (request: Request) => {
  // As web.ts does: the first read fills the list.
  request.headers.has("host")
  seen = { held: heldHeaderList(request.headers) ?? null, iterated: [...request.headers] }
  return new Response(null, { status: 204 })
})
// Raw bytes, so the fields' order, case and repetition are the probe's own (a client's may add or reorder).
const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port })
await conn.write(
  new TextEncoder().encode(
    "GET /fence HTTP/1.1\r\nHost: fence\r\nX-Fence: one\r\nx-fence-two: two\r\nX-Fence: again\r\n" +
      "Connection: close\r\n\r\n",
  ),
)
for await (const _ of conn.readable) {
  // The answer is read to its end (the server closes the connection).
}
await server.shutdown()
console.log(JSON.stringify({ deno: Deno.version.deno, ...(seen as object) }))
