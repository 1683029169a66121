/**
 * The platform as an Effect HTTP app (`platform.httpApp`, an `HttpApp.Default` of @effect/platform),
 * served here through @effect/platform's own web handler: the same answers as every other host.
 */
import * as HttpApp from "@effect/platform/HttpApp"
import { describe, expect, it } from "vitest"
import { useServer } from "../support/server.ts"

const s = useServer()

const call = async (request: Request) => {
  const res = await HttpApp.toWebHandler(s.platform.httpApp)(request)
  return { status: res.status, headers: res.headers, body: await res.json() }
}

describe("the Effect HTTP app answers as the other hosts do", () => {
  it("GET /healthz answers 200 {status: ok} as JSON with an X-Request-Id", async () => {
    const res = await call(new Request("http://h/healthz"))
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: "ok" })
    expect(res.headers.get("content-type")).toContain("application/json")
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
  })

  it("a Verify start with the demo test key, a read of it, and the order of checks (401 without a key)", async () => {
    const key = s.platform.demo!.testKey
    const started = await call(
      new Request("http://h/api/v1/verify/start", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ to: s.platform.demo!.provenDestination }),
      }),
    )
    expect(started.status).toBe(200)
    expect(started.body).toMatchObject({ status: "pending", mode: "test" })
    const read = await call(
      new Request(`http://h/v1/verify/${started.body.id}`, { headers: { "x-api-key": key } }),
    )
    expect(read).toMatchObject({ status: 200, body: { id: started.body.id, status: "pending" } })
    const anonymous = await call(new Request(`http://h/v1/verify/${started.body.id}`))
    expect(anonymous).toMatchObject({ status: 401, body: { error: "unauthorized" } })
  })

  it("a key with an IP allowlist is judged by the address the server reports (none here: refused)", async () => {
    const created = await s.console("POST", `/applications/${s.platform.demo!.applicationId}/keys`, {
      mode: "live",
      ip_allowlist: ["10.0.0.0/8"],
    })
    const res = await call(
      new Request(`http://h/v1/verify/${crypto.randomUUID()}`, {
        headers: { authorization: `Bearer ${created.key}` },
      }),
    )
    expect(res).toMatchObject({ status: 403, body: { error: "ip_not_allowed" } })
  })

  it("a body over 1 MiB is refused with 400 invalid_request", async () => {
    const res = await call(
      new Request("http://h/v1/verify/start", {
        method: "POST",
        headers: { authorization: `Bearer ${s.platform.demo!.liveKey}` },
        body: `{"to":"0551234567","x":"${"y".repeat(1024 * 1024)}"}`,
      }),
    )
    expect(res).toMatchObject({
      status: 400,
      body: { error: "invalid_request", message: "The body is larger than 1048576 bytes." },
    })
  })
})
