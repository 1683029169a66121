/** Request shapes of the Verify operations (step 4 of the order of checks). */
import { Either, Option } from "effect"
import { InvalidDestination, InvalidRequest, UnsupportedChannel } from "../errors.ts"
import type { SaudiMobile } from "../shared/brands.ts"
import { formatIp, parseIp } from "../shared/ip.ts"
import { asciiDigits, parseSaudiMobile } from "../shared/phone.ts"
import { codePointLength } from "../shared/text.ts"
import type { Json } from "../pipeline/request.ts"

export interface StartInput {
  readonly to: SaudiMobile
  readonly reference: string | null
  readonly clientIp: string | null
}

export const maxReferenceLength = 256

const invalid = (fields: Record<string, string>): Either.Either<never, InvalidRequest> =>
  Either.left(new InvalidRequest({ message: "The request is missing or has invalid fields.", fields }))

export const parseStart = (
  body: Json,
): Either.Either<StartInput, InvalidRequest | UnsupportedChannel | InvalidDestination> => {
  const fields: Record<string, string> = {}
  const { channel, client_ip, reference, to } = body
  if (to === undefined || to === null || (typeof to === "string" && to.trim() === "")) fields.to = "required"
  else if (typeof to !== "string") fields.to = "must be a string"
  if (reference !== undefined && reference !== null) {
    if (typeof reference !== "string") fields.reference = "must be a string"
    // Characters as the spec counts them: code points (an emoji is one).
    else if (reference.length > maxReferenceLength && codePointLength(reference) > maxReferenceLength) {
      fields.reference = `at most ${maxReferenceLength} characters`
    }
  }
  let clientIp: string | null = null
  if (client_ip !== undefined && client_ip !== null) {
    const ip = typeof client_ip === "string" ? parseIp(client_ip) : Option.none()
    if (Option.isNone(ip)) fields.client_ip = "must be an IPv4 or IPv6 address"
    else clientIp = formatIp(ip.value)
  }
  if (channel !== undefined && channel !== null && typeof channel !== "string") fields.channel = "must be a string"
  if (Object.keys(fields).length > 0) return invalid(fields)
  if ((channel ?? "sms") !== "sms") return Either.left(new UnsupportedChannel({}))
  const mobile = parseSaudiMobile(to as string)
  if (Option.isNone(mobile)) return Either.left(new InvalidDestination({}))
  return Either.right<StartInput>({ to: mobile.value, reference: (reference as string | undefined) ?? null, clientIp })
}

export interface CheckInput {
  readonly id: string
  readonly code: string
}

/**
 * `code` must be a JSON string: a number would lose its leading zeros (`019781` sent as `19781` could never
 * match), so it is refused before an attempt is used. Arabic-Indic and Eastern Arabic-Indic digits are read
 * as ASCII digits.
 */
export const parseCheck = (body: Json): Either.Either<CheckInput, InvalidRequest> => {
  const fields: Record<string, string> = {}
  const { code, id } = body
  if (typeof id !== "string" || id === "") fields.id = "required"
  if (code === undefined || code === null || code === "") fields.code = "required"
  else if (typeof code !== "string") fields.code = "must be a string of digits"
  if (Object.keys(fields).length > 0) return invalid(fields)
  return Either.right<CheckInput>({ id: id as string, code: asciiDigits(code as string) })
}
