/**
 * Telemetry from the settings (issue 32). Off by default: no Tracer is installed (Effect's own stays, whose
 * spans go nowhere), no metric is exported, no request is watched. `OTEL_EXPORTER_OTLP_ENDPOINT` exports the
 * spans and the metrics over OTLP/HTTP (otlp.ts); `METRICS=prometheus` serves `/metrics` (prometheus.ts).
 */
import { type Duration, Effect, Layer, MetricLabel, type Runtime } from "effect"
import { Metrics } from "../../core/shared/metrics.ts"
import { SmsGateway } from "../../ports/sms.ts"
import { Telemetry } from "../../ports/telemetry.ts"
import type { Settings } from "../config.ts"
import type { RequestObserver } from "../http/dispatcher.ts"
import { requestObserver } from "./request.ts"

export interface TelemetryOn {
  /** Spans exported (OTLP). */
  readonly tracing: boolean
  /** Metrics exported (OTLP) or served (`/metrics`). */
  readonly metrics: boolean
  readonly prometheus: boolean
}

export const telemetryOf = (settings: Settings): TelemetryOn => {
  const otlp = settings.otelEndpoint !== undefined
  const prometheus = settings.metrics === "prometheus"
  return { tracing: otlp, metrics: otlp || prometheus, prometheus }
}

const isOn = (t: TelemetryOn) => t.tracing || t.metrics

/** What a test may change: how often the exporters send (default 5 s; all that is left goes at shutdown). */
export interface TelemetryOptions {
  readonly exportInterval?: Duration.DurationInput
}

/**
 * The platform's telemetry layer: nothing when off; else the `Telemetry` switch the adapters read and, with
 * an endpoint, the OTLP exporters (flushed when the platform is disposed).
 */
export const telemetryLayer = (settings: Settings, options: TelemetryOptions = {}): Layer.Layer<never> => {
  const on = telemetryOf(settings)
  if (!isOn(on)) return Layer.empty
  const flag = Layer.succeed(Telemetry, { tracing: on.tracing, metrics: on.metrics }) as Layer.Layer<never>
  const endpoint = settings.otelEndpoint
  if (endpoint === undefined) return flag
  // Loaded only when asked for: a start without an endpoint does not load the exporters.
  const exporters = Layer.unwrapEffect(Effect.promise(() =>
    import("./otlp.ts").then((m) =>
      m.otlpExporters({
        endpoint,
        serviceName: settings.otelServiceName ?? defaultServiceName,
        exportInterval: options.exportInterval,
      })
    )
  ))
  return Layer.merge(flag, exporters)
}

export const defaultServiceName = "sa-messaging"

/** The dispatcher's observer of each request: none when off (the dispatcher then runs handlers as they are). */
export const observerOf = (settings: Settings, runtime: Runtime.Runtime<any>): RequestObserver | undefined => {
  const on = telemetryOf(settings)
  return isOn(on) ? requestObserver(on, runtime) : undefined
}

/**
 * The SMS gateway, watched while telemetry is on: a client span per text (`sms.send`) and the count of sends by
 * provider and outcome. Off, the gateway is the provider's own.
 */
export const observedSms = <E, R>(
  settings: Settings,
  gateway: Layer.Layer<SmsGateway, E, R>,
): Layer.Layer<SmsGateway, E, R> => {
  const on = telemetryOf(settings)
  if (!isOn(on)) return gateway
  const provider = settings.smsProvider
  const accepted = [MetricLabel.make("provider", provider), MetricLabel.make("outcome", "accepted")]
  const refused = [MetricLabel.make("provider", provider), MetricLabel.make("outcome", "refused")]
  return Layer.effect(
    SmsGateway,
    Effect.map(SmsGateway, (gw) =>
      SmsGateway.of({
        send: (sms) => {
          const counted = gw.send(sms).pipe(
            Effect.tapBoth({
              onSuccess: () => Effect.sync(() => Metrics.smsSends.unsafeUpdate(1, accepted)),
              onFailure: (e) =>
                Effect.zipRight(
                  Effect.annotateCurrentSpan("sms.provider_code", e.providerCode),
                  Effect.sync(() => Metrics.smsSends.unsafeUpdate(1, refused)),
                ),
            }),
          )
          return on.tracing
            ? Effect.withSpan(counted, "sms.send", {
              kind: "client",
              captureStackTrace: false,
              attributes: { "sms.provider": provider },
            })
            : counted
        },
      })),
  ).pipe(Layer.provideMerge(gateway))
}
