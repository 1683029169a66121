/** Branded types of the domain: parse at the edge, trust inside. */
import { Brand, Schema } from "effect"

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const Uuid = Schema.String.pipe(Schema.pattern(uuidPattern))

const isHexDigit = (c: number) => (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70)

/**
 * `Schema.is(Uuid)` without the schema machinery or a regular expression: ids in paths are checked on
 * every request (test/core/shared/brands.test.ts holds the two to the same answers).
 */
export const isUuid = (value: unknown): value is string => {
  if (typeof value !== "string" || value.length !== 36) return false
  for (let i = 0; i < 36; i++) {
    const c = value.charCodeAt(i)
    if (i === 8 || i === 13 || i === 18 || i === 23 ? c !== 45 /* - */ : !isHexDigit(c)) return false
  }
  return true
}

export const AccountId = Uuid.pipe(Schema.brand("AccountId"))
export type AccountId = typeof AccountId.Type
export const ApplicationId = Uuid.pipe(Schema.brand("ApplicationId"))
export type ApplicationId = typeof ApplicationId.Type
export const VerificationId = Uuid.pipe(Schema.brand("VerificationId"))
export type VerificationId = typeof VerificationId.Type
export const KeyId = Uuid.pipe(Schema.brand("KeyId"))
export type KeyId = typeof KeyId.Type
export const EventId = Uuid.pipe(Schema.brand("EventId"))
export type EventId = typeof EventId.Type

/** Money: a whole number of halalas (1 SAR = 100 halalas). */
export const Halalas = Schema.Int.pipe(Schema.brand("Halalas"))
export type Halalas = typeof Halalas.Type
export const halalas = Brand.nominal<Halalas>()

/** Epoch milliseconds on the platform clock. */
export type Millis = number

/** A Saudi mobile number in E.164 form, `+9665XXXXXXXX`; made only by the phone parser. */
export type SaudiMobile = string & Brand.Brand<"SaudiMobile">
export const SaudiMobile = Brand.nominal<SaudiMobile>()
