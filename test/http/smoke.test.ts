import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { latestCode, setupApplication, startServer, type TestServer } from "../support/server.ts"

describe("a newcomer's Verify round trip over HTTP", () => {
  let s: TestServer
  beforeAll(async () => {
    s = await startServer()
  })
  afterAll(() => s.close())

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
