/**
 * `GET /metrics` in the Prometheus text exposition format (version 0.0.4), when `METRICS=prometheus`: Effect's
 * metrics of this process (core/shared/metrics.ts) rendered as they are, with no dependency of its own.
 */
import { Effect, Metric, type MetricPair, MetricState } from "effect"
import type { Route } from "../../core/pipeline/handler.ts"

const escapeLabel = (v: string) => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"')
const escapeHelp = (v: string) => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")
/** A metric or label name as Prometheus accepts it: `[a-zA-Z_:][a-zA-Z0-9_:]*`. */
const safeName = (name: string) => name.replace(/[^a-zA-Z0-9_:]/g, "_").replace(/^([0-9])/, "_$1")

const labelText = (labels: ReadonlyArray<readonly [string, string]>): string =>
  labels.length === 0 ? "" : `{${labels.map(([k, v]) => `${safeName(k)}="${escapeLabel(v)}"`).join(",")}}`

const number = (n: number | bigint): string =>
  typeof n === "bigint"
    ? n.toString()
    : Number.isNaN(n)
    ? "NaN"
    : n === Infinity
    ? "+Inf"
    : n === -Infinity
    ? "-Inf"
    : String(n)

interface Family {
  readonly type: "counter" | "gauge" | "histogram" | "summary"
  readonly help: string
  readonly lines: Array<string>
}

/** The exposition text of some metric pairs (Effect's `Metric.snapshot`), one family per name. */
export const render = (pairs: ReadonlyArray<MetricPair.MetricPair.Untyped>): string => {
  const families = new Map<string, Family>()
  const family = (name: string, type: Family["type"], help: string) => {
    let f = families.get(name)
    if (f === undefined) families.set(name, f = { type, help, lines: [] })
    return f
  }
  for (const { metricKey: key, metricState: state } of pairs) {
    const name = safeName(key.name)
    const help = key.description._tag === "Some" ? key.description.value : key.name
    const tags = key.tags.map((t) => [t.key, t.value] as const)
    if (MetricState.isCounterState(state)) {
      family(name, "counter", help).lines.push(`${name}${labelText(tags)} ${number(state.count)}`)
    } else if (MetricState.isGaugeState(state)) {
      family(name, "gauge", help).lines.push(`${name}${labelText(tags)} ${number(state.value)}`)
    } else if (MetricState.isHistogramState(state)) {
      const f = family(name, "histogram", help)
      // Effect's buckets are cumulative and end with +Inf, as Prometheus' are.
      for (const [le, count] of state.buckets) {
        f.lines.push(`${name}_bucket${labelText([...tags, ["le", number(le)]])} ${count}`)
      }
      if (!state.buckets.some(([le]) => le === Infinity)) {
        f.lines.push(`${name}_bucket${labelText([...tags, ["le", "+Inf"]])} ${state.count}`)
      }
      f.lines.push(
        `${name}_sum${labelText(tags)} ${number(state.sum)}`,
        `${name}_count${labelText(tags)} ${state.count}`,
      )
    } else if (MetricState.isSummaryState(state)) {
      const f = family(name, "summary", help)
      for (const [q, value] of state.quantiles) {
        if (value._tag === "Some") {
          f.lines.push(`${name}${labelText([...tags, ["quantile", String(q)]])} ${number(value.value)}`)
        }
      }
      f.lines.push(
        `${name}_sum${labelText(tags)} ${number(state.sum)}`,
        `${name}_count${labelText(tags)} ${state.count}`,
      )
    } else if (MetricState.isFrequencyState(state)) {
      const f = family(name, "counter", help)
      for (const [word, count] of state.occurrences) {
        f.lines.push(`${name}${labelText([...tags, ["key", word]])} ${count}`)
      }
    }
  }
  const out: Array<string> = []
  for (const [name, f] of [...families].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)) {
    out.push(`# HELP ${name} ${escapeHelp(f.help)}`, `# TYPE ${name} ${f.type}`, ...f.lines)
  }
  return out.join("\n") + "\n"
}

const encoder = new TextEncoder()

/** `GET /metrics`: no credential, as Prometheus scrapes it (keep it behind the network's own fence). */
export const metricsRoute: Route<never> = {
  method: "GET",
  path: "/metrics",
  handler: () =>
    Effect.map(Metric.snapshot, (pairs) => ({
      status: 200,
      headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8", "cache-control": "no-store" },
      body: encoder.encode(render(pairs)),
    })),
}
