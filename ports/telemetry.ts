/**
 * Whether this platform traces and counts (issue 32): off unless OTEL_EXPORTER_OTLP_ENDPOINT or METRICS turns
 * it on (adapters/telemetry/layer.ts provides it then). Off, the adapters open none of their spans (a SQL
 * statement's, an outbound call's) and send no `traceparent`, so the default costs nothing per request.
 */
import { Context } from "effect"

export class Telemetry extends Context.Reference<Telemetry>()("ports/Telemetry", {
  defaultValue: () => ({ tracing: false, metrics: false }),
}) {}
