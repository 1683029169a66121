/**
 * A stand-in for an OpenTelemetry collector: OTLP/HTTP with JSON bodies on `/v1/traces` and `/v1/metrics`, kept
 * in memory (the telemetry tests read it), printed as span trees when run on its own (the README's walk-through):
 *
 *   npx tsx test/support/otlp-collector.ts            # listens on 127.0.0.1:4318
 *   OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 npm start
 */
import { createServer, type Server } from "node:http"
import { fileURLToPath } from "node:url"

type AnyValue = { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean }

export interface CollectedSpan {
  readonly traceId: string
  readonly spanId: string
  /** Empty for a trace's root (or a span whose parent is another service's). */
  readonly parentSpanId: string
  readonly name: string
  /** OTLP's numbers: 2 server, 3 client. */
  readonly kind: number
  readonly startNs: bigint
  readonly endNs: bigint
  readonly attributes: Readonly<Record<string, string | number | boolean>>
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  readonly status: number
}

export interface CollectedPoint {
  readonly attributes: Readonly<Record<string, string | number | boolean>>
  /** A sum's or gauge's value, or a histogram's count. */
  readonly value: number
}

const valueOf = (v: AnyValue): string | number | boolean =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : v.doubleValue ?? v.boolValue ?? "")

const attributesOf = (list: ReadonlyArray<{ key: string; value: AnyValue }> | undefined) =>
  Object.fromEntries((list ?? []).map((a) => [a.key, valueOf(a.value)]))

export interface Collector {
  readonly url: string
  readonly spans: Array<CollectedSpan>
  /** The latest data points of each metric by name (the platform exports cumulative values). */
  readonly metrics: Map<string, ReadonlyArray<CollectedPoint>>
  /** Called with each batch of spans as it arrives. */
  onSpans?: (batch: ReadonlyArray<CollectedSpan>) => void
  readonly close: () => Promise<void>
}

const readJson = (req: import("node:http").IncomingMessage): Promise<any> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")))
      } catch (e) {
        reject(e)
      }
    })
    req.on("error", reject)
  })

const spansOf = (body: any): Array<CollectedSpan> =>
  (body.resourceSpans ?? []).flatMap((rs: any) =>
    (rs.scopeSpans ?? []).flatMap((ss: any) =>
      (ss.spans ?? []).map((s: any): CollectedSpan => ({
        traceId: s.traceId,
        spanId: s.spanId,
        parentSpanId: s.parentSpanId ?? "",
        name: s.name,
        kind: s.kind,
        startNs: BigInt(s.startTimeUnixNano),
        endNs: BigInt(s.endTimeUnixNano),
        attributes: attributesOf(s.attributes),
        status: s.status?.code ?? 0,
      }))
    )
  )

const pointsOf = (metric: any): ReadonlyArray<CollectedPoint> => {
  const data = metric.sum ?? metric.gauge ?? metric.histogram
  return (data?.dataPoints ?? []).map((p: any): CollectedPoint => ({
    attributes: attributesOf(p.attributes),
    value: Number(p.asInt ?? p.asDouble ?? p.count ?? 0),
  }))
}

export const startCollector = (port = 0, host = "127.0.0.1"): Promise<Collector> => {
  const collector: Omit<Collector, "url" | "close"> = { spans: [], metrics: new Map() }
  const server: Server = createServer(async (req, res) => {
    try {
      const body = await readJson(req)
      if (req.url === "/v1/traces") {
        const batch = spansOf(body)
        collector.spans.push(...batch)
        collector.onSpans?.(batch)
      } else if (req.url === "/v1/metrics") {
        for (const rm of body.resourceMetrics ?? []) {
          for (const sm of rm.scopeMetrics ?? []) {
            for (const m of sm.metrics ?? []) collector.metrics.set(m.name, pointsOf(m))
          }
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}")
    } catch {
      res.writeHead(400).end()
    }
  })
  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, host, () => {
      const address = server.address()
      const bound = typeof address === "object" && address ? address.port : port
      resolve(Object.assign(collector, {
        url: `http://${host}:${bound}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }))
    })
  })
}

/** A trace as an indented tree, children in the order they started: `name (1.2 ms) key=value …`. */
export const traceTree = (spans: ReadonlyArray<CollectedSpan>, traceId: string): string => {
  const own = spans.filter((s) => s.traceId === traceId).sort((a, b) => (a.startNs < b.startNs ? -1 : 1))
  const ids = new Set(own.map((s) => s.spanId))
  const lines: Array<string> = []
  const walk = (span: CollectedSpan, depth: number) => {
    const ms = Number(span.endNs - span.startNs) / 1e6
    const shown = ["request.id", "http.response.status_code", "db.statement", "sms.provider", "job.name"]
      .filter((k) => span.attributes[k] !== undefined)
      .map((k) => `${k}=${String(span.attributes[k]).replace(/\s+/g, " ").slice(0, 70)}`)
    lines.push(`${"  ".repeat(depth)}${span.name} (${ms.toFixed(2)} ms)${shown.length ? " " + shown.join(" ") : ""}`)
    for (const child of own.filter((s) => s.parentSpanId === span.spanId)) walk(child, depth + 1)
  }
  for (const root of own.filter((s) => !ids.has(s.parentSpanId))) walk(root, 0)
  return lines.join("\n")
}

/**
 * Run on its own: prints each request's trace once its server span arrives (`--all`: the jobs' runs too);
 * `--count`: keeps nothing and prints how many spans arrived every 10 s (for a benchmark of telemetry on).
 */
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const all = process.argv.includes("--all")
  const countOnly = process.argv.includes("--count")
  const port = Number(process.env.PORT ?? 4318)
  const collector = await startCollector(port, process.env.HOST ?? "127.0.0.1")
  let count = 0
  collector.onSpans = (batch) => {
    if (countOnly) {
      count += batch.length
      collector.spans.length = 0
      return
    }
    const ids = new Set(batch.map((s) => s.spanId))
    for (const root of batch.filter((s) => !ids.has(s.parentSpanId) && (s.kind === 2 || all))) {
      console.log(traceTree(batch, root.traceId) + "\n")
    }
  }
  if (countOnly) setInterval(() => console.log(`${count} spans so far`), 10_000)
  console.log(`OTLP/HTTP stand-in listening on ${collector.url} (/v1/traces, /v1/metrics)`)
}
