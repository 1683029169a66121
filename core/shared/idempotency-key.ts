/**
 * The `Idempotency-Key` request header: 1 to 128 printable ASCII characters.
 *
 * Printable ASCII is 0x20..0x7E, so the space counts as printable (inner spaces are kept;
 * HTTP already strips whitespace around a header value). Tabs, other control characters,
 * DEL (0x7F) and anything beyond ASCII are not printable.
 * Checks run in order: `empty`, `too_long` (over 128 UTF-16 code units), `not_printable`.
 */
import { Either, Schema } from "effect"
import { Idempotency } from "../limits.ts"

const IDEMPOTENCY_KEY_MAX_LENGTH = Idempotency.maxKeyLength

const printableAscii = /^[\x20-\x7E]*$/

export const IdempotencyKey = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(IDEMPOTENCY_KEY_MAX_LENGTH),
  Schema.pattern(printableAscii),
  Schema.brand("IdempotencyKey"),
)
export type IdempotencyKey = typeof IdempotencyKey.Type

export type IdempotencyKeyError = "empty" | "too_long" | "not_printable"

export const parseIdempotencyKey = (s: string): Either.Either<IdempotencyKey, IdempotencyKeyError> =>
  s.length === 0
    ? Either.left("empty")
    : s.length > IDEMPOTENCY_KEY_MAX_LENGTH
    ? Either.left("too_long")
    : !printableAscii.test(s)
    ? Either.left("not_printable")
    : Either.right(s as IdempotencyKey)
