import { describe, expect, it } from "@effect/vitest"
import { Either, Option, Schema } from "effect"
import * as fc from "effect/FastCheck"
import { parsePhoneNumberFromString } from "libphonenumber-js/max"
import metadata from "libphonenumber-js/metadata.max.json" with { type: "json" }
import {
  maskMobile,
  parseSaudiMobile,
  SA_MOBILE_NATIONAL_PATTERN,
  SaudiMobileE164,
  SaudiMobileFromString,
} from "../../../core/shared/phone.ts"

/** Nine national digits of a valid SA mobile, generated from the metadata's pattern (core/shared/phone.ts). */
const nationalMobile = fc.stringMatching(new RegExp(`^(?:${SA_MOBILE_NATIONAL_PATTERN})$`))

/** Inserts random spaces and hyphens between (and around) the characters of `s`. */
const withSeparators = (s: string) =>
  fc.array(fc.constantFrom("", "", "", " ", "-", "  ", " - "), { minLength: s.length + 1, maxLength: s.length + 1 })
    .map((seps) => seps.map((sep, i) => sep + (s[i] ?? "")).join(""))

const libIsMobile = (input: string) => parsePhoneNumberFromString(input, "SA")?.getType() === "MOBILE"

describe("the pattern tests generate from is the SA mobile pattern of the installed libphonenumber metadata", () => {
  it("equals metadata.max.json countries.SA mobile national number pattern", () => {
    const sa = (metadata as unknown as { countries: Record<string, Array<unknown>> }).countries.SA
    const types = sa[11] as Array<[string, Array<number>]>
    expect(types[1][0]).toBe(SA_MOBILE_NATIONAL_PATTERN)
    expect(types[1][1]).toEqual([9])
  })
})

describe("accepted formats: +9665…, 9665…, 009665…, 05…, 5…, spaces and hyphens ignored anywhere; output +9665XXXXXXXX", () => {
  it.prop("all five formats of a valid mobile normalize to the same +966 number", [nationalMobile], ([national]) => {
    const expected = `+966${national}`
    for (const form of [`+966${national}`, `966${national}`, `00966${national}`, `0${national}`, national]) {
      expect(parseSaudiMobile(form)).toEqual(Option.some(expected))
    }
  })

  it.prop(
    "random spaces and hyphens anywhere are ignored",
    [nationalMobile.chain((n) =>
      fc.constantFrom(`+966${n}`, `966${n}`, `00966${n}`, `0${n}`, n).chain(withSeparators).map((s) => [n, s] as const)
    )],
    ([[national, input]]) => {
      expect(parseSaudiMobile(input)).toEqual(Option.some(`+966${national}`))
    },
  )

  it("examples", () => {
    expect(parseSaudiMobile("+966 50 123 4567")).toEqual(Option.some("+966501234567"))
    expect(parseSaudiMobile("050-123-4567")).toEqual(Option.some("+966501234567"))
    expect(parseSaudiMobile("00966-55-555-1234")).toEqual(Option.some("+966555551234"))
    expect(parseSaudiMobile("579012345")).toEqual(Option.some("+966579012345"))
  })
})

describe("valid only where libphonenumber's metadata says SA mobile", () => {
  it.prop(
    "agrees with libphonenumber-js getType() === 'MOBILE' on random 9-digit strings starting with 5",
    [fc.stringMatching(/^5\d{8}$/)],
    ([national]) => {
      for (const form of [national, `0${national}`, `+966${national}`]) {
        expect(Option.isSome(parseSaudiMobile(form))).toBe(libIsMobile(form))
      }
    },
    { fastCheck: { numRuns: 2000 } },
  )

  it.prop(
    "agrees with libphonenumber-js on the 579x and 57x blocks",
    [fc.stringMatching(/^57\d{7}$/)],
    ([national]) => {
      expect(Option.isSome(parseSaudiMobile(national))).toBe(libIsMobile(`+966${national}`))
    },
  )
})

describe("rejected: landlines, wrong lengths, letters, other country codes", () => {
  it.prop("landlines (+9661…) are rejected", [fc.stringMatching(/^1\d{8}$/)], ([national]) => {
    expect(parseSaudiMobile(`+966${national}`)).toEqual(Option.none())
    expect(parseSaudiMobile(`0${national}`)).toEqual(Option.none())
  })

  it.prop(
    "one digit too few or too many is rejected",
    [nationalMobile, fc.integer({ min: 0, max: 9 })],
    ([national, d]) => {
      for (const n of [national.slice(0, -1), national + d]) {
        for (const form of [`+966${n}`, `966${n}`, `00966${n}`, `0${n}`, n]) {
          expect(parseSaudiMobile(form)).toEqual(
            Option.none(),
          )
        }
      }
    },
  )

  it.prop(
    "a letter anywhere is rejected",
    [nationalMobile, fc.nat(), fc.constantFrom(..."aOlxX+()./")],
    ([national, at, letter]) => {
      const form = `+966${national}`
      const i = 1 + (at % (form.length - 1))
      expect(parseSaudiMobile(form.slice(0, i) + letter + form.slice(i))).toEqual(Option.none())
    },
  )

  it.prop(
    "other country codes are rejected",
    [nationalMobile, fc.constantFrom("+971", "+965", "+973", "+1", "+44", "+20", "00971", "971")],
    ([national, cc]) => {
      expect(parseSaudiMobile(`${cc}${national}`)).toEqual(Option.none())
    },
  )

  it("examples", () => {
    for (
      const bad of [
        "",
        "+966112345678", // Riyadh landline
        "+9660501234567", // trunk 0 after the country code
        "+966 8001234567", // toll free
        "+966 920012345", // shared cost
        "+966 527 123 456", // 52x is not a mobile block
        "+966 579 912 345", // 5799 is outside 579[0-8]
        "+96650123456", // short
        "+9665012345678", // long
        "+971501234567",
        "0096650123456x",
        "\t0501234567",
        "٠١١٢٣٤٥٦٧٨", // a landline in Arabic-Indic digits
      ]
    ) expect(parseSaudiMobile(bad)).toEqual(Option.none())
  })
})

describe("digits in Arabic-Indic and Eastern Arabic-Indic forms, Unicode spaces and bidirectional marks are read", () => {
  it("examples", () => {
    for (
      const good of [
        "٠٥٠١٢٣٤٥٦٧", // Arabic-Indic
        "۰۵۰۱۲۳۴۵۶۷", // Eastern Arabic-Indic
        "+٩٦٦٥٠١٢٣٤٥٦٧",
        "050\u00a0123\u00a04567", // no-break spaces
        "\u200f050 123 4567\u200e", // right-to-left and left-to-right marks
        "050\u2011123\u20134567", // a non-breaking hyphen, an en dash
      ]
    ) expect(parseSaudiMobile(good), good).toEqual(Option.some("+966501234567"))
  })

  it.prop(
    "any valid mobile written with Arabic-Indic digits parses as written with ASCII ones",
    [nationalMobile],
    ([n]) => {
      const arabic = `0${n}`.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d)))
      expect(parseSaudiMobile(arabic)).toEqual(Option.some(`+966${n}`))
    },
  )
})

describe("SaudiMobileFromString decodes any accepted form and encodes the canonical form", () => {
  it.prop("decode(form) is the parser's result", [nationalMobile], ([national]) => {
    expect(Schema.decodeUnknownSync(SaudiMobileFromString)(`05${national.slice(1)}`)).toBe(`+966${national}`)
    expect(Schema.encodeSync(SaudiMobileFromString)(Schema.decodeUnknownSync(SaudiMobileFromString)(national))).toBe(
      `+966${national}`,
    )
  })

  it("invalid input is a parse error, not a throw", () => {
    expect(Either.isLeft(Schema.decodeUnknownEither(SaudiMobileFromString)("+966112345678"))).toBe(true)
    expect(Either.isLeft(Schema.decodeUnknownEither(SaudiMobileFromString)(501234567))).toBe(true)
  })

  it.prop("the canonical schema's arbitrary yields valid mobiles", [SaudiMobileE164], ([m]) => {
    expect(parseSaudiMobile(m)).toEqual(Option.some(m))
    expect(libIsMobile(m)).toBe(true)
  })
})

describe("maskMobile keeps +9665 and the last four digits, masking the four between: +9665****1234", () => {
  it("example", () => {
    expect(maskMobile(Option.getOrThrow(parseSaudiMobile("0501234567")))).toBe("+9665****4567")
  })

  it.prop("same length, same ends, four stars", [nationalMobile], ([national]) => {
    const m = Option.getOrThrow(parseSaudiMobile(national))
    const masked = maskMobile(m)
    expect(masked).toHaveLength(m.length)
    expect(masked).toBe(`+9665****${national.slice(-4)}`)
  })
})
