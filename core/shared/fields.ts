/**
 * The console's fields as Schemas (DECISIONS 2): a console body ignores the fields it does not take and reads
 * `null` as a field not given, as the console always did; a refused field is `required`, `too_long` (more
 * characters, as code points, than it holds) or `invalid` (core/pipeline/decode.ts names them).
 */
import { Schema } from "effect"
import { ErrorCode, Lenient, type LenientReading, OneField } from "../pipeline/decode.ts"
import { IpRangeFromString } from "./ip.ts"
import { withoutControlCharacters } from "./names.ts"
import { codePointLength } from "./text.ts"

/** A console body: other fields ignored; `nullIsAbsent` (the default) reads `null` as not given. */
export const consoleBody = <F extends Schema.Struct.Fields>(
  fields: F,
  reading: LenientReading = { nullIsAbsent: true },
) => Schema.Struct(fields).annotations({ [Lenient]: reading })

/** A refinement whose refusal reads `message` (the field's message in `fields`), and its other annotations. */
export const check = <A>(
  predicate: (a: A) => boolean,
  message: string,
  annotations: Schema.Annotations.Filter<A> = {},
) => Schema.filter(predicate, { ...annotations, message: () => message })

/** A string of at most `max` characters (code points): `too_long` beyond. */
export const Text = (max: number) =>
  Schema.String.pipe(
    check((s: string) => codePointLength(s) <= max, `at most ${max} characters`, {
      [ErrorCode]: "too_long",
      jsonSchema: { maxLength: max },
    }),
  )

/** A string with something in it besides white space. */
export const NonBlank = <A extends string, I, R>(self: Schema.Schema<A, I, R>) =>
  self.pipe(check((s: A) => s.trim() !== "", "must be a non-empty string", { jsonSchema: { minLength: 1 } }))

/** A name the console takes: not blank, at most `max` characters, no control character. */
export const ConsoleName = (max: number) => withoutControlCharacters(NonBlank(Text(max)))

/** Refused as one field whatever inside it failed (an array: `ip_allowlist`, not `ip_allowlist[1]`). */
export const oneField = <S extends Schema.Schema.Any>(schema: S): S => schema.annotations({ [OneField]: true }) as S

/** An ISO 8601 date-time (`YYYY-MM-DDT…`), decoded to UTC milliseconds. */
export const IsoDateTime = Schema.transform(
  Schema.String.pipe(
    check(
      (s: string) => /^\d{4}-\d{2}-\d{2}T/.test(s) && !Number.isNaN(Date.parse(s)),
      "must be an ISO 8601 date-time",
    ),
  ),
  Schema.Number,
  { strict: true, decode: (s) => Date.parse(s), encode: (ms) => new Date(ms).toISOString() },
).annotations({ description: "ISO 8601 date-time" })

/** Exact IPv4 or IPv6 addresses and CIDR ranges, refused as one field. */
export const IpAllowlist = oneField(Schema.Array(IpRangeFromString)).annotations({
  description: "Exact IPv4 or IPv6 addresses and CIDR ranges; empty: every address",
})
