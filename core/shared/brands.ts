/** Branded types of the domain: parse at the edge, trust inside. */
import { Brand, Schema } from "effect"

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const Uuid = Schema.String.pipe(Schema.pattern(uuidPattern))

/** `Schema.is(Uuid)` without the schema machinery: ids in paths are checked on every request. */
export const isUuid = (value: unknown): value is string => typeof value === "string" && uuidPattern.test(value)

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
