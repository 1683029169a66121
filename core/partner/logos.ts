/**
 * Logos of partner client applications (DECISIONS 13, 16, 18): a base64 data URL of PNG, JPEG or WebP whose
 * bytes are what the label says (read from the magic numbers, not the label), at most 512 KiB decoded, whose
 * declared width times height is readable and at most 16,777,216 pixels. Stored by content hash (lower-case
 * hex SHA-256 of the bytes) and served without a key at `/v1/logos/{sha256}.{ext}`, never to be sniffed or
 * run as anything else (`nosniff`, `default-src 'none'`).
 */
import { Effect, Option } from "effect"
import { JPG } from "image-size/types/jpg"
import { PNG } from "image-size/types/png"
import { WEBP } from "image-size/types/webp"
import { Digest } from "../../ports/digest.ts"
import { LogosRepo } from "../../ports/store/partner.ts"
import { PartnerLimits } from "../limits.ts"
import type { ApiAnswer } from "../pipeline/request.ts"
import type { Millis } from "../shared/brands.ts"

export type LogoExt = "png" | "jpg" | "webp"

export const contentTypes: Readonly<Record<LogoExt, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
}

const labels: Readonly<Record<string, LogoExt>> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp" }

/** The kind the bytes are, by their magic numbers; undefined: none of the three. */
export const sniff = (b: Uint8Array): LogoExt | undefined => {
  if (
    b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && b[4] === 0x0d &&
    b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a
  ) return "png"
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpg"
  if (
    b.length >= 12 && b[0] === 0x52 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x46 && b[8] === 0x57 &&
    b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50
  ) return "webp"
  return undefined
}

/** Reads the width and height an image declares in its header (image-size's reader of that one format). */
const headerReaders = { png: PNG, jpg: JPG, webp: WEBP } as const

/** The declared width and height, or undefined when the header cannot be read (truncated, malformed, zero). */
export const dimensions = (
  ext: LogoExt,
  bytes: Uint8Array,
): { readonly width: number; readonly height: number } | undefined => {
  const reader = headerReaders[ext]
  try {
    if (!reader.validate(bytes)) return undefined
    const { height, width } = reader.calculate(bytes)
    return Number.isSafeInteger(width) && Number.isSafeInteger(height) && width > 0 && height > 0
      ? { width, height }
      : undefined
  } catch {
    return undefined
  }
}

/** A logo read from its data URL, or why it is refused (`errors.logo`). */
export type ParsedLogo =
  | { readonly _tag: "Logo"; readonly ext: LogoExt; readonly bytes: Uint8Array }
  | { readonly _tag: "Refused"; readonly code: "not_data_url" | "type" | "too_large"; readonly message: string }

const dataUrl = /^data:([^;,]*);base64,(.*)$/s
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

const refused = (code: "not_data_url" | "type" | "too_large", message: string): ParsedLogo => ({
  _tag: "Refused",
  code,
  message,
})

const decodedLength = (data: string) => data.length / 4 * 3 - (data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0)

const parse = (text: string): ParsedLogo => {
  const m = dataUrl.exec(text)
  if (m === null) return refused("not_data_url", 'must be a base64 data URL ("data:image/png;base64,…")')
  const [, label, data] = m
  if (data.length === 0 || !base64.test(data)) return refused("not_data_url", "is not base64")
  const declared = labels[label.toLowerCase()]
  if (declared === undefined) return refused("type", "must be image/png, image/jpeg or image/webp")
  if (decodedLength(data) > PartnerLimits.maxLogoBytes) {
    return refused("too_large", `must be at most ${PartnerLimits.maxLogoBytes} bytes decoded`)
  }
  const binary = atob(data)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  const actual = sniff(bytes)
  if (actual !== declared) {
    return refused(
      "type",
      actual === undefined ? `the bytes are not ${label}` : `the bytes are ${contentTypes[actual]}, not ${label}`,
    )
  }
  const size = dimensions(actual, bytes)
  if (size === undefined) return refused("type", `the image's width and height cannot be read`)
  if (size.width * size.height > PartnerLimits.maxLogoPixels) {
    return refused(
      "too_large",
      `must be at most ${PartnerLimits.maxLogoPixels} pixels (width × height); it declares ${size.width} × ${size.height}`,
    )
  }
  return { _tag: "Logo", ext: actual, bytes }
}

// Decoding refines the same string more than once (each filter, then the use case): the last one is kept.
let last: { readonly text: string; readonly parsed: ParsedLogo } | undefined
export const parseLogo = (text: string): ParsedLogo => {
  if (last?.text === text) return last.parsed
  const parsed = parse(text)
  last = { text, parsed }
  return parsed
}

/** A logo's public address. */
export const logoUrl = (baseUrl: string, logo: { readonly sha256: string; readonly ext: string } | null) =>
  logo === null ? null : `${baseUrl}/v1/logos/${logo.sha256}.${logo.ext}`

/** Stores the logo's bytes by their hash; answers what the application's profile keeps. */
export const storeLogo = (logo: { readonly ext: LogoExt; readonly bytes: Uint8Array }, now: Millis) =>
  Effect.gen(function* () {
    const sha256 = (yield* Digest).sha256Hex(logo.bytes)
    yield* (yield* LogosRepo).put({ sha256, ext: logo.ext, bytes: logo.bytes, createdAt: now })
    return { sha256, ext: logo.ext as string }
  })

const file = /^([0-9a-f]{64})\.(png|jpg|webp)$/

/**
 * What every logo answer carries beside its type (DECISIONS 18): the browser takes the type as given, never
 * sniffing bytes that go on as HTML, and runs nothing, loads nothing, if a document is made of them anyway.
 */
export const logoSafetyHeaders = {
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'",
} as const

/**
 * `GET /v1/logos/{sha256}.{ext}`: the bytes with their type, a strong ETag (the hash: the bytes never change
 * under it), a year's immutable caching and the safety headers; `If-None-Match` naming it answers `304`.
 * Unknown: `404 not_found`.
 */
export const serveLogo = (name: string, ifNoneMatch: string | undefined) =>
  Effect.gen(function* () {
    const m = file.exec(name)
    if (m === null) return Option.none<ApiAnswer>()
    const found = yield* (yield* LogosRepo).get(m[1])
    if (Option.isNone(found) || found.value.ext !== m[2]) return Option.none<ApiAnswer>()
    const etag = `"${found.value.sha256}"`
    const headers = {
      "content-type": contentTypes[found.value.ext as LogoExt],
      etag,
      "cache-control": "public, max-age=31536000, immutable",
      ...logoSafetyHeaders,
    }
    const matches = ifNoneMatch !== undefined &&
      // If-None-Match compares weakly (RFC 9110 13.1.2): `W/"…"` names the same bytes.
      ifNoneMatch.split(",").some((t) => t.trim().replace(/^W\//, "") === etag || t.trim() === "*")
    return Option.some<ApiAnswer>(
      matches ? { status: 304, body: new Uint8Array(0), headers } : { status: 200, body: found.value.bytes, headers },
    )
  })
