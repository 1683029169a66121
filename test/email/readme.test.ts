/** The README's Email walk-through, as written: access, a sender domain, its records, a send, a report, the log. */
import { describe, expect, it } from "vitest"
import { setupApplication, useServer } from "../support/server.ts"

const s = useServer()

describe("README: access, a sender domain, its DNS records, a send and the log", () => {
  it("each step answers as the README says", async () => {
    const { account, app, key } = await setupApplication(s)
    const { token } = await s.console("POST", `/accounts/${account.id}/account-tokens`, {
      role: "owner",
      email: "owner@shop.sa",
    })
    const T = (method: string, path: string, body?: unknown) => s.call(method, path, { key: token, body })

    // 1. Access.
    const asked = await T("POST", "/v1/account/email/access", {})
    expect(asked.status).toBe(201)
    expect(asked.body.data).toMatchObject({ status: "pending", decided_at: null })
    await s.console("PUT", `/accounts/${account.id}/email-access`, { status: "granted" })

    // 2. A sender domain.
    const added = await T("POST", `/v1/applications/${app.id}/email/senders`, { domain: "shop.sa" })
    expect(added.status).toBe(201)
    expect(added.body.data).toMatchObject({
      domain: "shop.sa",
      status: "pending",
      pending_hours: 72,
      verified_at: null,
    })
    expect(added.body.data.records.map((r: any) => [r.purpose, r.type, r.name, r.verified])).toEqual([
      ["spf", "TXT", "shop.sa", false],
      ["dkim", "TXT", "svc._domainkey.shop.sa", false],
      ["return_path", "CNAME", "bounces.shop.sa", false],
    ])
    expect(added.body.data.records[0].value).toBe("v=spf1 include:spf.mail.svc.sa ~all")
    expect(added.body.data.records[1].value).toMatch(/^v=DKIM1; k=rsa; p=MIIB/)
    expect(added.body.data.records[2].value).toBe("bounces.mail.svc.sa")

    // 3. The records published (jq's `{type, name, values: [.value]}`), the clock moved 10 minutes.
    for (const r of added.body.data.records) {
      await s.console("PUT", "/simulator/dns/records", { type: r.type, name: r.name, values: [r.value] })
    }
    await s.console("POST", "/simulator/clock", { advance_ms: 600000 })
    const senders = await T("GET", `/v1/applications/${app.id}/email/senders`)
    expect(senders.body.data[0].status).toBe("verified")
    expect(senders.body.data[0].records.every((r: any) => r.verified)).toBe(true)

    // 4. A send, the inbox, a report, the read.
    const sent = await s.call("POST", "/v1/email/messages", {
      key,
      body: {
        from: "receipts@shop.sa",
        to: "sara@example.net",
        subject: "Your receipt",
        text: "Thank you for your order.",
        reference: "INV-1001",
      },
    })
    expect(sent.status).toBe(200)
    expect(sent.body.status).toBe("sent")
    const inbox = await s.call("GET", "/console/v1/simulator/email?to=sara@example.net", { key: s.consoleToken })
    expect(inbox.body.data[0]).toMatchObject({
      id: sent.body.id,
      from: "receipts@shop.sa",
      to: "sara@example.net",
      subject: "Your receipt",
    })
    await s.console("POST", `/simulator/email/messages/${sent.body.id}/report`, { status: "delivered" })
    const read = await s.call("GET", `/v1/email/messages/${sent.body.id}`, { key })
    expect(read.body).toMatchObject({ status: "delivered", complained: false })

    // 5. The log.
    const log = await T("GET", `/v1/applications/${app.id}/email/messages?q=inv-1001&status=delivered`)
    expect(log.body.data.map((m: any) => m.id)).toEqual([sent.body.id])
    expect(log.body.next_cursor).toBeNull()
  })
})
