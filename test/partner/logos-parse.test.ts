/**
 * Logo validation (DECISIONS 13, 16, 18), as properties: a data URL is taken exactly when its bytes are the
 * PNG, JPEG or WebP its label says, at most 512 KiB, with a readable header declaring at most 16,777,216
 * pixels; each refusal has its code.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "effect/FastCheck"
import { dimensions, parseLogo, sniff } from "../../core/partner/logos.ts"
import { jpegBytes, pngBytes, webpBytes } from "./helpers.ts"

const headers = { png: pngBytes, jpg: jpegBytes, webp: webpBytes } as const
const labels = { png: "image/png", jpg: "image/jpeg", webp: "image/webp" } as const
type Kind = keyof typeof headers
const kinds = Object.keys(headers) as Array<Kind>

const url = (label: string, bytes: Uint8Array) => `data:${label};base64,${Buffer.from(bytes).toString("base64")}`
/** A header of `kind` declaring 64 × 64 (or the size given), then `tail`. */
const image = (kind: Kind, tail: ReadonlyArray<number>, width = 64, height = 64) =>
  Uint8Array.from([...headers[kind](0, width, height), ...tail])

describe('DECISIONS 13: "PNG, JPEG or WebP (bytes must match)" — read from the magic bytes, not the label', () => {
  it.prop("bytes of one kind under any of the three labels: taken only under their own label, else `type`", [
    fc.constantFrom(...kinds),
    fc.constantFrom(...kinds),
    fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 200 }),
  ], ([kind, label, tail]) => {
    const bytes = image(kind, tail)
    const parsed = parseLogo(url(labels[label], bytes))
    if (kind === label) {
      expect(parsed).toEqual({ _tag: "Logo", ext: kind, bytes })
    } else {
      expect(parsed).toMatchObject({ _tag: "Refused", code: "type" })
    }
  })

  it.prop("random bytes are taken only when their magic numbers say so", [
    fc.uint8Array({ minLength: 1, maxLength: 64 }),
    fc.constantFrom(...kinds),
  ], ([bytes, label]) => {
    const parsed = parseLogo(url(labels[label], bytes))
    if (sniff(bytes) !== label) expect(parsed).toMatchObject({ _tag: "Refused", code: "type" })
    else expect(parsed._tag === "Logo").toBe(dimensions(label, bytes) !== undefined)
  })

  it("not a base64 data URL: `not_data_url`; another image type: `type`; over 512 KiB decoded: `too_large`", () => {
    const png = image("png", [1, 2, 3])
    const header = png.length - 3
    expect(parseLogo("https://cdn.example/logo.png")).toMatchObject({ code: "not_data_url" })
    expect(parseLogo(`data:image/png,${"x"}`)).toMatchObject({ code: "not_data_url" })
    expect(parseLogo("data:image/png;base64,abc")).toMatchObject({ code: "not_data_url" })
    expect(parseLogo("data:image/png;base64,ab cd===")).toMatchObject({ code: "not_data_url" })
    expect(parseLogo(url("image/gif", png))).toMatchObject({ code: "type" })
    expect(parseLogo(url("image/png", image("png", new Array(512 * 1024 - header).fill(0))))._tag).toBe("Logo")
    expect(parseLogo(url("image/png", image("png", new Array(512 * 1024 - header + 1).fill(0))))).toMatchObject({
      code: "too_large",
    })
    expect(parseLogo(url("Image/PNG", png))).toMatchObject({ _tag: "Logo", ext: "png" })
  })
})

describe('DECISIONS 18: "an image whose declared width times height exceeds 16,777,216 pixels is refused with errors.logo too_large"', () => {
  it("PNG, JPEG and WebP each: 4096 × 4096 taken; 4096 × 4097 and 100,000 × 100,000 `too_large`", () => {
    // JPEG's header holds 16-bit sizes: 65,535 at most.
    const huge = { png: 100_000, jpg: 65_535, webp: 100_000 } as const
    for (const kind of kinds) {
      expect(parseLogo(url(labels[kind], image(kind, [], 4096, 4096))), kind).toMatchObject({ _tag: "Logo" })
      expect(parseLogo(url(labels[kind], image(kind, [], 4096, 4097))), kind).toMatchObject({
        _tag: "Refused",
        code: "too_large",
      })
      expect(parseLogo(url(labels[kind], image(kind, [], huge[kind], huge[kind]))), kind).toMatchObject({
        _tag: "Refused",
        code: "too_large",
      })
    }
  })

  it("a 204 KB PNG declaring 100,000 × 100,000 pixels is refused, though small in bytes", () => {
    const bytes = pngBytes(204 * 1024, 100_000, 100_000)
    expect(parseLogo(url("image/png", bytes))).toMatchObject({ _tag: "Refused", code: "too_large" })
  })

  it.prop("taken exactly when width × height ≤ 16,777,216, whatever the kind", [
    fc.constantFrom(...kinds),
    fc.integer({ min: 1, max: 16_384 }),
    fc.integer({ min: 1, max: 16_384 }),
  ], ([kind, width, height]) => {
    const parsed = parseLogo(url(labels[kind], image(kind, [], width, height)))
    expect(parsed._tag === "Logo").toBe(width * height <= 16_777_216)
    if (parsed._tag === "Refused") expect(parsed.code).toBe("too_large")
  })

  it("the three WebP headers are read: lossy VP8, lossless VP8L, extended VP8X", () => {
    const riff = (chunk: string, body: ReadonlyArray<number>) =>
      Uint8Array.from([
        ...new TextEncoder().encode("RIFF"),
        ...[0x40, 0, 0, 0],
        ...new TextEncoder().encode(`WEBP${chunk}`),
        ...[body.length, 0, 0, 0],
        ...body,
      ])
    // VP8: a key frame's tag, the start code, then 14-bit width and height (little-endian).
    const lossy = (w: number, h: number) =>
      riff("VP8 ", [0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a, w & 0xff, w >> 8, h & 0xff, h >> 8])
    // VP8L: the signature 0x2f, then 14 bits of width - 1 and 14 of height - 1.
    const lossless = (w: number, h: number) => {
      const bits = (w - 1) | ((h - 1) << 14)
      return riff("VP8L", [0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, (bits >>> 24) & 0xff, 0, 0])
    }
    expect(dimensions("webp", lossy(300, 200))).toEqual({ width: 300, height: 200 })
    expect(dimensions("webp", lossless(300, 200))).toEqual({ width: 300, height: 200 })
    expect(dimensions("webp", webpBytes(0, 300, 200))).toEqual({ width: 300, height: 200 })
    expect(parseLogo(url("image/webp", lossy(16_000, 16_000)))).toMatchObject({ code: "too_large" })
    expect(parseLogo(url("image/webp", lossless(16_000, 16_000)))).toMatchObject({ code: "too_large" })
    expect(parseLogo(url("image/webp", lossless(4096, 4096)))).toMatchObject({ _tag: "Logo" })
  })

  it("an image whose width and height cannot be read is refused as `type`: magic numbers alone, a cut header", () => {
    const cases: ReadonlyArray<readonly [string, Uint8Array]> = [
      ["image/png", Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
      ["image/png", pngBytes(0).slice(0, 20)],
      ["image/png", pngBytes(0, 0, 10)],
      ["image/jpeg", Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5, 6, 7, 8])],
      ["image/jpeg", jpegBytes(0).slice(0, 24)],
      ["image/webp", webpBytes(0).slice(0, 16)],
      // Bytes that start as PNG and go on as HTML.
      [
        "image/png",
        Uint8Array.from([
          ...[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
          ...new TextEncoder().encode("<html><script>alert(1)</script>"),
        ]),
      ],
    ]
    for (const [label, bytes] of cases) {
      expect(parseLogo(url(label, bytes)), `${label} ${bytes.length}`).toMatchObject({ _tag: "Refused", code: "type" })
    }
  })
})
