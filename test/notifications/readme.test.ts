/** The README's Notifications walk-through, as written: a number, a template, a send, reports, signed events. */
import { describe, expect, it } from "vitest"
import { setupApplication, useServer } from "../support/server.ts"
import { advance } from "../webhooks/helpers.ts"
import { useReceiver, verify } from "../webhooks/receiver.ts"

const s = useServer()
const receiver = useReceiver()

describe("README: a template message, from the simulated network to signed events", () => {
  it("each step answers as the README says", async () => {
    const { app, key } = await setupApplication(s)
    const { secret } = await s.console("PUT", `/applications/${app.id}/webhook`, { url: receiver.url })
    expect(secret).toMatch(/^whsec_/)
    const number = await s.console("PUT", `/simulator/chatmsg/applications/${app.id}/number`, { number: "0555000111" })
    expect(number).toEqual({ enabled: true, number: "+966555000111", connected: true })
    await s.console("PUT", `/simulator/chatmsg/applications/${app.id}/templates/order_update/ar`, {
      category: "utility",
      status: "approved",
      body: "طلبك {{order_id}} في الطريق",
    })
    const templates = await s.call("GET", "/v1/chatmsg/templates", { key })
    expect(templates.body).toEqual({
      data: [{
        name: "order_update",
        category: "utility",
        parameter_format: "named",
        languages: [{
          lang: "ar",
          status: "approved",
          reason: null,
          header_type: "none",
          placeholders: [{ key: "order_id", component: "body", max_length: 1024 }],
          buttons: [],
        }],
      }],
      next_cursor: null,
    })
    const sent = await s.call("POST", "/v1/chatmsg/messages", {
      key,
      headers: { "idempotency-key": "order-A-1001" },
      body: { to: "0551234567", template: "order_update", params: { order_id: "A-1001" } },
    })
    expect(sent.body).toMatchObject({ status: "accepted", to: "+966551234567", price_halalas: 5 })
    const log = await s.call("GET", "/console/v1/simulator/chatmsg/messages?to=0551234567", { key: s.consoleToken })
    expect(log.body.data[0]).toMatchObject({
      id: sent.body.id,
      to: "+966551234567",
      template: "order_update",
      lang: "ar",
      text: "طلبك A-1001 في الطريق",
    })
    for (const status of ["delivered", "read"]) {
      const res = await s.call("POST", `/console/v1/simulator/chatmsg/messages/${sent.body.id}/report`, {
        key: s.consoleToken,
        body: { status },
      })
      expect(res.body.data.status).toBe(status)
    }
    await advance(s, 0)
    await receiver.waitFor(2)
    const events = receiver.received.map((r) => verify(secret, r))
    expect(events.map((e) => [e.event, e.data.id, e.data.to])).toEqual([
      ["message.delivered", sent.body.id, "+96655*****67"],
      ["message.read", sent.body.id, "+96655*****67"],
    ])
    const read = await s.call("GET", `/v1/chatmsg/messages/${sent.body.id}`, { key })
    expect(read.body).toMatchObject({ status: "read", to: "+966551234567" })
  })
})
