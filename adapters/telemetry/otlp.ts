/**
 * The OTLP/HTTP exporters (JSON bodies) over Effect's own HttpClient on `fetch`: the same on Node, Deno and Bun.
 * Loaded only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (layer.ts imports it then).
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as OtlpMetrics from "@effect/opentelemetry/OtlpMetrics"
import * as OtlpSerialization from "@effect/opentelemetry/OtlpSerialization"
import * as OtlpTracer from "@effect/opentelemetry/OtlpTracer"
import { type Duration, Layer } from "effect"

export interface OtlpOptions {
  /** The collector's base URL: spans go to `/v1/traces`, metrics to `/v1/metrics`. */
  readonly endpoint: string
  readonly serviceName: string
  /** Default 5 s; what is left is sent when the platform is disposed. */
  readonly exportInterval?: Duration.DurationInput
}

export const otlpExporters = (options: OtlpOptions): Layer.Layer<never> => {
  const resource = { serviceName: options.serviceName }
  return Layer.mergeAll(
    OtlpTracer.layer({ url: `${options.endpoint}/v1/traces`, resource, exportInterval: options.exportInterval }),
    OtlpMetrics.layer({ url: `${options.endpoint}/v1/metrics`, resource, exportInterval: options.exportInterval }),
  ).pipe(Layer.provide(OtlpSerialization.layerJson), Layer.provide(FetchHttpClient.layer))
}
