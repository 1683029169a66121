/** W3C Trace Context's `traceparent` as the platform reads it on the way in and writes it on the way out (issue 32). */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { parseTraceparent, traceparentOf } from "../../adapters/telemetry/propagation.ts"

const hex = (length: number) =>
  fc.array(fc.constantFrom(..."0123456789abcdef"), { minLength: length, maxLength: length }).map((a) => a.join(""))
const nonZero = (length: number) => hex(length).filter((s) => !/^0+$/.test(s))

describe("traceparent: `00-<trace id>-<parent id>-<flags>` is continued, anything else starts a trace of its own", () => {
  it("what the platform writes, it reads back: the same trace, parent and sampled flag", () => {
    fc.assert(fc.property(nonZero(32), nonZero(16), fc.boolean(), (traceId, spanId, sampled) => {
      const span = parseTraceparent(traceparentOf({ _tag: "ExternalSpan", traceId, spanId, sampled } as any))
      expect(span).toMatchObject({ traceId, spanId, sampled })
    }))
  })

  it("upper-case hex is read as lower case; the flags' low bit is `sampled`", () => {
    expect(parseTraceparent("00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-03")).toMatchObject({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      sampled: true,
    })
    expect(parseTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00")?.sampled).toBe(false)
  })

  it("a later version's header is read by its first four fields; version ff, all-zero ids and other forms are not", () => {
    expect(parseTraceparent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra")?.traceId).toBe(
      "4bf92f3577b34da6a3ce929d0e0e4736",
    )
    for (
      const refused of [
        undefined,
        "",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        `00-${"0".repeat(32)}-00f067aa0ba902b7-01`,
        `00-4bf92f3577b34da6a3ce929d0e0e4736-${"0".repeat(16)}-01`,
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
        "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
      ]
    ) expect(parseTraceparent(refused), String(refused)).toBeUndefined()
  })

  it("no text makes the reader throw", () => {
    fc.assert(fc.property(fc.string(), (s) => {
      parseTraceparent(s)
    }))
  })
})
