/** Helpers for the Partner API over HTTP on the in-process test server (memory store, simulated clock). */
import { expect } from "vitest"
import type { TestServer } from "../support/server.ts"
import { outbox } from "../verify/http-harness.ts"

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

let seq = 0
export const next = () => ++seq

/** A partner account (funded) and a partner key of `mode`. */
export const makePartner = async (
  s: TestServer,
  opts: { mode?: "partner" | "partner_test"; balance?: number } = {},
) => {
  const account = await s.console("POST", "/accounts", { name: `Platform ${next()}`, partner: true })
  if ((opts.balance ?? 1_000) > 0) {
    await s.console("POST", `/accounts/${account.id}/wallet/credit`, { amount_halalas: opts.balance ?? 1_000 })
  }
  const key = await s.console("POST", `/accounts/${account.id}/keys`, { mode: opts.mode ?? "partner" })
  return { account, key: key.key as string }
}

/** Another key of the same partner account. */
export const keyOf = async (s: TestServer, accountId: string, mode: "partner" | "partner_test") =>
  (await s.console("POST", `/accounts/${accountId}/keys`, { mode })).key as string

export const merchant = (over: Record<string, unknown> = {}) => {
  const n = next()
  return { name: `Merchant ${n}`, website: `https://shop${n}.example.sa`, ...over }
}

/** `POST /v1/partner/applications`, answered as is. */
export const provision = (s: TestServer, key: string, body: unknown = merchant()) =>
  s.call("POST", "/v1/partner/applications", { key, body })

/** Provisions and answers the record (201 expected). */
export const provisioned = async (s: TestServer, key: string, body: unknown = merchant()) => {
  const res = await provision(s, key, body)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body
}

export const app = (id: string) => `/v1/partner/applications/${id}`

export const approve = (s: TestServer, id: string) => s.console("POST", `/applications/${id}/approve`, {})
export const reject = (s: TestServer, id: string, reason_code = "brand_mismatch") =>
  s.console("POST", `/applications/${id}/reject`, { reason_code })

/** The `service.*` events of an application in the outbox, oldest first. */
export const serviceEvents = async (s: TestServer, applicationId: string) =>
  (await outbox(s)).filter((e) => e.event.startsWith("service.") && e.data.application_id === applicationId)

const be32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]
const filler = (extra: number, step: number) => Array.from({ length: extra }, (_, i) => (i * step) % 256)

/**
 * Image bytes of each kind: the magic numbers, a header declaring `width` × `height` (64 × 64 unless said),
 * then `extra` bytes of filler (no pixel data: a logo is judged by its header). PNG: the IHDR chunk; JPEG: a
 * JFIF APP0 segment, then a baseline SOF0; WebP: the extended header VP8X.
 */
export const pngBytes = (extra = 32, width = 64, height = 64) =>
  Uint8Array.from([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...be32(13),
    ...new TextEncoder().encode("IHDR"),
    ...be32(width),
    ...be32(height),
    8,
    6,
    0,
    0,
    0,
    ...be32(0),
    ...filler(extra, 1),
  ])
export const jpegBytes = (extra = 32, width = 64, height = 64) =>
  Uint8Array.from([
    0xff,
    0xd8,
    ...[0xff, 0xe0, 0, 16, ...new TextEncoder().encode("JFIF"), 0, 1, 1, 0, 0, 1, 0, 1, 0, 0],
    ...[0xff, 0xc0, 0, 17, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3],
    ...[1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1],
    ...filler(extra, 7),
  ])
export const webpBytes = (extra = 32, width = 64, height = 64) =>
  Uint8Array.from([
    ...new TextEncoder().encode("RIFF"),
    0x24,
    0,
    0,
    0,
    ...new TextEncoder().encode("WEBPVP8X"),
    10,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    (width - 1) & 0xff,
    ((width - 1) >> 8) & 0xff,
    ((width - 1) >> 16) & 0xff,
    (height - 1) & 0xff,
    ((height - 1) >> 8) & 0xff,
    ((height - 1) >> 16) & 0xff,
    ...filler(extra, 3),
  ])

export const dataUrl = (type: string, bytes: Uint8Array) =>
  `data:${type};base64,${Buffer.from(bytes).toString("base64")}`
