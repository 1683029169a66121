/**
 * A request's span and metrics (issue 32): the span is named after the operation (`verify.start`, from its
 * declaration, so every product has it), continues an incoming `traceparent`, and holds the request id and the
 * answer's status; the use case's spans, its SQL statements and its outbound calls are its children. Only
 * installed when telemetry is on: off, the dispatcher runs the handler as it is.
 *
 * The span is made outside any fiber, with the runtime's own tracer and clock, and handed to the handler as the
 * initial context of its fiber (a runtime of the request's own): `Effect.withParentSpan` around the handler cost
 * about 12 µs a request more (a fiber-local context, set and restored), measured with bench/dispatch.ts.
 */
import { Clock, Context, DefaultServices, Exit, FiberRefs, MetricLabel, Option, Runtime, Tracer } from "effect"
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

export const requestObserver = (options: ObserverOptions, runtime: Runtime.Runtime<any>): RequestObserver => {
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
  const services = FiberRefs.getOrDefault(runtime.fiberRefs, DefaultServices.currentServices)
  const tracer = Context.get(services, Tracer.Tracer)
  const clock = Context.get(services, Clock.Clock)
  const noLinks: Array<Tracer.SpanLink> = []
  return {
    start: (route, req, handler) => {
      const started = performance.now()
      const name = nameOf(route)
      let span: Tracer.Span | undefined
      let own: Runtime.Runtime<any> | undefined
      if (options.tracing) {
        const parent = parseTraceparent(req.header("traceparent"))
        span = tracer.span(
          name,
          parent === undefined ? Option.none() : Option.some(parent),
          Context.empty(),
          noLinks,
          clock.unsafeCurrentTimeNanos(),
          "server",
        )
        span.attribute("http.request.method", req.method)
        span.attribute("http.route", route.path)
        span.attribute("url.path", req.path)
        span.attribute("request.id", req.requestId)
        own = Runtime.make({
          context: Context.add(runtime.context, Tracer.ParentSpan, span),
          fiberRefs: runtime.fiberRefs,
          runtimeFlags: runtime.runtimeFlags,
        })
      }
      const observed: ObservedRequest<any> = {
        handler,
        runtime: own,
        answered: (status, exit) => {
          if (span !== undefined) {
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
