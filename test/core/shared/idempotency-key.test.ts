import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import * as fc from "effect/FastCheck"
import { IdempotencyKey, parseIdempotencyKey } from "../../../core/shared/idempotency-key.ts"

const printable = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c))
const key = (min: number, max: number) => fc.stringOf(printable, { minLength: min, maxLength: max })
const notPrintable = fc.oneof(
  fc.integer({ min: 0x00, max: 0x1f }).map((c) => String.fromCharCode(c)), // control characters, tab included
  fc.constant("\x7f"), // DEL
  fc.integer({ min: 0x80, max: 0xffff }).map((c) => String.fromCharCode(c)), // beyond ASCII
  fc.constantFrom("é", "مفتاح", "🔑", "\u00a0"),
)

/** Both the parser and the Schema must agree on every input. */
const schemaAccepts = (s: string) => Either.isRight(Schema.decodeUnknownEither(IdempotencyKey)(s))

describe("an Idempotency-Key is 1 to 128 characters", () => {
  it("length 0 is empty", () => {
    expect(parseIdempotencyKey("")).toEqual(Either.left("empty"))
    expect(schemaAccepts("")).toBe(false)
  })

  it("lengths 1 and 128 are accepted", () => {
    for (const s of ["a", "x".repeat(128)]) {
      expect(parseIdempotencyKey(s)).toEqual(Either.right(s))
      expect(schemaAccepts(s)).toBe(true)
    }
  })

  it("length 129 is too_long", () => {
    expect(parseIdempotencyKey("x".repeat(129))).toEqual(Either.left("too_long"))
    expect(schemaAccepts("x".repeat(129))).toBe(false)
  })

  it.prop("every printable key of length 1..128 is accepted unchanged", [key(1, 128)], ([s]) => {
    expect(parseIdempotencyKey(s)).toEqual(Either.right(s))
    expect(schemaAccepts(s)).toBe(true)
  })

  it.prop(
    "every key longer than 128 is too_long, whatever its characters",
    [key(129, 400), fc.option(notPrintable)],
    ([s, bad]) => {
      expect(parseIdempotencyKey(bad === null ? s : s + bad)).toEqual(Either.left("too_long"))
    },
  )
})

describe("printable ASCII is 0x20..0x7E: the space is printable; control characters, DEL and non-ASCII are not", () => {
  it("space is printable, inside and at the ends", () => {
    for (const s of [" ", "order 42", " leading", "trailing "]) expect(parseIdempotencyKey(s)).toEqual(Either.right(s))
  })

  it("examples of not printable", () => {
    for (const s of ["a\tb", "a\nb", "\r", "\x00", "\x7f", "ключ", "café", "🔑"]) {
      expect(parseIdempotencyKey(s)).toEqual(Either.left("not_printable"))
      expect(schemaAccepts(s)).toBe(false)
    }
  })

  it.prop(
    "one non-printable character anywhere in a short key makes it not_printable",
    [key(0, 100), key(0, 20), notPrintable],
    ([before, after, bad]) => {
      const s = before + bad + after
      fc.pre(s.length <= 128)
      expect(parseIdempotencyKey(s)).toEqual(Either.left("not_printable"))
      expect(schemaAccepts(s)).toBe(false)
    },
  )
})
