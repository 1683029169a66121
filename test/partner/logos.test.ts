/**
 * Logos (DECISIONS 13, 16, 18): base64 data URLs of PNG, JPEG or WebP whose bytes match the label (magic
 * bytes), at most 512 KiB decoded and 16,777,216 pixels declared, stored by content hash and served without a
 * key, never to be sniffed (`nosniff`, `default-src 'none'`); the logo rule of the lifecycle.
 */
import { createHash } from "node:crypto"
import { request } from "node:http"
import { connect } from "node:net"
import * as HttpApp from "@effect/platform/HttpApp"
import { describe, expect, it } from "vitest"
import { startServer, useServer } from "../support/server.ts"
import {
  app,
  approve,
  dataUrl,
  jpegBytes,
  makePartner,
  merchant,
  pngBytes,
  provision,
  provisioned,
  reject,
  serviceEvents,
  webpBytes,
} from "./helpers.ts"

const s = useServer()
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex")
const setLogo = (key: string, id: string, logo: unknown) => s.call("POST", `${app(id)}/logo`, { key, body: { logo } })

describe('DECISIONS 13: "base64 data URL of PNG, JPEG or WebP (bytes must match), at most 512 KiB decoded; else 400, errors.logo not_data_url, type, too_large"', () => {
  it("each refusal its code: not a data URL, not base64, a PNG labelled JPEG, a GIF, no image at all, 513 KiB", async () => {
    const { key } = await makePartner(s)
    const made = await provisioned(s, key)
    const cases: Array<[unknown, string]> = [
      ["https://cdn.example.sa/logo.png", "not_data_url"],
      ["data:image/png,rawbytes", "not_data_url"],
      ["data:image/png;base64,***not base64***", "not_data_url"],
      ["data:image/png;base64,", "not_data_url"],
      [dataUrl("image/jpeg", pngBytes()), "type"],
      [dataUrl("image/png", jpegBytes()), "type"],
      [dataUrl("image/webp", pngBytes()), "type"],
      [dataUrl("image/gif", Uint8Array.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61])), "type"],
      [dataUrl("image/png", new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>")), "type"],
      [dataUrl("image/png", pngBytes(513 * 1024 - 8)), "too_large"],
      [42, "invalid"],
    ]
    for (const [logo, code] of cases) {
      const res = await setLogo(key, made.id, logo)
      expect(res.status, String(logo).slice(0, 40)).toBe(400)
      expect(res.body.error).toBe("invalid_request")
      expect(res.body.errors, String(logo).slice(0, 40)).toEqual({ logo: code })
      expect(typeof res.body.fields.logo).toBe("string")
    }
    // At provisioning too, and nothing is made.
    const refused = await provision(s, key, merchant({ logo: dataUrl("image/jpeg", pngBytes()) }))
    expect(refused.body.errors).toEqual({ logo: "type" })
    // Exactly 512 KiB is taken; the label's case does not matter.
    const big = await setLogo(key, made.id, dataUrl("IMAGE/PNG", pngBytes(512 * 1024 - pngBytes(0).length)))
    expect(big.status).toBe(200)
    expect(big.body.logo_url).toMatch(/\.png$/)
  })

  it("PNG, JPEG and WebP: logo_url is {base_url}/v1/logos/{sha256}.{png|jpg|webp}; the same bytes, the same URL", async () => {
    const { key } = await makePartner(s)
    for (
      const [type, bytes, ext] of [
        ["image/png", pngBytes(100), "png"],
        ["image/jpeg", jpegBytes(100), "jpg"],
        ["image/webp", webpBytes(100), "webp"],
      ] as const
    ) {
      const made = await provisioned(s, key, merchant({ logo: dataUrl(type, bytes) }))
      expect(made.logo_url).toBe(`${s.baseUrl}/v1/logos/${sha256(bytes)}.${ext}`)
      const again = await provisioned(s, key, merchant({ logo: dataUrl(type, bytes) }))
      expect(again.logo_url).toBe(made.logo_url)
    }
  })

  it("logo_url follows PUBLIC_URL when set, else http:// and the request's Host", async () => {
    const { key } = await makePartner(s)
    const bytes = pngBytes(10)
    const made = await provisioned(s, key, merchant({ logo: dataUrl("image/png", bytes) }))
    // fetch may not set Host: node:http may.
    const port = new URL(s.baseUrl).port
    const body = await new Promise<string>((resolve, reject) => {
      const req = request({
        host: "127.0.0.1",
        port,
        path: app(made.id),
        headers: { host: "api.example.sa", authorization: `Bearer ${key}` },
      }, (res) => {
        let text = ""
        res.on("data", (c) => text += c)
        res.on("end", () => resolve(text))
      })
      req.on("error", reject)
      req.end()
    })
    expect(JSON.parse(body).logo_url).toBe(`http://api.example.sa/v1/logos/${sha256(bytes)}.png`)
    const pub = await startServer({ publicUrl: "https://platform.example.sa" })
    try {
      const p = await makePartner(pub)
      const other = await provisioned(pub, p.key, merchant({ logo: dataUrl("image/png", bytes) }))
      expect(other.logo_url).toBe(`https://platform.example.sa/v1/logos/${sha256(bytes)}.png`)
    } finally {
      await pub.close()
    }
  })
})

describe('DECISIONS 13: "logo_url … needs no key" — served with its Content-Type, a strong ETag and long cache headers', () => {
  it("GET without a key answers the bytes; /api/v1 too; HEAD has no body; If-None-Match answers 304", async () => {
    const { key } = await makePartner(s)
    const bytes = webpBytes(300)
    const made = await provisioned(s, key, merchant({ logo: dataUrl("image/webp", bytes) }))
    const path = new URL(made.logo_url).pathname
    for (const p of [path, `/api${path}`]) {
      const res = await fetch(s.baseUrl + p)
      expect(res.status).toBe(200)
      expect(res.headers.get("content-type")).toBe("image/webp")
      expect(res.headers.get("etag")).toBe(`"${sha256(bytes)}"`)
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
      expect(res.headers.get("x-request-id")).toBeTruthy()
      expect(res.headers.get("content-length")).toBe(String(bytes.length))
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes)
    }
    const head = await fetch(s.baseUrl + path, { method: "HEAD" })
    expect(head.status).toBe(200)
    expect(head.headers.get("content-type")).toBe("image/webp")
    expect((await head.arrayBuffer()).byteLength).toBe(0)
    const cached = await fetch(s.baseUrl + path, { headers: { "if-none-match": `"${sha256(bytes)}"` } })
    expect(cached.status).toBe(304)
    expect(cached.headers.get("etag")).toBe(`"${sha256(bytes)}"`)
    expect((await cached.arrayBuffer()).byteLength).toBe(0)
    const weak = await fetch(s.baseUrl + path, { headers: { "if-none-match": `"x", W/"${sha256(bytes)}"` } })
    expect(weak.status).toBe(304)
    const stale = await fetch(s.baseUrl + path, { headers: { "if-none-match": '"other"' } })
    expect(stale.status).toBe(200)
  })

  it("the same through the web handler (platform.fetch), bytes intact", async () => {
    const { key } = await makePartner(s)
    const bytes = jpegBytes(2_000)
    const made = await provisioned(s, key, merchant({ logo: dataUrl("image/jpeg", bytes) }))
    const res = await s.platform.fetch(new Request(made.logo_url))
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("image/jpeg")
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes)
  })

  it("the same through the Effect HTTP app (platform.httpApp), bytes intact", async () => {
    const { key } = await makePartner(s)
    const bytes = webpBytes(5_000)
    const made = await provisioned(s, key, merchant({ logo: dataUrl("image/webp", bytes) }))
    const res = await HttpApp.toWebHandler(s.platform.httpApp)(new Request(made.logo_url))
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("image/webp")
    expect(res.headers.get("etag")).toBe(`"${sha256(bytes)}"`)
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes)
    const cached = await HttpApp.toWebHandler(s.platform.httpApp)(
      new Request(made.logo_url, { headers: { "if-none-match": `"${sha256(bytes)}"` } }),
    )
    expect(cached.status).toBe(304)
  })

  it("a request line node:http refuses (`get` in lower case) is answered by the dispatcher with the bytes whole", async () => {
    const { key } = await makePartner(s)
    const bytes = pngBytes(1_000)
    const made = await provisioned(s, key, merchant({ logo: dataUrl("image/png", bytes) }))
    const url = new URL(made.logo_url)
    const raw = await new Promise<Buffer>((resolve) => {
      const socket = connect(
        Number(url.port),
        url.hostname,
        () => socket.write(`get ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`),
      )
      const chunks: Array<Buffer> = []
      socket.on("data", (d) => chunks.push(d))
      socket.on("close", () => resolve(Buffer.concat(chunks)))
    })
    const split = raw.indexOf("\r\n\r\n")
    const head = raw.subarray(0, split).toString()
    expect(head).toMatch(/^HTTP\/1\.1 200/)
    expect(head).toContain("content-type: image/png")
    expect(head).toContain(`content-length: ${bytes.length}`)
    expect(new Uint8Array(raw.subarray(split + 4))).toEqual(bytes)
  })

  it("unknown hashes, a wrong extension, other names: 404 not_found", async () => {
    const { key } = await makePartner(s)
    const bytes = pngBytes(5)
    await provisioned(s, key, merchant({ logo: dataUrl("image/png", bytes) }))
    for (
      const name of [`${"0".repeat(64)}.png`, `${sha256(bytes)}.jpg`, `${sha256(bytes).toUpperCase()}.png`, "x.png"]
    ) {
      const res = await s.call("GET", `/v1/logos/${name}`)
      expect(res.status, name).toBe(404)
      expect(res.body).toEqual({ error: "not_found" })
    }
  })
})

describe('DECISIONS 13: "logo set or removed" — on `active` no move and no event; on `rejected` back to review; `suspended`/`archived` 409', () => {
  it("active: set and DELETE keep it active and fire nothing; logo_url null after DELETE", async () => {
    const { key } = await makePartner(s)
    const made = await provisioned(s, key)
    await approve(s, made.id)
    const before = (await serviceEvents(s, made.id)).length
    const set = await setLogo(key, made.id, dataUrl("image/png", pngBytes(7)))
    expect(set.status).toBe(200)
    expect(set.body.status).toBe("active")
    expect(set.body.logo_url).not.toBeNull()
    const removed = await s.call("DELETE", `${app(made.id)}/logo`, { key })
    expect(removed.status).toBe(200)
    expect(removed.body).toMatchObject({ status: "active", logo_url: null })
    expect((await s.call("GET", app(made.id), { key })).body.logo_url).toBeNull()
    expect((await serviceEvents(s, made.id)).length).toBe(before)
  })

  it("rejected: a new logo, and its removal, return it to review (service.review_requested changed [logo])", async () => {
    const { key } = await makePartner(s)
    const made = await provisioned(s, key, merchant({ logo: dataUrl("image/png", pngBytes(3)) }))
    await reject(s, made.id, "logo_unsuitable")
    const removed = await s.call("DELETE", `${app(made.id)}/logo`, { key })
    expect(removed.body).toMatchObject({ status: "pending", logo_url: null, reason_code: null })
    let last = (await serviceEvents(s, made.id)).at(-1)!
    expect(last.event).toBe("service.review_requested")
    expect(last.data).toMatchObject({ previous_status: "rejected", status: "pending", changed: ["logo"] })
    await reject(s, made.id, "logo_unsuitable")
    const set = await setLogo(key, made.id, dataUrl("image/jpeg", jpegBytes(9)))
    expect(set.body.status).toBe("pending")
    last = (await serviceEvents(s, made.id)).at(-1)!
    expect(last.data).toMatchObject({ previous_status: "rejected", changed: ["logo"] })
  })

  it("suspended and archived: 409 invalid_state with the status; nothing changes", async () => {
    const { key } = await makePartner(s)
    const made = await provisioned(s, key, merchant({ logo: dataUrl("image/png", pngBytes(4)) }))
    await approve(s, made.id)
    await s.call("POST", `${app(made.id)}/disable`, { key, body: {} })
    const set = await setLogo(key, made.id, dataUrl("image/png", pngBytes(8)))
    expect(set.status).toBe(409)
    expect(set.body).toEqual({ error: "invalid_state", message: expect.any(String), status: "suspended" })
    await s.call("POST", `${app(made.id)}/archive`, { key, body: {} })
    const removed = await s.call("DELETE", `${app(made.id)}/logo`, { key })
    expect(removed.body).toMatchObject({ error: "invalid_state", status: "archived" })
    expect((await s.call("GET", app(made.id), { key, body: undefined })).body.logo_url).toBe(made.logo_url)
  })
})

const safe = (headers: Headers, where: string) => {
  expect(headers.get("x-content-type-options"), where).toBe("nosniff")
  expect(headers.get("content-security-policy"), where).toBe("default-src 'none'")
}

describe(`DECISIONS 18: "Logos are served with X-Content-Type-Options: nosniff and Content-Security-Policy: default-src 'none'"`, () => {
  it("GET, HEAD, 304 and the /api alias on the Node host", async () => {
    const { key } = await makePartner(s)
    const bytes = pngBytes(400)
    const made = await provisioned(s, key, merchant({ logo: dataUrl("image/png", bytes) }))
    const path = new URL(made.logo_url).pathname
    for (const p of [path, `/api${path}`]) {
      const res = await fetch(s.baseUrl + p)
      expect(res.status).toBe(200)
      safe(res.headers, `GET ${p}`)
      const head = await fetch(s.baseUrl + p, { method: "HEAD" })
      safe(head.headers, `HEAD ${p}`)
      const cached = await fetch(s.baseUrl + p, { headers: { "if-none-match": `"${sha256(bytes)}"` } })
      expect(cached.status).toBe(304)
      safe(cached.headers, `304 ${p}`)
    }
  })

  it("through the web handler (platform.fetch) and the Effect HTTP app (platform.httpApp)", async () => {
    const { key } = await makePartner(s)
    const made = await provisioned(s, key, merchant({ logo: dataUrl("image/jpeg", jpegBytes(100)) }))
    safe((await s.platform.fetch(new Request(made.logo_url))).headers, "platform.fetch")
    safe((await HttpApp.toWebHandler(s.platform.httpApp)(new Request(made.logo_url))).headers, "platform.httpApp")
  })

  it("through the dispatcher's own answer to a request line node:http refuses", async () => {
    const { key } = await makePartner(s)
    const made = await provisioned(s, key, merchant({ logo: dataUrl("image/webp", webpBytes(100)) }))
    const url = new URL(made.logo_url)
    const head = await new Promise<string>((resolve) => {
      const socket = connect(
        Number(url.port),
        url.hostname,
        () => socket.write(`get ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`),
      )
      const chunks: Array<Buffer> = []
      socket.on("data", (d) => chunks.push(d))
      socket.on("close", () => {
        const raw = Buffer.concat(chunks)
        resolve(raw.subarray(0, raw.indexOf("\r\n\r\n")).toString())
      })
    })
    expect(head).toMatch(/^HTTP\/1\.1 200/)
    expect(head).toContain("x-content-type-options: nosniff")
    expect(head).toContain("content-security-policy: default-src 'none'")
  })
})

describe('DECISIONS 18: "an image whose declared width times height exceeds 16,777,216 pixels is refused with errors.logo too_large"', () => {
  it("a 204 KB PNG declaring 100,000 × 100,000: 400, errors.logo too_large, at provisioning and as a new logo; nothing changes", async () => {
    const { key } = await makePartner(s)
    const huge = dataUrl("image/png", pngBytes(204 * 1024, 100_000, 100_000))
    const refused = await provision(s, key, merchant({ logo: huge }))
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ error: "invalid_request", errors: { logo: "too_large" } })
    const made = await provisioned(s, key, merchant({ logo: dataUrl("image/png", pngBytes(10)) }))
    for (
      const [type, bytes] of [
        ["image/png", pngBytes(10, 4097, 4096)],
        ["image/jpeg", jpegBytes(10, 65_535, 65_535)],
        ["image/webp", webpBytes(10, 100_000, 100_000)],
      ] as const
    ) {
      const res = await setLogo(key, made.id, dataUrl(type, bytes))
      expect(res.status, type).toBe(400)
      expect(res.body.errors, type).toEqual({ logo: "too_large" })
    }
    expect((await s.call("GET", app(made.id), { key })).body).toEqual(made)
  })

  it("4096 × 4096 is taken; an image whose size cannot be read (PNG magic, then HTML) is `type`", async () => {
    const { key } = await makePartner(s)
    const made = await provisioned(s, key)
    const taken = await setLogo(key, made.id, dataUrl("image/png", pngBytes(10, 4096, 4096)))
    expect(taken.status).toBe(200)
    const html = Uint8Array.from([
      ...[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
      ...new TextEncoder().encode("<!doctype html><script>alert(document.domain)</script>"),
    ])
    const res = await setLogo(key, made.id, dataUrl("image/png", html))
    expect(res.status).toBe(400)
    expect(res.body.errors).toEqual({ logo: "type" })
  })
})
