/**
 * The chat team (DECISIONS 9.4, 10, 11, 17) over HTTP, on every store: list, add (201, 200, approval), invite
 * (its refusals in order), the invitation e-mail through the e-mail simulator, the mobile member's
 * `invitation_url` shown once, and joining by the link.
 */
import { describe, expect, it } from "vitest"
import { onEveryStore, setupApplication, type TestServer } from "../support/server.ts"

const team = (app: string) => `/v1/applications/${app}/chat/team`
const invite = (app: string, member: string) => `${team(app)}/${member}/invite`

const tokenOf = async (s: TestServer, account: string, body: Record<string, unknown> = {}) =>
  await s.console("POST", `/accounts/${account}/account-tokens`, body) as {
    token: string
    member_id: string
  }

/** An application, an owner's and an admin's token, and no approval policy unless `approvals`. */
const setup = async (s: TestServer, approvals = false) => {
  const { account, app } = await setupApplication(s)
  if (!approvals) await s.console("PUT", `/accounts/${account.id}/approval-policy`, { operations: [] })
  const owner = await tokenOf(s, account.id, { role: "owner", email: "owner@shop.sa" })
  const admin = await tokenOf(s, account.id, { role: "admin", email: "admin@shop.sa" })
  return { account, app, owner, admin }
}

const inbox = async (s: TestServer, to: string): Promise<ReadonlyArray<any>> =>
  (await s.call("GET", `/console/v1/simulator/email?to=${encodeURIComponent(to)}`, { key: s.consoleToken })).body.data

const linkIn = (text: string): string =>
  /https?:\/\/\S+\/v1\/chat\/team\/invitations\/inv_[A-Za-z0-9_-]{32}/.exec(text)![0]

const advance = (s: TestServer, ms: number) =>
  s.call("POST", "/console/v1/simulator/clock", { key: s.consoleToken, body: { advance_ms: ms } })

let seq = 0
const email = () => `person${++seq}.${Date.now()}@shop.sa`

onEveryStore((server) => {
  describe("DECISIONS 9.4: POST A/chat/team → 201, data the member plus invitation_sent_to when by e-mail", () => {
    it("adds an invited member and sends the invitation e-mail from the platform's address", async () => {
      const s = server()
      const { app, admin } = await setup(s)
      const to = email()
      const res = await s.call("POST", team(app.id), {
        key: admin.token,
        body: { email: to.toUpperCase(), name: "Sara", role: "agent" },
      })
      expect(res.status).toBe(201)
      expect(res.body.data).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: "Sara",
        email: to,
        mobile: null,
        role: "agent",
        status: "invited",
        invited_at: expect.stringMatching(/Z$/),
        invitation_sent_to: to,
      })
      const mail = await inbox(s, to)
      expect(mail).toHaveLength(1)
      expect(mail[0].from).toBe("team@mail.svc.sa")
      expect(mail[0].text).toContain("Shop")
      expect(linkIn(mail[0].text)).toContain(s.baseUrl)
    })

    it("an invitation the provider refuses undoes the add: 502 send_failed, nobody added", async () => {
      const s = server()
      const { app, admin } = await setup(s)
      const res = await s.call("POST", team(app.id), {
        key: admin.token,
        body: { email: "refused@example.com", role: "agent" },
      })
      expect(res.status).toBe(502)
      expect(res.body).toMatchObject({ error: "send_failed", provider_code: "simulated_refusal" })
      const listed = await s.call("GET", team(app.id), { key: admin.token })
      expect(listed.body.data.map((m: any) => m.email)).not.toContain("refused@example.com")
    })

    it("200 with the member, unchanged, when the person is already in the team (no second e-mail)", async () => {
      const s = server()
      const { app, admin } = await setup(s)
      const to = email()
      const first = await s.call("POST", team(app.id), { key: admin.token, body: { email: to, role: "agent" } })
      const again = await s.call("POST", team(app.id), { key: admin.token, body: { email: to, role: "admin" } })
      expect(again.status).toBe(200)
      const { invitation_sent_to: _, ...member } = first.body.data
      expect(again.body.data).toEqual(member)
      expect(await inbox(s, to)).toHaveLength(1)
    })

    it("GET lists the tokens' persons (active, the token's role) and the members added, oldest first", async () => {
      const s = server()
      const { account, app } = await setupApplication(s)
      await s.console("PUT", `/accounts/${account.id}/approval-policy`, { operations: [] })
      // The simulated clock stands still unless moved: each one later than the last.
      const owner = await tokenOf(s, account.id, { role: "owner", email: email() })
      await advance(s, 1000)
      const admin = await tokenOf(s, account.id, { role: "admin", email: email() })
      await advance(s, 1000)
      const to = email()
      const added = await s.call("POST", team(app.id), { key: admin.token, body: { email: to, role: "agent" } })
      const res = await s.call("GET", `${team(app.id)}?limit=2`, { key: admin.token })
      expect(res.status).toBe(200)
      expect(res.body.data.map((m: any) => [m.id, m.role, m.status])).toEqual([
        [owner.member_id, "owner", "active"],
        [admin.member_id, "admin", "active"],
      ])
      expect(res.body.next_cursor).toEqual(expect.any(String))
      const next = await s.call("GET", `${team(app.id)}?limit=2&cursor=${res.body.next_cursor}`, { key: admin.token })
      expect(next.body.data.map((m: any) => m.id)).toEqual([added.body.data.id])
      expect(next.body.next_cursor).toBeNull()
      const agent = await tokenOf(s, account.id, { role: "agent" })
      expect((await s.call("GET", team(app.id), { key: agent.token })).status).toBe(200)
    })

    it("exactly one of email and mobile: 400 invalid_request naming the field; role admin or agent", async () => {
      const s = server()
      const { app, admin } = await setup(s)
      const cases: Array<[unknown, Record<string, string>]> = [
        [{ role: "agent" }, { email: "required" }],
        [{ email: email(), mobile: "0551234567", role: "agent" }, { mobile: "invalid" }],
        [{ mobile: "12345", role: "agent" }, { mobile: "invalid" }],
        [{ email: "not-an-address", role: "agent" }, { email: "invalid" }],
        [{ email: email(), role: "owner" }, { role: "invalid" }],
        [{ email: email(), role: "agent", extra: 1 }, { extra: "unknown" }],
      ]
      for (const [body, errors] of cases) {
        const res = await s.call("POST", team(app.id), { key: admin.token, body })
        expect(res.status, JSON.stringify(body)).toBe(400)
        expect(res.body.errors).toEqual(errors)
      }
    })

    it("an agent's token may not add (403 insufficient_role); another account's application is 404", async () => {
      const s = server()
      const { account, app } = await setup(s)
      const agent = await tokenOf(s, account.id, { role: "agent", email: email() })
      expect(
        (await s.call("POST", team(app.id), { key: agent.token, body: { email: email(), role: "agent" } }))
          .body.error,
      ).toBe("insufficient_role")
      const other = await setup(s)
      const res = await s.call("POST", team(other.app.id), {
        key: (await tokenOf(s, account.id)).token,
        body: { email: email(), role: "agent" },
      })
      expect(res.status).toBe(404)
    })
  })

  describe("DECISIONS 9.4: the token's person cannot add above their role (above_own_role) or themselves (self_edit)", () => {
    it("self_edit: the token's own e-mail, in any case", async () => {
      const s = server()
      const { app, admin } = await setup(s)
      const res = await s.call("POST", team(app.id), {
        key: admin.token,
        body: { email: "ADMIN@shop.sa", role: "agent" },
      })
      expect(res.status).toBe(403)
      expect(res.body.error).toBe("self_edit")
    })

    it("above_own_role: an admin naming the owner's person; self_edit comes first for the owner", async () => {
      const s = server()
      const { app, admin, owner } = await setup(s)
      const res = await s.call("POST", team(app.id), {
        key: admin.token,
        body: { email: "owner@shop.sa", role: "agent" },
      })
      expect(res.status).toBe(403)
      expect(res.body.error).toBe("above_own_role")
      const own = await s.call("POST", team(app.id), {
        key: owner.token,
        body: { email: "owner@shop.sa", role: "admin" },
      })
      expect(own.body.error).toBe("self_edit")
      // The owner naming the admin's person: already in the team.
      const known = await s.call("POST", team(app.id), {
        key: owner.token,
        body: { email: "admin@shop.sa", role: "agent" },
      })
      expect(known.status).toBe(200)
      expect(known.body.data).toMatchObject({ id: admin.member_id, role: "admin", status: "active" })
    })
  })

  describe("DECISIONS 11: chat.team.add is under approval by default (428; approved, the resend runs once)", () => {
    it("428 approval_required asking to approve adding the person; approved, 201; someone already there needs none", async () => {
      const s = server()
      const { app, admin } = await setup(s, true)
      const to = email()
      const body = { email: to, role: "agent" }
      const asked = await s.call("POST", team(app.id), { key: admin.token, body })
      expect(asked.status).toBe(428)
      expect(asked.body).toMatchObject({
        error: "approval_required",
        needs: ["approval"],
        approval: { status: "pending", operation: "chat.team.add" },
        human_action: { reason: "approve_operation", say: `Approve adding ${to} to the team.` },
      })
      expect(await inbox(s, to)).toHaveLength(0)
      const listed = await s.call("GET", team(app.id), { key: admin.token })
      expect(listed.body.data.map((m: any) => m.email)).not.toContain(to)
      await s.console("POST", `/approvals/${asked.body.approval.id}/approve`, {})
      const made = await s.call("POST", team(app.id), { key: admin.token, body })
      expect(made.status).toBe(201)
      expect(made.body.data.invitation_sent_to).toBe(to)
      const again = await s.call("POST", team(app.id), { key: admin.token, body })
      expect(again.status).toBe(200)
      // Refusals come before the approval: nothing is asked for them.
      const self = await s.call("POST", team(app.id), {
        key: admin.token,
        body: { email: "admin@shop.sa", role: "agent" },
      })
      expect(self.body.error).toBe("self_edit")
    })
  })

  describe("DECISIONS 10: call by name answers as the route would (approval, 201, invite_wait's next)", () => {
    it("POST /v1/operations/chat.team.add and chat.team.invite with flat input", async () => {
      const s = server()
      const { app, admin } = await setup(s, true)
      const to = email()
      const flat = { application: app.id, email: to, role: "agent" }
      const asked = await s.call("POST", "/v1/operations/chat.team.add", { key: admin.token, body: flat })
      expect(asked.status).toBe(428)
      expect(asked.body.human_action.say).toBe(`Approve adding ${to} to the team.`)
      await s.console("POST", `/approvals/${asked.body.approval.id}/approve`, {})
      const made = await s.call("POST", "/v1/operations/chat.team.add", { key: admin.token, body: flat })
      expect(made.status).toBe(201)
      expect(made.body.data.invitation_sent_to).toBe(to)
      const wait = await s.call("POST", "/v1/operations/chat.team.invite", {
        key: admin.token,
        body: { application: app.id, member: made.body.data.id },
      })
      expect(wait.status).toBe(429)
      expect(wait.body.next).toEqual({
        operation: "chat.team.invite",
        method: "POST",
        path: invite(app.id, made.body.data.id),
      })
      // The account record holds the add, with the approval it used.
      const audit = await s.call("GET", "/v1/account/audit", { key: admin.token })
      const entry = audit.body.data.find((e: any) => e.action === "chat.team.add")
      expect(entry).toMatchObject({ application_id: app.id, details: { approval: asked.body.approval.id } })
    })
  })

  describe("DECISIONS 10: a mobile member's invitation_url is a secret shown once", () => {
    it("the add answers invitation_url; its replay answers 409 idempotency_secret_not_replayable with id", async () => {
      const s = server()
      const { app, admin } = await setup(s)
      const headers = { "idempotency-key": `team-${Date.now()}-${++seq}` }
      const body = { mobile: "0551234567", name: "Ali", role: "agent" }
      const made = await s.call("POST", team(app.id), { key: admin.token, body, headers })
      expect(made.status).toBe(201)
      expect(made.body.data).toMatchObject({ email: null, mobile: "+966551234567", status: "invited" })
      expect(made.body.data.invitation_sent_to).toBeUndefined()
      expect(made.body.data.invitation_url).toMatch(/\/v1\/chat\/team\/invitations\/inv_[A-Za-z0-9_-]{32}$/)
      const replay = await s.call("POST", team(app.id), { key: admin.token, body, headers })
      expect(replay.status).toBe(409)
      expect(replay.body).toMatchObject({ error: "idempotency_secret_not_replayable", id: made.body.data.id })
      expect(JSON.stringify(replay.body)).not.toContain("inv_")
      // Without the key: the member is there, answered without the secret.
      const plain = await s.call("POST", team(app.id), { key: admin.token, body })
      expect(plain.status).toBe(200)
      expect(plain.body.data.invitation_url).toBeUndefined()
    })

    it("an add by e-mail under a key replays its answer (no secret in it)", async () => {
      const s = server()
      const { app, admin } = await setup(s)
      const headers = { "idempotency-key": `team-${Date.now()}-${++seq}` }
      const body = { email: email(), role: "agent" }
      const made = await s.call("POST", team(app.id), { key: admin.token, body, headers })
      const replay = await s.call("POST", team(app.id), { key: admin.token, body, headers })
      expect(replay.status).toBe(201)
      expect(replay.headers.get("idempotent-replayed")).toBe("true")
      expect(replay.body).toEqual(made.body)
    })
  })

  describe("Joining: opening the invitation link makes the member active (docs/decisions.md)", () => {
    it("the e-mailed link and the mobile member's link each make their member active, once", async () => {
      const s = server()
      const { app, admin } = await setup(s)
      const to = email()
      const byMail = await s.call("POST", team(app.id), { key: admin.token, body: { email: to, role: "agent" } })
      const link = linkIn((await inbox(s, to))[0].text)
      const joined = await s.call("GET", link.slice(s.baseUrl.length))
      expect(joined.status).toBe(200)
      expect(joined.body).toMatchObject({ id: byMail.body.data.id, status: "active" })
      expect((await s.call("GET", link.slice(s.baseUrl.length))).body.status).toBe("active")
      const byMobile = await s.call("POST", team(app.id), {
        key: admin.token,
        body: { mobile: "0551234568", role: "admin" },
      })
      const url: string = byMobile.body.data.invitation_url
      expect((await s.call("GET", url.slice(s.baseUrl.length))).body).toMatchObject({ status: "active", role: "admin" })
      const listed = await s.call("GET", team(app.id), { key: admin.token })
      expect(listed.body.data.filter((m: any) => m.status === "invited")).toEqual([])
      expect((await s.call("GET", "/v1/chat/team/invitations/inv_" + "A".repeat(32))).status).toBe(404)
    })
  })

  describe("DECISIONS 10: invite refusals in order — self_edit, above_own_role, no_email, already_joined, invite_wait", () => {
    it("self_edit: the token's own person (before above_own_role and already_joined)", async () => {
      const s = server()
      const { app, admin } = await setup(s)
      const res = await s.call("POST", invite(app.id, admin.member_id), { key: admin.token, body: {} })
      expect(res.status).toBe(403)
      expect(res.body.error).toBe("self_edit")
    })

    it("above_own_role: an admin inviting the owner (before already_joined)", async () => {
      const s = server()
      const { app, admin, owner } = await setup(s)
      const res = await s.call("POST", invite(app.id, owner.member_id), { key: admin.token, body: {} })
      expect(res.status).toBe(403)
      expect(res.body.error).toBe("above_own_role")
    })

    it("no_email: a member added by mobile (409), before invite_wait", async () => {
      const s = server()
      const { app, admin } = await setup(s)
      const made = await s.call("POST", team(app.id), {
        key: admin.token,
        body: { mobile: "0551234569", role: "agent" },
      })
      const res = await s.call("POST", invite(app.id, made.body.data.id), { key: admin.token, body: {} })
      expect(res.status).toBe(409)
      expect(res.body.error).toBe("no_email")
    })

    it("already_joined: an active member (409), before invite_wait; a token's person with an e-mail too", async () => {
      const s = server()
      const { app, admin, owner } = await setup(s)
      const to = email()
      const made = await s.call("POST", team(app.id), { key: admin.token, body: { email: to, role: "agent" } })
      await s.call("GET", linkIn((await inbox(s, to))[0].text).slice(s.baseUrl.length))
      const res = await s.call("POST", invite(app.id, made.body.data.id), { key: admin.token, body: {} })
      expect(res.status).toBe(409)
      expect(res.body.error).toBe("already_joined")
      const holder = await s.call("POST", invite(app.id, admin.member_id), { key: owner.token, body: {} })
      expect(holder.body.error).toBe("already_joined")
    })

    it("invite_wait: 429 within 5 minutes, with retry_after_seconds, Retry-After and next the same call", async () => {
      const s = server()
      const { app, admin } = await setup(s)
      const to = email()
      const made = await s.call("POST", team(app.id), { key: admin.token, body: { email: to, role: "agent" } })
      const path = invite(app.id, made.body.data.id)
      await advance(s, 60_000)
      const early = await s.call("POST", path, { key: admin.token, body: {} })
      expect(early.status).toBe(429)
      expect(early.body).toEqual({
        error: "invite_wait",
        message: expect.any(String),
        retry_after_seconds: 240,
        next: { operation: "chat.team.invite", method: "POST", path },
      })
      expect(early.headers.get("retry-after")).toBe("240")
      await advance(s, 240_000)
      const res = await s.call("POST", path, { key: admin.token, body: {} })
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual({
        id: made.body.data.id,
        invitation_sent_to: to,
        invited_at: expect.stringMatching(/Z$/),
      })
      expect(Date.parse(res.body.data.invited_at) - Date.parse(made.body.data.invited_at)).toBe(300_000)
      const mail = await inbox(s, to)
      expect(mail).toHaveLength(2)
      // Not repeatable: at once again, it waits the whole 5 minutes, and sends nothing.
      const again = await s.call("POST", path, { key: admin.token, body: {} })
      expect(again.status).toBe(429)
      expect(again.body.retry_after_seconds).toBe(300)
      expect(await inbox(s, to)).toHaveLength(2)
      // The new link replaces the last one.
      const [oldest, newest] = [...mail].sort((x, y) => Date.parse(x.sent_at) - Date.parse(y.sent_at))
        .map((m) => linkIn(m.text).slice(s.baseUrl.length))
      expect(newest).not.toBe(oldest)
      expect((await s.call("GET", oldest)).status).toBe(404)
      expect((await s.call("GET", newest)).body.status).toBe("active")
    })

    it("an unknown member is 404; an agent's token is 403 insufficient_role", async () => {
      const s = server()
      const { account, app, admin } = await setup(s)
      expect((await s.call("POST", invite(app.id, crypto.randomUUID()), { key: admin.token, body: {} })).status)
        .toBe(404)
      const made = await s.call("POST", team(app.id), { key: admin.token, body: { email: email(), role: "agent" } })
      const extra = await s.call("POST", invite(app.id, made.body.data.id), { key: admin.token, body: { x: 1 } })
      expect([extra.status, extra.body.errors]).toEqual([400, { x: "unknown" }])
      const agent = await tokenOf(s, account.id, { role: "agent", email: email() })
      expect((await s.call("POST", invite(app.id, admin.member_id), { key: agent.token, body: {} })).body.error)
        .toBe("insufficient_role")
    })
  })
})

describe("DECISIONS 10: the catalogue — chat.team.invite is not idempotent; chat.team.add requires approval", () => {
  it("GET /v1/operations lists the three team operations with their routes, roles and flags", async () => {
    const { startServer } = await import("../support/server.ts")
    const s = await startServer()
    try {
      const { account } = await setupApplication(s)
      const token = await tokenOf(s, account.id)
      const rows = (await s.call("GET", "/v1/operations", { key: token.token })).body.data
      const byName = Object.fromEntries(rows.map((r: any) => [r.name, r]))
      expect(byName["chat.team.list"]).toMatchObject({
        method: "GET",
        path: "/v1/applications/{application}/chat/team",
        roles: ["owner", "admin", "agent"],
        idempotent: true,
        requires_approval: false,
      })
      expect(byName["chat.team.add"]).toMatchObject({
        method: "POST",
        path: "/v1/applications/{application}/chat/team",
        roles: ["owner", "admin"],
        idempotent: true,
        requires_approval: true,
      })
      expect(byName["chat.team.invite"]).toMatchObject({
        method: "POST",
        path: "/v1/applications/{application}/chat/team/{member}/invite",
        roles: ["owner", "admin"],
        idempotent: false,
        requires_approval: false,
      })
      expect(byName["chat.team.join"]).toBeUndefined()
    } finally {
      await s.close()
    }
  })
})
