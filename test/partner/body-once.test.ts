/** Issue 27: a request's body is parsed once, however many steps read it. */
import { describe, expect, it, vi } from "vitest"
import { useServer } from "../support/server.ts"
import { clientApplication, partnerAccount } from "./support.ts"

const s = useServer()

describe("The body is parsed once", () => {
  it("a partner key's POST: its `application` (step 2b) and step 4 read the same parse", async () => {
    const p = await partnerAccount(s)
    const app = await clientApplication(s, p, { approved: true })
    const body = JSON.stringify({ to: "+966512345678", application: app.id })
    const parse = vi.spyOn(JSON, "parse")
    try {
      const res = await s.platform.dispatch({
        method: "POST",
        url: "/v1/verify/start",
        headers: (name) => (name === "authorization" ? `Bearer ${p.key}` : undefined),
        body,
        ip: "127.0.0.1",
      })
      expect(res.status).toBe(200)
      expect(parse.mock.calls.filter(([text]) => text === body)).toHaveLength(1)
    } finally {
      parse.mockRestore()
    }
  })
})
