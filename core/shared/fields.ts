/**
 * The console's fields as Schemas (DECISIONS 2): a console body ignores the fields it does not take and reads
 * `null` as a field not given, as the console always did; a refused field is `required`, `too_long` (more
 * characters, as code points, than it holds) or `invalid` (core/pipeline/decode.ts names them).
 */
import { Schema } from "effect"
import { InvalidRequest } from "../errors.ts"
import type { Json } from "./json.ts"
import { controlCharacterMessage, hasControlCharacter } from "./names.ts"
import { ErrorCode, Lenient, type LenientReading, OneField } from "../pipeline/decode.ts"
import { IpRangeFromString } from "./ip.ts"
import { withoutControlCharacters } from "./names.ts"
import { codePointLength } from "./text.ts"

/** A console body: other fields ignored; `nullIsAbsent` (the default) reads `null` as not given. */
export const consoleBody = <F extends Schema.Struct.Fields>(
  fields: F,
  reading: LenientReading = { nullIsAbsent: true },
) => Schema.Struct(fields).annotations({ [Lenient]: reading })

/** A string of at most `max` characters (code points): `too_long` beyond. */
export const Text = (max: number) =>
  Schema.String.pipe(
    Schema.filter((s) => codePointLength(s) <= max || `at most ${max} characters`, {
      [ErrorCode]: "too_long",
      jsonSchema: { maxLength: max },
    }),
  )

/** A string with something in it besides white space. */
export const NonBlank = <A extends string, I, R>(self: Schema.Schema<A, I, R>) =>
  self.pipe(Schema.filter((s) => s.trim() !== "" || "must be a non-empty string"))

/** A name the console takes: not blank, at most `max` characters, no control character. */
export const ConsoleName = (max: number) => withoutControlCharacters(NonBlank(Text(max)))

/** Refused as one field whatever inside it failed (an array: `ip_allowlist`, not `ip_allowlist[1]`). */
export const oneField = <S extends Schema.Schema.Any>(schema: S): S => schema.annotations({ [OneField]: true }) as S

/** An ISO 8601 date-time (`YYYY-MM-DDT…`), decoded to UTC milliseconds. */
export const IsoDateTime = Schema.transform(
  Schema.String.pipe(
    Schema.filter((s) =>
      (/^\d{4}-\d{2}-\d{2}T/.test(s) && !Number.isNaN(Date.parse(s))) || "must be an ISO 8601 date-time"
    ),
  ),
  Schema.Number,
  { strict: true, decode: (s) => Date.parse(s), encode: (ms) => new Date(ms).toISOString() },
).annotations({ description: "ISO 8601 date-time" })

/** Exact IPv4 or IPv6 addresses and CIDR ranges, refused as one field. */
export const IpAllowlist = oneField(Schema.Array(IpRangeFromString)).annotations({
  description: "Exact IPv4 or IPv6 addresses and CIDR ranges; empty: every address",
})

export class FieldReader {
  readonly refused: Record<string, string> = {}
  readonly codes: Record<string, string> = {}
  constructor(readonly body: Json) {}

  refuse(name: string, why: string, code = "invalid"): undefined {
    this.refused[name] = why
    this.codes[name] = code
    return undefined
  }

  string(name: string, opts: { required?: boolean; max?: number } = {}): string | undefined {
    const v = this.body[name]
    if (v === undefined || v === null) return opts.required ? this.refuse(name, "required", "required") : undefined
    if (typeof v !== "string" || (opts.required && v.trim() === "")) {
      return this.refuse(name, "must be a non-empty string")
    }
    if (opts.max !== undefined && codePointLength(v) > opts.max) {
      return this.refuse(name, `at most ${opts.max} characters`, "too_long")
    }
    return v
  }

  /** A name (core/shared/names.ts): a string as `string` reads it, without control characters. */
  name(name: string, opts: { required?: boolean; max?: number } = {}): string | undefined {
    const v = this.string(name, opts)
    return v !== undefined && hasControlCharacter(v) ? this.refuse(name, controlCharacterMessage) : v
  }

  boolean(name: string, fallback: boolean): boolean {
    const v = this.body[name]
    if (v === undefined || v === null) return fallback
    if (typeof v !== "boolean") return this.refuse(name, "must be a boolean") ?? fallback
    return v
  }

  integer(name: string, opts: { required?: boolean; min?: number; max?: number } = {}): number | undefined {
    const v = this.body[name]
    if (v === undefined || v === null) return opts.required ? this.refuse(name, "required", "required") : undefined
    if (typeof v !== "number" || !Number.isSafeInteger(v)) return this.refuse(name, "must be an integer")
    if (opts.min !== undefined && v < opts.min) return this.refuse(name, `must be at least ${opts.min}`)
    if (opts.max !== undefined && v > opts.max) return this.refuse(name, `must be at most ${opts.max}`)
    return v
  }

  stringArray(name: string): ReadonlyArray<string> | undefined {
    const v = this.body[name]
    if (v === undefined || v === null) return undefined
    if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) {
      return this.refuse(name, "must be an array of strings")
    }
    return v as ReadonlyArray<string>
  }

  get error(): InvalidRequest | undefined {
    return Object.keys(this.refused).length === 0
      ? undefined
      : new InvalidRequest({ message: "Some fields are missing or invalid.", fields: this.refused, errors: this.codes })
  }
}
