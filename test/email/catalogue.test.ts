/**
 * Email's account operations in the catalogue (DECISIONS 10): their rows, call by name (the access codes still
 * before the body), roles; the send's `Idempotency-Key` (a replay sends nothing again); the typed client.
 */
import { describe, expect, it } from "vitest"
import { ApiErrorResponse, emailOperations, makeClient } from "../../mod.ts"
import { useServer } from "../support/server.ts"
import { accountToken, api, inbox, setupEmail, unique } from "./harness.ts"

const s = useServer()

describe("the catalogue and call by name", () => {
  it("lists the five operations with their routes and roles", async () => {
    const { token } = await setupEmail(s, { domain: null })
    const rows = (await api(s, token, "GET", "/operations")).body.data as ReadonlyArray<any>
    const email = Object.fromEntries(
      rows.filter((r) => r.name.startsWith("email.")).map((r) => [r.name, [r.method, r.path, r.roles]]),
    )
    const writers = ["owner", "admin"]
    const everyone = ["owner", "admin", "agent"]
    expect(email).toEqual({
      "email.access.request": ["POST", "/v1/account/email/access", writers],
      "email.access.show": ["GET", "/v1/account/email/access", everyone],
      "email.senders.create": ["POST", "/v1/applications/{application}/email/senders", writers],
      "email.senders.list": ["GET", "/v1/applications/{application}/email/senders", everyone],
      "email.messages.list": ["GET", "/v1/applications/{application}/email/messages", everyone],
    })
    const create = rows.find((r) => r.name === "email.senders.create")
    expect(create.input_schema.properties.domain.maxLength).toBe(253)
  })

  it("email.senders.create by name: 201, then 200; without access the access code comes first", async () => {
    const { app, token } = await setupEmail(s, { domain: null })
    const domain = `${unique("byname")}.sa`
    const first = await api(s, token, "POST", "/operations/email.senders.create", { application: app.id, domain })
    expect(first.status).toBe(201)
    const again = await api(s, token, "POST", "/operations/email.senders.create", { application: app.id, domain })
    expect(again.status).toBe(200)
    expect(again.body.data.id).toBe(first.body.data.id)
    const none = await setupEmail(s, { access: "none", domain: null })
    const refused = await api(s, none.token, "POST", "/operations/email.senders.create", { application: none.app.id })
    expect(refused.body.error).toBe("email_access_required")
  })

  it("an agent reads but does not write", async () => {
    const { account, app } = await setupEmail(s)
    const agent = await accountToken(s, account.id, "agent")
    expect((await api(s, agent, "GET", "/account/email/access")).body.data.status).toBe("granted")
    expect((await api(s, agent, "GET", `/applications/${app.id}/email/senders`)).status).toBe(200)
    const refused = await api(s, agent, "POST", `/applications/${app.id}/email/senders`, { domain: "agent.sa" })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe("insufficient_role")
    expect((await api(s, agent, "POST", "/account/email/access")).body.error).toBe("insufficient_role")
  })
})

describe("the send's Idempotency-Key", () => {
  it("a replay answers the stored email and sends nothing again", async () => {
    const { key, mail, to } = await setupEmail(s)
    const call = () =>
      s.call("POST", "/v1/email/messages", { key, body: mail, headers: { "idempotency-key": "receipt-1" } })
    const first = await call()
    const second = await call()
    expect(second.status).toBe(200)
    expect(second.headers.get("idempotent-replayed")).toBe("true")
    expect(second.body).toEqual(first.body)
    expect((await inbox(s, to)).length).toBe(1)
  })
})

describe("the typed client, from the same declarations", () => {
  it("sends and reads an e-mail; a refusal is an ApiErrorResponse with the catalogue's code", async () => {
    const { key, mail } = await setupEmail(s)
    const client = makeClient(emailOperations, { baseUrl: s.baseUrl, key })
    const sent = await client["email.messages.send"](mail)
    expect(sent.status).toBe("sent")
    const read = await client["email.messages.read"]({ id: sent.id })
    expect(read.id).toBe(sent.id)
    const refused = await client["email.messages.send"]({ ...mail, from: "x@elsewhere.sa" }).catch((e) => e)
    expect(refused).toBeInstanceOf(ApiErrorResponse)
    expect(refused.code).toBe("sender_not_verified")
  })
})
