/**
 * The README's Chat walk-through, as written: a connected app's key, a menu, a draft with a problem, its fix,
 * publish, a customer's conversation through the simulated network and the attendant log.
 */
import { describe, expect, it } from "vitest"
import { useServer } from "../support/server.ts"
import { auditOf, setupConnectedApp } from "./harness.ts"

const s = useServer()

describe("README: a connected app's menus and auto-attendant", () => {
  it("each step answers as the README says", async () => {
    const { account, app, appKey: key, key: own } = await setupConnectedApp(s, { appName: "Store app" })
    const refused = await s.call("GET", "/v1/chat/attendant", { key: own })
    expect([refused.status, refused.body.error]).toEqual([403, "insufficient_scope"])

    const menu = await s.call("POST", "/v1/chat/menus", {
      key,
      body: { title: "Track my order", url: "https://shop.example/track" },
    })
    expect([menu.status, menu.body]).toEqual([201, {
      id: expect.any(String),
      title: "Track my order",
      url: "https://shop.example/track",
      created_at: expect.any(String),
      updated_at: expect.any(String),
    }])

    const hours = { id: "hours", title: "Opening hours", action: { type: "answer", text: "9 to 5" } }
    const problem = { code: "no_team_choice", choice_id: null, field: "choices", max: null }
    const first = await s.call("PUT", "/v1/chat/attendant/draft", {
      key,
      body: { menu: { greeting: "أهلاً بك", choices: [hours] } },
    })
    expect(first.body).toEqual({
      menu: { greeting: "أهلاً بك", choices: [hours] },
      saved_at: expect.any(String),
      problems: [problem],
    })
    const notReady = await s.call("POST", "/v1/chat/attendant/publish", { key })
    expect([notReady.status, notReady.body]).toEqual([422, { error: "attendant_not_ready", problems: [problem] }])

    const talk = { id: "talk", title: "Talk to us", action: { type: "team" } }
    const fixed = await s.call("PUT", "/v1/chat/attendant/draft", {
      key,
      body: { menu: { greeting: "أهلاً بك", choices: [hours, talk] }, enabled: true },
    })
    expect(fixed.body.problems).toEqual([])
    const headers = { "idempotency-key": "publish-1" }
    const published = await s.call("POST", "/v1/chat/attendant/publish", { key, headers })
    expect(published.body).toEqual({ version: 1, published_at: expect.any(String) })
    expect((await s.call("POST", "/v1/chat/attendant/publish", { key })).body).toEqual(published.body)
    const attendant = await s.call("GET", "/v1/chat/attendant", { key })
    expect(attendant.body).toMatchObject({
      enabled: true,
      mode: "always",
      language: "ar",
      live: { version: 1 },
      draft: { problems: [] },
    })

    const say = (body: Record<string, string>) =>
      s.console("POST", "/simulator/chatmsg/inbound", { application: app.id, from: "0551234567", ...body })
    const greeted = await say({ name: "Sara", text: "hello" })
    expect(greeted.attendant).toEqual({
      conversation_id: expect.any(String),
      outcome: "ongoing",
      messages: [{
        text: "أهلاً بك",
        choices: [
          { id: "hours", title: "Opening hours", description: null },
          { id: "talk", title: "Talk to us", description: null },
        ],
      }],
    })
    expect((await say({ choice_id: "hours" })).attendant).toMatchObject({
      outcome: "answered",
      messages: [{ text: "9 to 5", choices: [] }],
    })
    const inbox = await s.call("GET", "/console/v1/simulator/chatmsg/messages?to=%2B966551234567", {
      key: s.consoleToken,
    })
    expect(inbox.body.data.map((m: any) => [m.template, m.lang, m.text])).toEqual([
      ["attendant", "ar", "9 to 5"],
      ["attendant", "ar", "أهلاً بك\n[hours] Opening hours\n[talk] Talk to us"],
    ])
    const token = await s.console("POST", `/accounts/${account.id}/account-tokens`, {})
    const logged = await s.call("GET", `/v1/applications/${app.id}/chat/attendant/log?outcome=answered`, {
      key: token.token,
    })
    expect(logged.body.data).toEqual([expect.objectContaining({
      customer_name: "Sara",
      phone: "+966551234567",
      choices: [{ id: "hours", title: "Opening hours", at: expect.any(String) }],
      outcome: "answered",
    })])

    const notObject = await s.call("PUT", "/v1/chat/attendant/draft", { key, body: { menu: [] } })
    expect([notObject.status, notObject.body.errors]).toEqual([400, { menu: "not_object" }])
    const entries = await auditOf(s, account.id)
    expect(entries).toContainEqual(expect.objectContaining({
      action: "chat.attendant.publish",
      details: { version: 1 },
      actor: { type: "app", name: "Store app" },
    }))
  })
})
