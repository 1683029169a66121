/** The pure parts: routing, the retry schedule, the envelope and its signature, the URL policy. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as fc from "fast-check"
import { Webhook } from "standardwebhooks"
import { makeSecrets } from "../../adapters/secrets/node-crypto.ts"
import { WebhookSignerLive } from "../../adapters/webhooks/signer.ts"
import { Webhooks } from "../../core/limits.ts"
import type { AccountId, ApplicationId, EventId } from "../../core/shared/brands.ts"
import { envelopeBody, newEndpointSecret, signedHeaders } from "../../core/webhooks/envelope.ts"
import { routeEvent } from "../../core/webhooks/routing.ts"
import { afterAttempt } from "../../core/webhooks/schedule.ts"
import { isPrivateHost, urlProblem } from "../../core/webhooks/url-policy.ts"
import { Secrets } from "../../ports/secrets.ts"
import type { OutboxEvent } from "../../ports/store/outbox.ts"
import type { WebhookDelivery } from "../../ports/store/webhook-deliveries.ts"
import type { EndpointOwner, WebhookEndpoint } from "../../ports/store/webhook-endpoints.ts"
import { WebhookSigner } from "../../ports/webhook-signer.ts"

const appId = "11111111-1111-4111-8111-111111111111" as ApplicationId
const accountId = "22222222-2222-4222-8222-222222222222" as AccountId

const outboxEvent = (event: string, over: Partial<OutboxEvent> = {}): OutboxEvent => ({
  id: "33333333-3333-4333-8333-333333333333" as EventId,
  event,
  data: { id: "v1", status: "x" },
  applicationId: appId,
  accountId,
  externalId: "ext-1",
  createdAt: 0,
  ...over,
})

const endpoints =
  (accountEvents: ReadonlyArray<string> | null, withApp = true) => (o: EndpointOwner): WebhookEndpoint | undefined =>
    o.kind === "application"
      ? (withApp ? { owner: o, url: "https://a", secret: "s", events: [] } : undefined)
      : accountEvents === null
      ? undefined
      : { owner: o, url: "https://p", secret: "s", events: accountEvents }

describe("routing", () => {
  it("verification events: the application, and the account only when subscribed, with external_id", () => {
    const e = outboxEvent("verification.verified")
    expect(routeEvent(e, endpoints([]))).toEqual([{ owner: { kind: "application", id: appId }, data: e.data }])
    expect(routeEvent(e, endpoints(["verification.verified"]))).toEqual([
      { owner: { kind: "application", id: appId }, data: e.data },
      { owner: { kind: "account", id: accountId }, data: { ...e.data, external_id: "ext-1" } },
    ])
    expect(routeEvent(e, endpoints(["verification.failed"], false))).toEqual([])
  })

  it("service.* and balance.low: the account's endpoint only; message.*: the application's only", () => {
    for (const name of ["service.paused", "service.approved", "balance.low"]) {
      const e = outboxEvent(name, name === "balance.low" ? { applicationId: null } : {})
      expect(routeEvent(e, endpoints([]))).toEqual([{ owner: { kind: "account", id: accountId }, data: e.data }])
      expect(routeEvent(e, endpoints(null))).toEqual([])
    }
    const m = outboxEvent("message.delivered")
    expect(routeEvent(m, endpoints(["verification.verified"]))).toEqual([{
      owner: { kind: "application", id: appId },
      data: m.data,
    }])
  })
})

describe("retry schedule", () => {
  const d = (over: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
    id: "d",
    webhookId: "msg",
    owner: { kind: "application", id: "a" },
    eventId: null,
    event: "e",
    data: {},
    test: false,
    status: "pending",
    scheduledAttempts: 0,
    manual: false,
    nextAttemptAt: 0,
    createdAt: 0,
    ...over,
  })

  it("each failed attempt waits the next delay; the eighth failure gives up", () => {
    const waits: Array<number> = []
    let current = d()
    for (let now = 1_000;; now += 1) {
      const o = afterAttempt(current, false, now)
      if (o.status === "failed") {
        expect(o).toEqual({ status: "failed", scheduledAttempts: 8, nextAttemptAt: null })
        break
      }
      waits.push(o.nextAttemptAt! - now)
      current = { ...current, ...o }
    }
    expect(waits).toEqual([...Webhooks.retryDelaysMs])
    expect(waits).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000])
  })

  it("success ends it; a manual replay is one attempt", () => {
    expect(afterAttempt(d({ scheduledAttempts: 3 }), true, 9)).toEqual({
      status: "succeeded",
      scheduledAttempts: 4,
      nextAttemptAt: null,
    })
    expect(afterAttempt(d({ scheduledAttempts: 8, manual: true }), false, 9)).toEqual({
      status: "failed",
      scheduledAttempts: 8,
      nextAttemptAt: null,
    })
    expect(afterAttempt(d({ scheduledAttempts: 8, manual: true }), true, 9)).toEqual({
      status: "succeeded",
      scheduledAttempts: 8,
      nextAttemptAt: null,
    })
  })
})

describe("envelope and signature", () => {
  const signer = Effect.runSync(Effect.provide(WebhookSigner, WebhookSignerLive))
  const secrets = makeSecrets("platform-secret")

  it("secrets are whsec_ + base64 of 32 random bytes", () => {
    const secret = Effect.runSync(Effect.provideService(newEndpointSecret, Secrets, secrets))
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
  })

  it.prop("standardwebhooks accepts every signed body and refuses any change", [
    fc.string(),
    fc.jsonValue(),
    fc.boolean(),
    fc.integer({ min: 0, max: 4e12 }),
  ], ([event, value, test, at]) => {
    const secret = Effect.runSync(Effect.provideService(newEndpointSecret, Secrets, secrets))
    const body = envelopeBody({ event, data: { value }, test }, at)
    const headers = signedHeaders(signer, secret, "msg_abc", at, body)
    const realNow = Date.now
    Date.now = () => at
    try {
      const parsed = new Webhook(secret).verify(body, headers) as any
      expect(parsed.sent_at).toBe(String(at))
      expect(parsed.test).toBe(test ? true : undefined)
      expect(headers["webhook-timestamp"]).toBe(String(Math.floor(at / 1000)))
      expect(() => new Webhook(secret).verify(body + " ", headers)).toThrow()
    } finally {
      Date.now = realNow
    }
  })
})

describe("endpoint URL policy", () => {
  it("private, loopback, link-local and other non-public hosts", () => {
    for (
      const h of [
        "localhost",
        "LOCALHOST.",
        "a.localhost",
        "127.0.0.1",
        "10.0.0.1",
        "172.16.0.1",
        "192.168.0.1",
        "169.254.1.1",
        "0.0.0.0",
        "[::1]",
        "::",
        "fc00::1",
        "fdff::1",
        "fe80::1",
        "febf::1",
        "::ffff:10.0.0.1",
        "2001:db8::1",
        "fec0::1",
        "100.64.0.1",
        "[64:ff9b::7f00:1]",
      ]
    ) {
      expect({ h, p: isPrivateHost(h) }).toEqual({ h, p: true })
    }
    for (
      const h of [
        "example.com",
        "8.8.8.8",
        "172.32.0.1",
        "169.255.0.1",
        "2001:4860:4860::8888",
        "localhost.example.com",
      ]
    ) {
      expect({ h, p: isPrivateHost(h) }).toEqual({ h, p: false })
    }
  })

  it("https required unless private targets are allowed", () => {
    expect(urlProblem("http://example.com", false)).toBe("must use https")
    expect(urlProblem("http://example.com", true)).toBeUndefined()
    expect(urlProblem("http://127.0.0.1:8080/x", true)).toBeUndefined()
    expect(urlProblem("https://127.0.0.1:8080/x", false)).toMatch(/private/)
    expect(urlProblem("javascript:alert(1)", true)).toMatch(/http/)
  })
})
