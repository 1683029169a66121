/**
 * A request's span and metrics (issue 32): the span is named after the operation (`verify.start`, from its
 * declaration, so every product has it), continues an incoming `traceparent`, and holds the request id and the
 * answer's status; the use case's spans, its SQL statements and its outbound calls are its children. Only
 * installed when telemetry is on: off, the dispatcher runs the handler as it is.
 */
import { type Clock, Effect, Exit, MetricLabel, type Tracer } from "effect"
import { Metrics } from "../../core/shared/metrics.ts"
import type { ObservedRequest, RequestObserver } from "../http/dispatcher.ts"
import { parseTraceparent } from "./propagation.ts"

export interface ObserverOptions {
  readonly tracing: boolean
  readonly metrics: boolean
}

/** The span's name of a route that is no declared operation (`/healthz`, `/readyz`, `/metrics`). */
const nameOf = (route: { readonly name?: string; readonly method: string; readonly path: string }) =>
  route.name ?? `${route.method} ${route.path}`

export const requestObserver = (options: ObserverOptions): RequestObserver => {
  /** The metrics' labels of each operation and status, made once. */
  const labels = new Map<string, ReadonlyArray<MetricLabel.MetricLabel>>()
  const labelsOf = (operation: string, status: number) => {
    const key = `${operation} ${status}`
    let found = labels.get(key)
    if (found === undefined) {
      found = [MetricLabel.make("operation", operation), MetricLabel.make("status", String(status))]
      labels.set(key, found)
    }
    return found
  }
  return {
    start: (route, req, handler) => {
      const started = performance.now()
      const name = nameOf(route)
      let span: Tracer.Span | undefined
      let clock: Clock.Clock | undefined
      const traced = !options.tracing ? handler : Effect.clockWith((c) => {
        clock = c
        return Effect.flatMap(
          Effect.makeSpan(name, {
            kind: "server",
            parent: parseTraceparent(req.header("traceparent")),
            captureStackTrace: false,
            attributes: {
              "http.request.method": req.method,
              "http.route": route.path,
              "url.path": req.path,
              "request.id": req.requestId,
            },
          }),
          (s) => {
            span = s
            return Effect.withParentSpan(handler, s)
          },
        )
      })
      const observed: ObservedRequest<any> = {
        handler: traced,
        answered: (status, exit) => {
          if (span !== undefined && clock !== undefined) {
            span.attribute("http.response.status_code", status)
            // A 5xx is the server's failure (its cause when there is one); any other answer is a success.
            span.end(
              clock.unsafeCurrentTimeNanos(),
              status < 500
                ? Exit.void
                : exit !== undefined && Exit.isFailure(exit)
                ? exit
                : Exit.fail(`HTTP ${status}`),
            )
          }
          if (options.metrics) {
            const tags = labelsOf(name, status)
            Metrics.requests.unsafeUpdate(1, tags)
            Metrics.requestDuration.unsafeUpdate((performance.now() - started) / 1000, tags)
          }
        },
      }
      return observed
    },
  }
}
