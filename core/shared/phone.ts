/**
 * Saudi mobile numbers.
 *
 * Accepted inputs (spaces and hyphens are ignored anywhere):
 *   `+9665XXXXXXXX`, `9665XXXXXXXX`, `009665XXXXXXXX`, `05XXXXXXXX`, `5XXXXXXXX`.
 * The nine national digits must match the SA mobile pattern of libphonenumber's metadata.
 * Output is always E.164, `+9665XXXXXXXX`, branded `SaudiMobile`.
 */
import { Option, ParseResult, Schema } from "effect"
import { SaudiMobile } from "./brands.ts"

/**
 * National number pattern of SA mobiles, copied from libphonenumber-js 1.13.16,
 * `metadata.max.json` -> `countries.SA` -> mobile type (possible length 9).
 * Update by hand when the metadata changes.
 */
export const SA_MOBILE_NATIONAL_PATTERN = "579[0-8]\\d{5}|5(?:[013-689]\\d|7[0-8])\\d{6}"

const nationalMobile = new RegExp(`^(?:${SA_MOBILE_NATIONAL_PATTERN})$`)
const separators = /[ -]/g
/** International prefix (`+966`, `00966`, `966`) or trunk prefix (`0`) or none, then nine digits. */
const shape = /^(?:\+966|00966|966|0)?(\d{9})$/

/** Parses any accepted form of a Saudi mobile number into `+9665XXXXXXXX`. */
export const parseSaudiMobile = (input: string): Option.Option<SaudiMobile> => {
  const national = shape.exec(input.replace(separators, ""))?.[1]
  return national !== undefined && nationalMobile.test(national)
    ? Option.some(SaudiMobile(`+966${national}`))
    : Option.none()
}

/** True for a string already in the canonical form `+9665XXXXXXXX` of a valid mobile. */
export const isSaudiMobile = (s: string): s is SaudiMobile => s.startsWith("+966") && nationalMobile.test(s.slice(4))

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
