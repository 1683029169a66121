/**
 * Issue 32, traces and metrics: with `OTEL_EXPORTER_OTLP_ENDPOINT` set, spans and metrics go over OTLP/HTTP to a
 * collector (here the stand-in of test/support/otlp-collector.ts); with `METRICS=prometheus`, `/metrics` answers
 * in the Prometheus text format. Off by default: no `/metrics`, no `traceparent` on webhooks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type CollectedSpan, type Collector, startCollector, traceTree } from "../support/otlp-collector.ts"
import { latestCode, setupApplication, startServer, type TestServer } from "../support/server.ts"
import { phone } from "../support/phone.ts"
import { hostNames, startHost } from "./host-process.ts"
import { type Receiver, startReceiver } from "../webhooks/receiver.ts"

/** Resolves with what `find` finds in time (the exporters send every 100 ms here). */
const eventually = async <A>(find: () => A | undefined, what: string, timeoutMs = 10_000): Promise<A> => {
  const until = Date.now() + timeoutMs
  for (;;) {
    const found = find()
    if (found !== undefined) return found
    if (Date.now() > until) throw new Error(`not collected in time: ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

let collector: Collector
let receiver: Receiver
let s: TestServer
let ids: Awaited<ReturnType<typeof setupApplication>>

beforeAll(async () => {
  collector = await startCollector()
  receiver = await startReceiver()
  s = await startServer(
    { store: "sql", pgliteDir: "memory://", clock: "system", otelEndpoint: collector.url, metrics: "prometheus" },
    { jobs: true, telemetry: { exportInterval: "100 millis" } },
  )
  ids = await setupApplication(s)
})
afterAll(async () => {
  await s?.close()
  await receiver?.close()
  await collector?.close()
})

const serverSpan = (requestId: string) => () =>
  collector.spans.find((sp) => sp.kind === 2 && sp.attributes["request.id"] === requestId)

const descendants = (root: CollectedSpan): Array<CollectedSpan> => {
  const below = collector.spans.filter((sp) => sp.parentSpanId === root.spanId)
  return below.flatMap((sp) => [sp, ...descendants(sp)])
}

describe("a span per request named after its operation, with the use case, its SQL statements and the SMS send below it", () => {
  it("a Verify start gives the span tree: verify.start > Verify.start > sql.execute …, sms.send", async () => {
    const res = await s.call("POST", "/v1/verify/start", { key: ids.key, body: { to: phone() } })
    expect(res.status).toBe(200)
    const requestId = res.headers.get("x-request-id")!
    const root = await eventually(serverSpan(requestId), "the request's span")
    expect(root.name).toBe("verify.start")
    expect(root.attributes["http.response.status_code"]).toBe(200)
    const useCase = await eventually(
      () => collector.spans.find((sp) => sp.parentSpanId === root.spanId && sp.name === "Verify.start"),
      "the use case's span",
    )
    const below = await eventually(() => {
      const all = descendants(useCase)
      return all.some((sp) => sp.name === "sms.send") && all.some((sp) => sp.name === "sql.execute") ? all : undefined
    }, "the use case's children")
    const statements = below.filter((sp) => sp.name === "sql.execute")
    expect(statements.length).toBeGreaterThan(0)
    expect(statements.every((sp) => typeof sp.attributes["db.statement"] === "string")).toBe(true)
    const sms = below.find((sp) => sp.name === "sms.send")!
    expect(sms.kind).toBe(3)
    expect(sms.attributes["sms.provider"]).toBe("simulator")
    // Every span of the tree is the request's trace.
    expect(new Set([root, ...below].map((sp) => sp.traceId)).size).toBe(1)
    // The order of checks' own statements (the rate limit's) sit beside the use case, under the request.
    expect(traceTree(collector.spans, root.traceId)).toMatch(/^verify\.start [^\n]*\n(  [^\n]*\n)*  Verify\.start /)
  })

  it("the request id is the span's `request.id` attribute, as the answer's `x-request-id`", async () => {
    const res = await s.call("GET", "/v1/verify/00000000-0000-4000-8000-000000000000", { key: ids.key })
    expect(res.status).toBe(404)
    const root = await eventually(serverSpan(res.headers.get("x-request-id")!), "the request's span")
    expect(root.name).toBe("verify.read")
    expect(root.attributes["http.response.status_code"]).toBe(404)
  })
})

describe("W3C `traceparent` honoured on the way in", () => {
  it("a request with a traceparent continues the caller's trace under the caller's span", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
    const parent = "00f067aa0ba902b7"
    const res = await s.call("GET", "/v1/verify/00000000-0000-4000-8000-000000000000", {
      key: ids.key,
      headers: { traceparent: `00-${traceId}-${parent}-01` },
    })
    const root = await eventually(serverSpan(res.headers.get("x-request-id")!), "the request's span")
    expect(root.traceId).toBe(traceId)
    expect(root.parentSpanId).toBe(parent)
  })

  it("a malformed traceparent starts a trace of its own", async () => {
    const res = await s.call("GET", "/healthz", {
      headers: { traceparent: `00-${"0".repeat(32)}-00f067aa0ba902b7-01` },
    })
    const root = await eventually(serverSpan(res.headers.get("x-request-id")!), "the request's span")
    expect(root.traceId).not.toBe("0".repeat(32))
    expect(root.parentSpanId).toBe("")
    expect(root.name).toBe("GET /healthz")
  })
})

describe("`traceparent` sent on webhooks", () => {
  it("a webhook delivery carries the traceparent of its delivery span", async () => {
    await s.console("PUT", `/applications/${ids.app.id}/webhook`, { url: receiver.url })
    const to = phone()
    const started = await s.call("POST", "/v1/verify/start", { key: ids.key, body: { to } })
    const code = await latestCode(s, to)
    const checked = await s.call("POST", "/v1/verify/check", { key: ids.key, body: { id: started.body.id, code } })
    expect(checked.body.status).toBe("verified")
    await receiver.waitFor(1)
    const traceparent = receiver.received[0].headers["traceparent"]
    expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/)
    const [, traceId, spanId] = traceparent.split("-")
    const post = await eventually(() => collector.spans.find((sp) => sp.spanId === spanId), "the delivery's span")
    expect(post.name).toBe("webhook.post")
    expect(post.traceId).toBe(traceId)
    // Under the attempt, under the jobs loop's run.
    const attempt = collector.spans.find((sp) => sp.spanId === post.parentSpanId)
    expect(attempt?.name).toBe("Webhooks.attempt")
    const run = collector.spans.find((sp) => sp.spanId === attempt?.parentSpanId)
    expect(run?.name).toBe("job webhooks.dispatch")
  })
})

describe("metrics move and are exported over OTLP", () => {
  it("requests by operation and status, and verifications started", async () => {
    const sum = (name: string, match: Record<string, string> = {}) => {
      const points = collector.metrics.get(name) ?? []
      return points.filter((p) => Object.entries(match).every(([k, v]) => p.attributes[k] === v))
        .reduce((n, p) => n + p.value, 0)
    }
    const before = {
      requests: sum("http_server_requests_total", { operation: "verify.start", status: "200" }),
      started: sum("verify_verifications_started_total"),
    }
    await s.call("POST", "/v1/verify/start", { key: ids.key, body: { to: phone() } })
    await eventually(
      () =>
        sum("http_server_requests_total", { operation: "verify.start", status: "200" }) > before.requests &&
          sum("verify_verifications_started_total") > before.started
          ? true
          : undefined,
      "the counters moved",
    )
    expect((collector.metrics.get("http_server_request_duration_seconds") ?? []).length).toBeGreaterThan(0)
  })
})

describe("`/metrics` in the Prometheus text format with METRICS=prometheus, 404 without", () => {
  it("METRICS=prometheus: counters and the duration histogram, by operation and status", async () => {
    await s.call("POST", "/v1/verify/start", { key: ids.key, body: { to: phone() } })
    const res = await fetch(`${s.baseUrl}/metrics`)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/)
    const text = await res.text()
    expect(text).toContain("# TYPE http_server_requests_total counter")
    expect(text).toMatch(/^http_server_requests_total\{operation="verify\.start",status="200"\} [1-9]\d*$/m)
    expect(text).toContain("# TYPE http_server_request_duration_seconds histogram")
    expect(text).toMatch(/^http_server_request_duration_seconds_bucket\{.*le="\+Inf"\} [1-9]\d*$/m)
    expect(text).toMatch(/^verify_verifications_started_total [1-9]\d*$/m)
    expect(text).toMatch(/^sms_sends_total\{provider="simulator",outcome="accepted"\} [1-9]\d*$/m)
  })

  it("off by default: /metrics is 404 and a webhook carries no traceparent", async () => {
    const plain = await startServer({}, { jobs: true })
    const hooks = await startReceiver()
    try {
      expect((await plain.call("GET", "/metrics")).status).toBe(404)
      const app = await setupApplication(plain)
      await plain.console("PUT", `/applications/${app.app.id}/webhook`, { url: hooks.url })
      const to = phone()
      const started = await plain.call("POST", "/v1/verify/start", { key: app.key, body: { to } })
      const code = await latestCode(plain, to)
      await plain.call("POST", "/v1/verify/check", { key: app.key, body: { id: started.body.id, code } })
      await hooks.waitFor(1)
      expect(hooks.received[0].headers["traceparent"]).toBeUndefined()
    } finally {
      await plain.close()
      await hooks.close()
    }
  })
})

describe("every host exports the same way (OTLP over Effect's HttpClient on fetch) and serves /metrics", () => {
  for (const host of hostNames) {
    it(`${host}: a request's span reaches the collector, continuing its traceparent; /metrics answers`, async () => {
      const own = await startCollector()
      const p = await startHost(host, {
        STORE: "memory",
        OTEL_EXPORTER_OTLP_ENDPOINT: own.url,
        OTEL_SERVICE_NAME: `platform-${host}`,
        METRICS: "prometheus",
      }, { demo: false })
      try {
        const traceId = "0af7651916cd43dd8448eb211c80319c"
        const res = await fetch(`${p.baseUrl}/healthz`, {
          headers: { traceparent: `00-${traceId}-b7ad6b7169203331-01` },
        })
        expect(res.status).toBe(200)
        const metrics = await fetch(`${p.baseUrl}/metrics`)
        expect(metrics.status).toBe(200)
        expect(await metrics.text()).toMatch(
          /^http_server_requests_total\{operation="GET \/healthz",status="200"\} 1$/m,
        )
        // The exporters send every 5 s.
        const span = await eventually(
          () => own.spans.find((sp) => sp.traceId === traceId && sp.kind === 2),
          `${host}'s span`,
          15_000,
        )
        expect(span.name).toBe("GET /healthz")
        expect(span.parentSpanId).toBe("b7ad6b7169203331")
      } finally {
        await p.kill()
        await own.close()
      }
    }, 60_000)
  }
})
