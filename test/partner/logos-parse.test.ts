/**
 * Logo validation by magic bytes (DECISIONS 13, 16), as a property: a data URL is taken exactly when its
 * bytes are the PNG, JPEG or WebP its label says, at most 512 KiB; each refusal has its code.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "effect/FastCheck"
import { parseLogo, sniff } from "../../core/partner/logos.ts"

const magic = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpg: [0xff, 0xd8, 0xff],
  webp: [0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x45, 0x42, 0x50],
} as const
const labels = { png: "image/png", jpg: "image/jpeg", webp: "image/webp" } as const
type Kind = keyof typeof magic
const kinds = Object.keys(magic) as Array<Kind>

const url = (label: string, bytes: Uint8Array) => `data:${label};base64,${Buffer.from(bytes).toString("base64")}`
const image = (kind: Kind, tail: ReadonlyArray<number>) => Uint8Array.from([...magic[kind], ...tail])

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
    expect(parsed._tag === "Logo").toBe(sniff(bytes) === label)
  })

  it("not a base64 data URL: `not_data_url`; another image type: `type`; over 512 KiB decoded: `too_large`", () => {
    const png = image("png", [1, 2, 3])
    expect(parseLogo("https://cdn.example/logo.png")).toMatchObject({ code: "not_data_url" })
    expect(parseLogo(`data:image/png,${"x"}`)).toMatchObject({ code: "not_data_url" })
    expect(parseLogo("data:image/png;base64,abc")).toMatchObject({ code: "not_data_url" })
    expect(parseLogo("data:image/png;base64,ab cd===")).toMatchObject({ code: "not_data_url" })
    expect(parseLogo(url("image/gif", png))).toMatchObject({ code: "type" })
    expect(parseLogo(url("image/png", image("png", new Array(512 * 1024 - 8).fill(0))))._tag).toBe("Logo")
    expect(parseLogo(url("image/png", image("png", new Array(512 * 1024 - 7).fill(0))))).toMatchObject({
      code: "too_large",
    })
    expect(parseLogo(url("Image/PNG", png))).toMatchObject({ _tag: "Logo", ext: "png" })
  })
})
