import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { codePointLength, isStorableText, unstorableFields } from "../../../core/shared/text.ts"

/** The reference: UTF-8 can encode the string (no lone surrogate) and it holds no NUL. */
const storableReference = (s: string) => {
  try {
    encodeURIComponent(s)
  } catch {
    return false
  }
  return !s.includes("\u0000")
}

const anyUnits = fc.array(
  fc.oneof(
    fc.constantFrom(0, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0x41, 0xe9, 0xfeff),
    fc.integer({ min: 0, max: 0xffff }),
  ),
  { maxLength: 12 },
).map((units) => String.fromCharCode(...units))

describe("text the stores can hold: no NUL, no unpaired surrogate", () => {
  it("isStorableText agrees with UTF-8 encodability and the absence of NUL, for any UTF-16 string", () => {
    fc.assert(fc.property(anyUnits, (s) => isStorableText(s) === storableReference(s)), { numRuns: 5_000 })
  })

  it("every string of whole code points from every plane without NUL is storable", () => {
    fc.assert(fc.property(fc.fullUnicodeString(), (s) => isStorableText(s.replaceAll("\u0000", ""))))
  })

  it("unstorableFields names each refused string or property name by its path, at any depth, and only those", () => {
    expect(unstorableFields({ a: "ok", b: "x\u0000", c: { d: ["ok", "\ud800"] }, ["k\u0000"]: 1 })).toEqual({
      b: "must not contain NUL (U+0000) or unpaired surrogates",
      "c.d[1]": "must not contain NUL (U+0000) or unpaired surrogates",
      "k\\u0000": "must not contain NUL (U+0000) or unpaired surrogates",
    })
    expect(unstorableFields({ a: "🎉", b: [1, true, null, { c: "é" }] })).toBeUndefined()
  })

  it("a body nested deeper than the call stack is walked without overflowing it", () => {
    let deep: unknown = "\u0000"
    for (let i = 0; i < 100_000; i++) deep = [deep]
    const found = unstorableFields({ deep })
    expect(Object.keys(found ?? {})).toHaveLength(1)
  })
})

describe("lengths are counted in code points, as the spec counts characters", () => {
  it("codePointLength equals the number of code points the string iterator yields", () => {
    fc.assert(fc.property(anyUnits, (s) => codePointLength(s) === [...s].length), { numRuns: 5_000 })
    fc.assert(fc.property(fc.fullUnicodeString(), (s) => codePointLength(s) === [...s].length))
  })
})
