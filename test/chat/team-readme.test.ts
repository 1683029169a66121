/** The README's Chat team walk-through, as written: an add under approval, the e-mail, invite_wait, the link. */
import { describe, expect, it } from "vitest"
import { setupApplication, useServer } from "../support/server.ts"

const s = useServer()

describe("README: the chat team (account API)", () => {
  it("each step answers as the README says", async () => {
    const { account, app } = await setupApplication(s)
    const token = (await s.console("POST", `/accounts/${account.id}/account-tokens`, {})).token
    const team = `/v1/applications/${app.id}/chat/team`
    // A minute passes (the simulated clock stands still unless moved): the token's person is listed first.
    await s.call("POST", "/console/v1/simulator/clock", { key: s.consoleToken, body: { advance_ms: 60_000 } })
    const body = { email: "sara@shop.sa", role: "agent" }
    const asked = await s.call("POST", team, { key: token, body })
    expect(asked.status).toBe(428)
    expect(asked.body.human_action.say).toBe("Approve adding sara@shop.sa to the team.")
    await s.console("POST", `/approvals/${asked.body.approval.id}/approve`, {})
    const made = await s.call("POST", team, { key: token, body })
    expect(made.status).toBe(201)
    expect(made.body.data).toMatchObject({
      email: "sara@shop.sa",
      role: "agent",
      status: "invited",
      invitation_sent_to: "sara@shop.sa",
    })
    const mail = await s.call("GET", "/console/v1/simulator/email?to=sara@shop.sa", { key: s.consoleToken })
    expect(mail.body.data[0].from).toBe("team@mail.svc.sa")
    const link: string = /https?:\/\/\S+\/v1\/chat\/team\/invitations\/\S+/.exec(mail.body.data[0].text)![0]

    const wait = await s.call("POST", `${team}/${made.body.data.id}/invite`, { key: token, body: {} })
    expect(wait.status).toBe(429)
    expect(wait.body).toMatchObject({
      error: "invite_wait",
      retry_after_seconds: 300,
      next: { operation: "chat.team.invite" },
    })

    const joined = await fetch(link).then((r) => r.json())
    expect(joined.status).toBe("active")
    const listed = await s.call("GET", team, { key: token })
    expect(listed.body.data.map((m: any) => [m.role, m.status])).toEqual([["owner", "active"], ["agent", "active"]])
    expect(listed.body.data[1].email).toBe("sara@shop.sa")
  })
})
