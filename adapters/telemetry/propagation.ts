/** W3C Trace Context (`traceparent`): continued on the way in, sent on the way out (webhooks). */
import { Effect, Option, Tracer } from "effect"
import { Telemetry } from "../../ports/telemetry.ts"

const traceparentForm = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/

/**
 * The caller's span of an incoming `traceparent` (version 00, or a later one read as 00 would be), or undefined
 * when the header is absent or not one: an all-zero trace or parent id is invalid, as is version `ff`.
 */
export const parseTraceparent = (header: string | undefined): Tracer.ExternalSpan | undefined => {
  if (header === undefined) return undefined
  const m = traceparentForm.exec(header.trim().toLowerCase())
  if (m === null || m[1] === "ff" || (m[1] === "00" && header.trim().length !== 55)) return undefined
  if (/^0+$/.test(m[2]) || /^0+$/.test(m[3])) return undefined
  return Tracer.externalSpan({ traceId: m[2], spanId: m[3], sampled: (parseInt(m[4], 16) & 1) === 1 })
}

/** The `traceparent` naming a span as the parent of the next hop. */
export const traceparentOf = (span: Tracer.AnySpan): string =>
  `00-${span.traceId}-${span.spanId}-${span.sampled ? "01" : "00"}`

/** The current span's `traceparent` while tracing is on; undefined otherwise (nothing is sent by default). */
export const currentTraceparent: Effect.Effect<string | undefined> = Effect.flatMap(
  Telemetry,
  (t) =>
    t.tracing
      ? Effect.map(Effect.option(Effect.currentSpan), (span) => Option.getOrUndefined(Option.map(span, traceparentOf)))
      : Effect.succeed(undefined),
)
