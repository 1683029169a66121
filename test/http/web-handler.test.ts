/**
 * The web-standard handler a host app mounts (`platform.fetch`) and the one Deno and Bun serve
 * (`platform.serve`): path prefix, query, body limit, and answers ready at once.
 */
import { describe, expect, it } from "vitest"
import { webHandler } from "../../adapters/http/web.ts"
import { useServer } from "../support/server.ts"

const s = useServer()

const json = async (res: Response | Promise<Response>) => {
  const r = await res
  return { status: r.status, headers: r.headers, body: await r.json() }
}

describe("mounted under a prefix, the platform answers its own paths below it", () => {
  it("GET /messaging/healthz is /healthz; /messaging/v1/... is /v1/...", async () => {
    const handler = webHandler(s.platform.dispatch, { prefix: "/messaging" })
    expect(await json(handler(new Request("http://shop.example/messaging/healthz")))).toMatchObject({
      status: 200,
      body: { status: "ok" },
    })
    const read = await json(
      handler(
        new Request(`http://shop.example/messaging/v1/verify/${crypto.randomUUID()}?application=x`, {
          headers: { authorization: `Bearer ${s.platform.demo!.liveKey}` },
        }),
      ),
    )
    expect(read).toMatchObject({ status: 404, body: { error: "not_found" } })
  })

  it("a path that only begins with the prefix's letters is not under it", async () => {
    const handler = webHandler(s.platform.dispatch, { prefix: "/messaging" })
    expect((await json(handler(new Request("http://shop.example/messagingx/healthz")))).status).toBe(404)
    expect((await json(handler(new Request("http://shop.example/messaging")))).status).toBe(404)
  })

  it("fetch always answers a promise", () => {
    expect(s.platform.fetch(new Request("http://h/healthz"))).toBeInstanceOf(Promise)
  })
})

describe("serve answers a Response at once when nothing had to wait", () => {
  it("GET /healthz on the memory store is a Response, not a promise", async () => {
    const res = s.platform.serve(new Request("http://h/healthz"), "127.0.0.1")
    expect(res).toBeInstanceOf(Response)
    expect(await json(res)).toMatchObject({ status: 200, body: { status: "ok" } })
  })

  it("a body is read first, so a POST answers a promise", async () => {
    const res = s.platform.serve(
      new Request("http://h/v1/verify/start", {
        method: "POST",
        headers: { authorization: `Bearer ${s.platform.demo!.liveKey}` },
        body: "{",
      }),
      "127.0.0.1",
    )
    expect(res).toBeInstanceOf(Promise)
    expect(await json(res)).toMatchObject({ status: 400, body: { error: "invalid_json" } })
  })
})

describe("bodies over 1 MiB are refused with 400 invalid_request", () => {
  const tooLarge = { error: "invalid_request", message: "The body is larger than 1048576 bytes." }
  const post = (body: BodyInit, headers: Record<string, string> = {}) =>
    new Request("http://h/v1/verify/start", {
      method: "POST",
      headers: { authorization: `Bearer ${s.platform.demo!.liveKey}`, ...headers },
      body,
      duplex: "half",
    } as RequestInit)

  it("a declared Content-Length over the limit", async () => {
    const res = await json(s.platform.serve(post("{}", { "content-length": String(1024 * 1024 + 1) })))
    expect(res.status).toBe(400)
    expect(res.body).toEqual(tooLarge)
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
  })

  it("a streamed body that passes the limit part way", async () => {
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 2 * 1024 * 1024) return controller.close()
        sent += 64 * 1024
        controller.enqueue(new Uint8Array(64 * 1024).fill(32))
      },
    })
    const res = await json(s.platform.serve(post(stream)))
    expect(res).toMatchObject({ status: 400, body: tooLarge })
    // Reading stopped soon after the limit.
    expect(sent).toBeLessThanOrEqual(1024 * 1024 + 3 * 64 * 1024)
  })

  it("a body that fails part way answers 400 invalid_request, not a crash", async () => {
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"to":'))
        controller.error(new Error("connection reset"))
      },
    })
    const res = await json(s.platform.serve(post(broken)))
    expect(res).toMatchObject({
      status: 400,
      body: { error: "invalid_request", message: "The body could not be read." },
    })
  })

  it("a body of exactly 1 MiB is read and judged", async () => {
    const body = `{"to":"0551234567","x":"${"y".repeat(1024 * 1024 - 26)}"}`
    expect(new TextEncoder().encode(body).byteLength).toBe(1024 * 1024)
    const res = await json(s.platform.serve(post(body)))
    expect(res.status, JSON.stringify(res.body).slice(0, 200)).toBe(200)
    expect(res.body.status).toBe("pending")
  })
})
