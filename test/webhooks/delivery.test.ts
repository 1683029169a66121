/** Delivery over real HTTP: signatures, the retry schedule on the simulated clock, give-up, replay, rehearsals. */
import { describe, expect, it } from "vitest"
import { Webhooks } from "../../core/limits.ts"
import { setupApplication, startServer, useServer } from "../support/server.ts"
import { advance, deliveries } from "./helpers.ts"
import { startReceiver, useReceiver, verify } from "./receiver.ts"

describe("webhook delivery", () => {
  const s = useServer()
  const receiver = useReceiver()

  const endpoint = async () => {
    const { app, account } = await setupApplication(s)
    const { secret } = await s.console("PUT", `/applications/${app.id}/webhook`, { url: receiver.url })
    return { app, account, secret: secret as string }
  }

  it("a rehearsal is signed so that standardwebhooks accepts it as it is, and refuses it tampered", async () => {
    receiver.received.length = 0
    receiver.respond = () => ({ status: 204 })
    const { app, secret } = await endpoint()
    const sent = await s.console("POST", `/applications/${app.id}/webhook/test`, {})
    await advance(s, 0)
    expect(receiver.received).toHaveLength(1)
    const r = receiver.received[0]
    expect(r.headers["webhook-id"]).toBe(sent.webhook_id)
    const payload = verify(secret, r)
    expect(payload).toMatchObject({
      event: "verification.verified",
      test: true,
      data: { status: "verified", application_id: app.id },
    })
    expect(payload.sent_at).toMatch(/^\d{13}$/)
    expect(Math.floor(Number(payload.sent_at) / 1000)).toBe(Number(r.headers["webhook-timestamp"]))
    expect(() => verify(secret, { ...r, body: r.body.replace("verified", "failed") })).toThrow()
    expect(() => verify(secret, { ...r, headers: { ...r.headers, "webhook-id": "msg_other" } })).toThrow()
    const [log] = await deliveries(s, { application: app.id })
    expect(log).toMatchObject({
      id: sent.delivery_id,
      status: "succeeded",
      test: true,
      attempts: [{ status_code: 204, error: null }],
    })
  })

  it("a rehearsal sends the named event whatever the subscription; an unknown event is refused", async () => {
    receiver.received.length = 0
    receiver.respond = () => ({ status: 200 })
    const { app, secret } = await endpoint()
    await s.console("POST", `/applications/${app.id}/webhook/test`, { event: "service.paused" })
    await advance(s, 0)
    const payload = verify(secret, receiver.received[0])
    expect(payload).toMatchObject({ event: "service.paused", test: true, data: { service_id: app.id } })
    const bad = await s.call("POST", `/console/v1/applications/${app.id}/webhook/test`, {
      key: s.consoleToken,
      body: { event: "nope" },
    })
    expect(bad.status).toBe(400)
    expect(bad.body.fields.event).toBeTruthy()
  })

  it("retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h with the same webhook-id, then gives up; replay re-sends it", async () => {
    receiver.received.length = 0
    receiver.respond = () => ({ status: 500 })
    const { app, secret } = await endpoint()
    const sent = await s.console("POST", `/applications/${app.id}/webhook/test`, { event: "verification.failed" })
    await advance(s, 0)
    await advance(s, 2 * 24 * 3_600_000)
    const got = receiver.received
    expect(got).toHaveLength(1 + Webhooks.retryDelaysMs.length)
    const times = got.map((r) => Number(verify(secret, r, Number(r.json.sent_at)).sent_at))
    expect(times.slice(1).map((t, i) => t - times[i])).toEqual([
      5_000,
      300_000,
      1_800_000,
      7_200_000,
      18_000_000,
      36_000_000,
      36_000_000,
    ])
    expect(new Set(got.map((r) => r.headers["webhook-id"]))).toEqual(new Set([sent.webhook_id]))
    expect(got.map((r) => Number(r.headers["webhook-timestamp"]))).toEqual(times.map((t) => Math.floor(t / 1000)))

    let [log] = await deliveries(s, { application: app.id })
    expect(log.status).toBe("failed")
    expect(log.next_attempt_at).toBeNull()
    expect(log.attempts).toHaveLength(8)
    expect(log.attempts.map((a: any) => Date.parse(a.at))).toEqual([...times].reverse())
    for (const a of log.attempts) expect(a).toMatchObject({ status_code: 500, error: "HTTP 500" })

    receiver.respond = () => ({ status: 200 })
    const replayed = await s.console("POST", `/webhook-deliveries/${sent.delivery_id}/replay`)
    expect(replayed).toMatchObject({ id: sent.delivery_id, status: "pending", webhook_id: sent.webhook_id })
    await advance(s, 0)
    expect(got).toHaveLength(9)
    expect(got[8].headers["webhook-id"]).toBe(sent.webhook_id)
    verify(secret, got[8], Number(got[8].json.sent_at))
    ;[log] = await deliveries(s, { application: app.id })
    expect(log.status).toBe("succeeded")
    expect(log.attempts).toHaveLength(9)
    expect(log.attempts[0]).toMatchObject({ status_code: 200, error: null })
  })

  it("a delivery that succeeds on a retry stops there", async () => {
    receiver.received.length = 0
    receiver.respond = () => ({ status: receiver.received.length < 3 ? 503 : 200 })
    const { app } = await endpoint()
    await s.console("POST", `/applications/${app.id}/webhook/test`, {})
    await advance(s, 0)
    await advance(s, 2 * 24 * 3_600_000)
    expect(receiver.received).toHaveLength(3)
    const [log] = await deliveries(s, { application: app.id })
    expect(log.status).toBe("succeeded")
    expect(log.attempts.map((a: any) => a.status_code)).toEqual([200, 503, 503])
  })

  it("a refused connection is logged with its error and retried", async () => {
    const { app } = await setupApplication(s)
    const gone = await startReceiver()
    await gone.close()
    await s.console("PUT", `/applications/${app.id}/webhook`, { url: gone.url })
    await s.console("POST", `/applications/${app.id}/webhook/test`, {})
    await advance(s, 0)
    const [log] = await deliveries(s, { application: app.id })
    expect(log.status).toBe("pending")
    expect(log.attempts).toHaveLength(1)
    expect(log.attempts[0].status_code).toBeNull()
    expect(log.attempts[0].error).toMatch(/connection failed/)
  })

  it("replay and the log answer 404 for unknown ids; the log needs exactly one owner", async () => {
    const missing = await s.call("POST", `/console/v1/webhook-deliveries/${crypto.randomUUID()}/replay`, {
      key: s.consoleToken,
    })
    expect(missing.status).toBe(404)
    expect((await s.call("POST", "/console/v1/webhook-deliveries/x/replay", { key: s.consoleToken })).status).toBe(404)
    expect(
      (await s.call("GET", `/console/v1/webhook-deliveries?application=${crypto.randomUUID()}`, {
        key: s.consoleToken,
      })).status,
    ).toBe(404)
    expect((await s.call("GET", "/console/v1/webhook-deliveries", { key: s.consoleToken })).status).toBe(400)
  })
})

describe("webhook delivery with the background loop", () => {
  it("the first attempt leaves within about a second of real time, whatever the clock", async () => {
    const s = await startServer({}, { jobs: true })
    const receiver = await startReceiver()
    try {
      const { app } = await setupApplication(s)
      await s.console("PUT", `/applications/${app.id}/webhook`, { url: receiver.url })
      const before = Date.now()
      await s.console("POST", `/applications/${app.id}/webhook/test`, {})
      await receiver.waitFor(1, 3_000)
      expect(receiver.received[0].receivedAt - before).toBeLessThan(1_500)
    } finally {
      await receiver.close()
      await s.close()
    }
  })
})
