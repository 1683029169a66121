/**
 * Small readers of JSON request fields that collect every refused field for `400 invalid_request`: `fields`
 * `{ name: message }` and `errors` `{ name: code }` (`required`, `too_long`, else `invalid`).
 */
import { InvalidRequest } from "../errors.ts"
import type { Json } from "./json.ts"
import { controlCharacterMessage, hasControlCharacter } from "./names.ts"
import { codePointLength } from "./text.ts"

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
