/** The 5-second timeout, in real time: a receiver that answers too late is retried. */
import { describe, expect, it } from "vitest"
import { setupApplication, useServer } from "../support/server.ts"
import { advance, deliveries } from "./helpers.ts"
import { useReceiver } from "./receiver.ts"

describe("webhook timeout (real time)", () => {
  const s = useServer()
  const receiver = useReceiver()

  it("an answer after 5 s counts as a failure and the delivery is retried 5 s later", async () => {
    receiver.respond = () => (receiver.received.length === 1 ? { status: 200, delayMs: 6_500 } : { status: 200 })
    const { app } = await setupApplication(s)
    await s.console("PUT", `/applications/${app.id}/webhook`, { url: receiver.url })
    await s.console("POST", `/applications/${app.id}/webhook/test`, {})
    const started = Date.now()
    await advance(s, 0)
    const waited = Date.now() - started
    expect(waited).toBeGreaterThanOrEqual(4_900)
    expect(waited).toBeLessThan(6_400)
    let [log] = await deliveries(s, { application: app.id })
    expect(log.status).toBe("pending")
    expect(log.attempts[0]).toMatchObject({ status_code: null, error: "no answer within 5000 ms" })
    expect(log.attempts[0].latency_ms).toBeGreaterThanOrEqual(4_900)
    expect(Date.parse(log.next_attempt_at) - Date.parse(log.attempts[0].at)).toBe(5_000)

    await advance(s, 5_000)
    expect(receiver.received).toHaveLength(2)
    expect(receiver.received[1].headers["webhook-id"]).toBe(receiver.received[0].headers["webhook-id"])
    ;[log] = await deliveries(s, { application: app.id })
    expect(log.status).toBe("succeeded")
    expect(log.attempts.map((a: any) => a.status_code)).toEqual([200, null])
  }, 30_000)
})
