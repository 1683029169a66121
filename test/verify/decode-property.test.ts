/**
 * The hand-written decoders of Verify's hot path (core/verify/requests.ts, kept by hand where measured to
 * matter) held to the declared Schemas (`StartBody`, `CheckBody` in core/verify/operations.ts) over random
 * bodies: they never accept what the Schema refuses, and where the Schema accepts they refuse only for what
 * a Schema of shapes cannot say (not a Saudi mobile, a channel other than sms, an address that is not one).
 */
import { Either, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { CheckBody, StartBody } from "../../core/verify/operations.ts"
import { parseCheck, parseStart } from "../../core/verify/requests.ts"

const arabic = (s: string) => s.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d)))

/** Any JSON value, and the strings a destination or code field meets in practice. */
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom("", " ", "sms", "whatsapp", "0551234567", arabic("0551234567"), "+966551234567", "123456"),
  fc.constantFrom(arabic("019781"), "019781", "\u00a00551234567", "1.2.3.4", "::1", "not-an-ip"),
  fc.string({ unit: "grapheme", maxLength: 300 }),
  fc.integer(),
  fc.constant(null),
)

const body = (keys: ReadonlyArray<string>) =>
  fc.dictionary(fc.constantFrom(...keys, "other"), value, { maxKeys: keys.length + 1 }) as fc.Arbitrary<
    Record<string, any>
  >

const decodeStart = Schema.decodeUnknownEither(StartBody)
const decodeCheck = Schema.decodeUnknownEither(CheckBody)

describe("the hand-written start decoder agrees with the StartBody Schema", () => {
  it("never accepts a body the Schema refuses; refuses a body the Schema accepts only for meaning, not shape", () => {
    fc.assert(
      fc.property(body(["to", "reference", "channel", "client_ip"]), (b) => {
        const ours = parseStart(b)
        const schema = decodeStart(b)
        if (Either.isRight(ours)) expect(Either.isRight(schema)).toBe(true)
        if (Either.isRight(schema) && Either.isLeft(ours)) {
          const e = ours.left
          const meaning = e._tag === "invalid_destination" || e._tag === "unsupported_channel" ||
            (e._tag === "invalid_request" && Object.keys(e.fields ?? {}).every((f) => f === "client_ip" || f === "to"))
          expect(meaning, JSON.stringify({ b, e })).toBe(true)
        }
      }),
      { numRuns: 2_000 },
    )
  })
})

describe("the hand-written check decoder agrees with the CheckBody Schema", () => {
  it("never accepts a body the Schema refuses; accepts every body it accepts with a non-empty id and code", () => {
    fc.assert(
      fc.property(body(["id", "code"]), (b) => {
        const ours = parseCheck(b)
        const schema = decodeCheck(b)
        if (Either.isRight(ours)) expect(Either.isRight(schema)).toBe(true)
        if (Either.isRight(schema) && b.id !== "" && b.code !== "") expect(Either.isRight(ours)).toBe(true)
      }),
      { numRuns: 2_000 },
    )
  })
})
