import { describe, expect, it } from "vitest"
import { latestCode, setupApplication, useServer } from "../support/server.ts"

describe("a newcomer's Verify round trip over HTTP", () => {
  const s = useServer()

  it("start, read the code from the simulator, check it", async () => {
    const { key } = await setupApplication(s)
    const started = await s.call("POST", "/v1/verify/start", { key, body: { to: "0551234567" } })
    expect(started.status).toBe(200)
    expect(started.body.status).toBe("pending")
    const code = await latestCode(s, "+966551234567")
    const checked = await s.call("POST", "/v1/verify/check", { key, body: { id: started.body.id, code } })
    expect(checked.body.status).toBe("verified")
  })

  it("GET /healthz answers 200 {status: ok}", async () => {
    const res = await s.call("GET", "/healthz")
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: "ok" })
    expect(res.headers.get("x-request-id")).toBeTruthy()
  })
})

describe("requests the HTTP parser refuses still answer JSON with X-Request-Id", () => {
  const s = useServer()

  it("a malformed request line answers 400 invalid_request", async () => {
    const { connect } = await import("node:net")
    const url = new URL(s.baseUrl)
    const raw = await new Promise<string>((resolve) => {
      const socket = connect(
        Number(url.port),
        url.hostname,
        () => socket.write("GET /healthz HTTP/1.1\r\nBad\x7fHeader: x\r\n\r\n"),
      )
      let data = ""
      socket.on("data", (d) => (data += d.toString()))
      socket.on("close", () => resolve(data))
    })
    expect(raw).toMatch(/^HTTP\/1\.1 400/)
    expect(raw).toMatch(/x-request-id: [0-9a-f-]{36}/)
    expect(raw).toContain('"error":"invalid_request"')
  })

  it("a body over 1 MiB answers 400 invalid_request", async () => {
    const { key } = await setupApplication(s)
    const res = await s.call("POST", "/v1/verify/start", { key, rawBody: "x".repeat(1024 * 1024 + 10) })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe("invalid_request")
    expect(res.headers.get("x-request-id")).toBeTruthy()
  })
})
