import { Either, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { decodeWith, ErrorCode } from "../../../core/pipeline/decode.ts"

const Body = Schema.Struct({
  name: Schema.String.pipe(Schema.maxLength(5)).annotations({ [ErrorCode]: "too_long" }),
  buyer: Schema.Struct({ vat_number: Schema.String.pipe(Schema.pattern(/^3\d{14}$/)) }),
  items: Schema.Array(Schema.Struct({ sku: Schema.String })),
  note: Schema.optional(Schema.String),
})
const decode = decodeWith(Body)
const good = { name: "abc", buyer: { vat_number: "300000000000003" }, items: [{ sku: "x" }] }

const refusal = (input: unknown) => {
  const r = decode(input)
  if (Either.isRight(r)) throw new Error("accepted")
  return r.left
}

describe("refused fields add `fields` {name: message} and `errors` {name: code} (DECISIONS 7-15, 10)", () => {
  it("a good input decodes", () => {
    expect(decode(good)).toEqual(Either.right(good))
  })

  it("every refused field is named by its path, with its code: required, unknown, its own, invalid", () => {
    const e = refusal({ name: "toolong", buyer: { vat_number: "1" }, items: [{ sku: "a" }, {}], x: 1 })
    expect(e.errors).toEqual({
      name: "too_long",
      "buyer.vat_number": "invalid",
      "items[1].sku": "required",
      x: "unknown",
    })
    expect(Object.keys(e.fields!)).toEqual(Object.keys(e.errors!))
    expect(e.fields!["items[1].sku"]).toBe("is required")
    expect(e.message).toBe("4 fields are refused.")
  })

  it("one refused field: the message names it", () => {
    const e = refusal({ ...good, name: 5 })
    expect(e.errors).toEqual({ name: "invalid" })
    expect(e.message).toMatch(/^`name` /)
  })

  it("property: a decoder never throws, and refuses exactly what the Schema refuses, naming at least one field", () => {
    fc.assert(
      fc.property(fc.anything(), (input) => {
        const ours = decode(input)
        const schema = Schema.decodeUnknownEither(Body, { onExcessProperty: "error" })(input)
        expect(Either.isRight(ours)).toBe(Either.isRight(schema))
        if (Either.isLeft(ours)) expect(Object.keys(ours.left.errors ?? {}).length).toBeGreaterThan(0)
      }),
      { numRuns: 500 },
    )
  })
})
