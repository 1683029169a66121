/**
 * Saudi mobile numbers.
 *
 * Accepted inputs: `+9665XXXXXXXX`, `9665XXXXXXXX`, `009665XXXXXXXX`, `05XXXXXXXX`, `5XXXXXXXX`, with
 * spaces (any Unicode space, NBSP included), hyphens and bidirectional marks ignored anywhere, and digits
 * in Arabic-Indic (٠١٢…) or Eastern Arabic-Indic (۰۱۲…) form read as ASCII digits. Whether the nine national
 * digits are a Saudi mobile is libphonenumber-js's answer, from its own API and mobile metadata.
 * Output is always E.164, `+9665XXXXXXXX`, branded `SaudiMobile`.
 *
 * Cost, measured by `npx tsx bench/phone.ts`: about 5 µs a parse (the regular expression copied out of the
 * metadata before took about 0.3 µs); a verification costs about 1.5 ms of host CPU, so this is 0.3 % of it.
 */
import { Option, ParseResult, Schema } from "effect"
import { Metadata } from "libphonenumber-js/core"
import mobileMetadata from "libphonenumber-js/metadata.mobile.json"
import { parsePhoneNumberFromString } from "libphonenumber-js/mobile"
import { SaudiMobile } from "./brands.ts"

/**
 * The national number pattern of SA mobiles in the installed metadata (libphonenumber-js's `Metadata`), for
 * generating valid numbers in tests; the parse itself asks the library.
 */
export const SA_MOBILE_NATIONAL_PATTERN: string = (() => {
  const metadata = new Metadata(mobileMetadata)
  metadata.selectNumberingPlan("SA")
  // `type()` is in the library's runtime API but not in its declarations.
  const plan = metadata.numberingPlan as unknown as { type(t: string): { pattern(): string } | undefined } | undefined
  const pattern = plan?.type("MOBILE")?.pattern()
  if (pattern === undefined) throw new Error("libphonenumber-js metadata has no SA mobile pattern")
  return pattern
})()

/** Arabic-Indic (U+0660–0669) and Eastern Arabic-Indic (U+06F0–06F9) digits as ASCII digits. */
export const asciiDigits = (input: string): string =>
  /[\u0660-\u0669\u06f0-\u06f9]/.test(input)
    ? input.replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (d) => String((d.charCodeAt(0) & 0xf) % 10))
    : input

/**
 * What a person may type between digits: spaces of every kind (Unicode's space separators; not tabs or line
 * breaks), hyphens and dashes, bidirectional marks.
 */
const ignored =
  /[ \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\-\u2010-\u2015\u2212\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c\ufeff]/g
/** International prefix (`+966`, `00966`, `966`) or trunk prefix (`0`) or none, then nine digits. */
const shape = /^(?:\+966|00966|966|0)?(\d{9})$/

/** Parses any accepted form of a Saudi mobile number into `+9665XXXXXXXX`. */
export const parseSaudiMobile = (input: string): Option.Option<SaudiMobile> => {
  const national = shape.exec(asciiDigits(input).replace(ignored, ""))?.[1]
  if (national === undefined) return Option.none()
  const parsed = parsePhoneNumberFromString(`+966${national}`)
  return parsed !== undefined && parsed.country === "SA" && parsed.isValid()
    ? Option.some(SaudiMobile(parsed.number))
    : Option.none()
}

/** True for a string already in the canonical form `+9665XXXXXXXX` of a valid mobile. */
export const isSaudiMobile = (s: string): s is SaudiMobile =>
  /^\+9665\d{8}$/.test(s) && Option.isSome(parseSaudiMobile(s))

/** The branded canonical form; its arbitrary generates valid numbers from the metadata pattern. */
export const SaudiMobileE164 = Schema.String.pipe(
  Schema.filter(isSaudiMobile, { message: () => "expected a Saudi mobile number in the form +9665XXXXXXXX" }),
  Schema.fromBrand(SaudiMobile),
  Schema.annotations({
    arbitrary: () => (fc) =>
      fc.stringMatching(new RegExp(`^\\+966(?:${SA_MOBILE_NATIONAL_PATTERN})$`)).map(SaudiMobile),
  }),
)

/** Decodes any accepted input form to `SaudiMobile`; encodes back to the canonical string. */
export const SaudiMobileFromString = Schema.transformOrFail(Schema.String, SaudiMobileE164, {
  strict: true,
  decode: (input, _, ast) =>
    Option.match(parseSaudiMobile(input), {
      onNone: () => ParseResult.fail(new ParseResult.Type(ast, input, "not a valid Saudi mobile number")),
      onSome: ParseResult.succeed,
    }),
  encode: ParseResult.succeed,
})

/**
 * Masks a number for logs and display: keeps `+9665` and the last four digits and
 * replaces the four digits between with `*`, e.g. `+966512345678` -> `+9665****5678`.
 */
export const maskMobile = (m: SaudiMobile): string => `${m.slice(0, 5)}****${m.slice(-4)}`
