/** The console's endpoint routes: secrets, subscriptions, the URL policy. */
import { describe, expect, it } from "vitest"
import { setupApplication, useServer } from "../support/server.ts"

const secretPattern = /^whsec_[A-Za-z0-9+/]{43}=$/

describe("webhook endpoints in the console", () => {
  const s = useServer({ webhookAllowPrivate: true })

  const put = (path: string, body: unknown) => s.call("PUT", `/console/v1${path}`, { key: s.consoleToken, body })

  it("an application endpoint answers its url and a whsec_ secret of 32 bytes, kept when the url changes", async () => {
    const { app } = await setupApplication(s)
    const first = await put(`/applications/${app.id}/webhook`, { url: "http://127.0.0.1:9/a" })
    expect(first.status).toBe(200)
    expect(first.body.data).toEqual({ url: "http://127.0.0.1:9/a", secret: expect.stringMatching(secretPattern) })
    expect(Buffer.from(first.body.data.secret.slice(6), "base64")).toHaveLength(32)
    const second = await put(`/applications/${app.id}/webhook`, { url: "https://example.com/b" })
    expect(second.body.data).toEqual({ url: "https://example.com/b", secret: first.body.data.secret })
    const other = await setupApplication(s)
    const third = await put(`/applications/${other.app.id}/webhook`, { url: "https://example.com/b" })
    expect(third.body.data.secret).not.toBe(first.body.data.secret)
  })

  it("an account endpoint names only verification.* events, [] by default", async () => {
    const account = await s.console("POST", "/accounts", { name: "P", partner: true })
    const plain = await put(`/accounts/${account.id}/webhook`, { url: "https://example.com/p" })
    expect(plain.body.data).toEqual({
      url: "https://example.com/p",
      secret: expect.stringMatching(secretPattern),
      events: [],
    })
    const named = await put(`/accounts/${account.id}/webhook`, {
      url: "https://example.com/p",
      events: ["verification.failed", "verification.expired"],
    })
    expect(named.body.data.events).toEqual(["verification.failed", "verification.expired"])
    expect(named.body.data.secret).toBe(plain.body.data.secret)
    for (const events of [["service.paused"], ["verification.nope"], "verification.verified", [1]]) {
      const refused = await put(`/accounts/${account.id}/webhook`, { url: "https://example.com/p", events })
      expect(refused.status).toBe(400)
      expect(refused.body).toMatchObject({ error: "invalid_request", fields: { events: expect.any(String) } })
    }
  })

  it("unknown owners answer 404; a rehearsal without an endpoint answers 404", async () => {
    expect((await put(`/applications/${crypto.randomUUID()}/webhook`, { url: "https://example.com" })).status).toBe(404)
    expect((await put(`/accounts/nope/webhook`, { url: "https://example.com" })).status).toBe(404)
    const { app, account } = await setupApplication(s)
    const test = (path: string) => s.call("POST", `/console/v1${path}/webhook/test`, { key: s.consoleToken, body: {} })
    expect((await test(`/applications/${app.id}`)).status).toBe(404)
    expect((await test(`/accounts/${account.id}`)).status).toBe(404)
    expect((await test(`/applications/${crypto.randomUUID()}`)).status).toBe(404)
  })

  it("the url must be an http(s) URL", async () => {
    const { app } = await setupApplication(s)
    for (const url of ["not a url", "ftp://example.com/x", "", 42, "https://user:pw@example.com/"]) {
      const refused = await put(`/applications/${app.id}/webhook`, { url })
      expect(refused.status).toBe(400)
      expect(refused.body).toMatchObject({ error: "invalid_request", fields: { url: expect.any(String) } })
    }
    expect((await put(`/applications/${app.id}/webhook`, {})).status).toBe(400)
  })

  it("the console token is required", async () => {
    const { app } = await setupApplication(s)
    const res = await s.call("PUT", `/console/v1/applications/${app.id}/webhook`, {
      body: { url: "https://example.com" },
    })
    expect(res.status).toBe(401)
  })
})

describe("webhook URL policy without private targets", () => {
  const s = useServer({ webhookAllowPrivate: false })

  it("refuses http and loopback, private and link-local targets; accepts a public https URL", async () => {
    const { app } = await setupApplication(s)
    const refused = [
      "http://example.com/hooks",
      "https://localhost/hooks",
      "https://api.localhost/hooks",
      "https://127.0.0.1/hooks",
      "https://127.1/hooks",
      "https://2130706433/hooks",
      "https://0.0.0.0/hooks",
      "https://10.1.2.3/hooks",
      "https://172.16.0.1/hooks",
      "https://172.31.255.255/hooks",
      "https://192.168.1.1/hooks",
      "https://169.254.169.254/latest",
      "https://[::1]/hooks",
      "https://[::ffff:127.0.0.1]/hooks",
      "https://[fd00::1]/hooks",
      "https://[fe80::1]/hooks",
      "https://[2001:db8::1]/hooks",
    ]
    for (const url of refused) {
      const res = await s.call("PUT", `/console/v1/applications/${app.id}/webhook`, {
        key: s.consoleToken,
        body: { url },
      })
      expect({ url, status: res.status, field: typeof res.body.fields?.url }).toEqual({
        url,
        status: 400,
        field: "string",
      })
    }
    for (
      const url of ["https://example.com/hooks", "https://172.32.0.1/hooks", "https://[2001:4860:4860::8888]/hooks"]
    ) {
      const res = await s.call("PUT", `/console/v1/applications/${app.id}/webhook`, {
        key: s.consoleToken,
        body: { url },
      })
      expect({ url, status: res.status }).toEqual({ url, status: 200 })
    }
  })
})
