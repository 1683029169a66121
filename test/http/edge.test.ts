/**
 * The request model every way in shares (adapters/http/edge.ts), tried here through the Node handler on a
 * real socket and through the web handler; test/fuzz holds all five ways in to one answer.
 */
import { Option } from "effect"
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { webHandler } from "../../adapters/http/web.ts"
import { createSchema, dropSchema, withSearchPath } from "../support/pg.ts"
import { phone } from "../support/phone.ts"
import { setupApplication, startServer, type TestServer, useServer } from "../support/server.ts"

const s = useServer()
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** Raw bytes to the test server; the status line, headers and body as they came back. */
const raw = (
  baseUrl: string,
  bytes: string | Buffer | ReadonlyArray<string | Buffer>,
): Promise<{ status: number; headers: string; body: string }> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl)
    const socket = connect(Number(port), hostname)
    const chunks: Array<Buffer> = []
    socket.on("data", (c) => chunks.push(c))
    socket.on("error", reject)
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8")
      const end = text.indexOf("\r\n\r\n")
      if (end === -1) return reject(new Error(`no answer: ${JSON.stringify(text)}`))
      resolve({
        status: Number(text.slice(9, 12)),
        headers: text.slice(0, end).toLowerCase(),
        body: text.slice(end + 4),
      })
    })
    // Several parts go out in separate writes, 30 ms apart (so in separate packets).
    if (typeof bytes === "string" || Buffer.isBuffer(bytes)) return socket.end(bytes)
    const parts = [...bytes]
    const next = () => {
      const part = parts.shift()!
      if (parts.length === 0) socket.end(part)
      else socket.write(part, () => setTimeout(next, 30))
    }
    next()
  })

const web = async (request: Request, ip?: string) => {
  const res = await webHandler(s.platform.dispatch)(request, ip)
  const text = await res.text()
  return { status: res.status, headers: res.headers, body: text === "" ? undefined : JSON.parse(text) }
}

describe("the caller's address comes only from the socket, or from X-Forwarded-For behind a trusted proxy", () => {
  it("the web handler without `ip` does not take X-Forwarded-For: a key allowlisted to 203.0.113.5 is refused", async () => {
    const { app } = await setupApplication(s)
    const { key } = await s.console("POST", `/applications/${app.id}/keys`, {
      mode: "live",
      ip_allowlist: ["203.0.113.5"],
    })
    const start = (ip?: string) =>
      web(
        new Request("http://shop.example/v1/verify/start", {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "x-forwarded-for": "203.0.113.5" },
          body: JSON.stringify({ to: phone() }),
        }),
        ip,
      )
    expect(await start()).toMatchObject({ status: 403, body: { error: "ip_not_allowed" } })
    expect(await s.platform.fetch(new Request("http://h/healthz"))).toBeInstanceOf(Response)
    expect(await start("198.51.100.1")).toMatchObject({ status: 403, body: { error: "ip_not_allowed" } })
    expect((await start("203.0.113.5")).status).toBe(200)
  })

  describe("with trustedProxies", () => {
    let proxied: TestServer
    beforeAll(async () => {
      proxied = await startServer({ trustedProxies: ["127.0.0.1/32", "10.0.0.0/8"] })
    })
    afterAll(() => proxied.close())

    const keyFor = async (server: TestServer, allow: ReadonlyArray<string>) => {
      const { app } = await setupApplication(server)
      return (await server.console("POST", `/applications/${app.id}/keys`, { mode: "live", ip_allowlist: allow }))
        .key as string
    }
    const startFrom = (server: TestServer, key: string, forwardedFor?: string) =>
      server.call("POST", "/v1/verify/start", {
        key,
        body: { to: phone() },
        ...(forwardedFor === undefined ? {} : { headers: { "x-forwarded-for": forwardedFor } }),
      })

    it("behind a trusted proxy (the socket's peer 127.0.0.1), the client is the first untrusted hop from the right", async () => {
      const key = await keyFor(proxied, ["203.0.113.5"])
      expect((await startFrom(proxied, key, "203.0.113.5")).status).toBe(200)
      expect((await startFrom(proxied, key, "203.0.113.5, 10.1.2.3")).status).toBe(200)
      // A client that writes its own X-Forwarded-For: the proxy appends the real address, which is what counts.
      const spoofed = await startFrom(proxied, key, "203.0.113.5, 198.51.100.9")
      expect(spoofed).toMatchObject({ status: 403, body: { error: "ip_not_allowed" } })
      expect(await startFrom(proxied, key)).toMatchObject({ status: 403, body: { error: "ip_not_allowed" } })
    })

    it("never by default: the same header on a platform without trusted proxies changes nothing", async () => {
      const key = await keyFor(s, ["203.0.113.5"])
      expect(await startFrom(s, key, "203.0.113.5")).toMatchObject({ status: 403, body: { error: "ip_not_allowed" } })
    })
  })
})

describe("strings PostgreSQL cannot store are refused as 400 invalid_request naming the field, on every store", () => {
  const stores: Array<[string, () => Promise<{ server: TestServer; done: () => Promise<void> }>]> = [
    ["memory", async () => ({ server: s, done: async () => {} })],
    ["PGlite", async () => {
      const server = await startServer({ store: "sql", pgliteDir: "memory://" })
      return { server, done: () => server.close() }
    }],
  ]
  const databaseUrl = process.env.DATABASE_URL
  if (databaseUrl !== undefined) {
    stores.push(["PostgreSQL", async () => {
      const schema = `edge_${Date.now()}_${Math.floor(Math.random() * 1e6)}`
      await createSchema(databaseUrl, schema)
      const server = await startServer({ store: "sql", databaseUrl: Option.some(withSearchPath(databaseUrl, schema)) })
      return {
        server,
        done: async () => {
          await server.close()
          await dropSchema(databaseUrl, schema)
        },
      }
    }])
  }

  for (const [name, make] of stores) {
    it(`${name}: NUL or an unpaired surrogate in reference, a console account name or a nested field`, async () => {
      const { server, done } = await make()
      try {
        const { key } = await setupApplication(server)
        for (const reference of ["a\u0000b", "\ud800", "x\udc00y", "\udbff"]) {
          const res = await server.call("POST", "/v1/verify/start", { key, body: { to: phone(), reference } })
          expect(res.status, JSON.stringify(reference)).toBe(400)
          expect(res.body).toMatchObject({
            error: "invalid_request",
            fields: { reference: "must not contain NUL (U+0000) or unpaired surrogates" },
          })
          expect(res.headers.get("x-request-id")).toMatch(UUID)
        }
        // A pair of surrogates is one character (an emoji), and stored as any other.
        const emoji = await server.call("POST", "/v1/verify/start", { key, body: { to: phone(), reference: "🎉" } })
        expect(emoji.status).toBe(200)
        expect(emoji.body.reference).toBe("🎉")
        const named = await server.call("POST", "/console/v1/accounts", {
          key: server.consoleToken,
          body: { name: "Shop\u0000", meta: { tags: ["ok", "\ud83d"] } },
        })
        expect(named.status).toBe(400)
        expect(named.body).toMatchObject({
          error: "invalid_request",
          fields: {
            name: "must not contain NUL (U+0000) or unpaired surrogates",
            "meta.tags[1]": "must not contain NUL (U+0000) or unpaired surrogates",
          },
        })
        const partnerRef = await server.call("GET", `/v1/verify/${crypto.randomUUID()}?application=%00`, { key })
        expect(partnerRef.status).toBe(404)
      } finally {
        await done()
      }
    })
  }
})

describe("lengths are counted in code points, as the spec counts characters", () => {
  it("a console name of 200 emoji is 200 characters (400 UTF-16 units) and accepted; 201 are refused", async () => {
    const ok = await s.call("POST", "/console/v1/accounts", { key: s.consoleToken, body: { name: "🎉".repeat(200) } })
    expect(ok.status).toBe(201)
    const over = await s.call("POST", "/console/v1/accounts", { key: s.consoleToken, body: { name: "🎉".repeat(201) } })
    expect(over).toMatchObject({
      status: 400,
      body: { error: "invalid_request", fields: { name: "at most 200 characters" } },
    })
  })
})

describe("the same bytes, the same answer: what a URL parser, a web runtime or a strict parser would change", () => {
  it("a UTF-8 byte order mark before the JSON is dropped (as every web runtime's text() does): 200", async () => {
    const { key } = await setupApplication(s)
    const body = `\ufeff${JSON.stringify({ to: phone() })}`
    const viaNode = await raw(
      s.baseUrl,
      `POST /v1/verify/start HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    )
    expect(viaNode.status).toBe(200)
    const viaWeb = await web(
      new Request("http://h/v1/verify/start", {
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
        body: new TextEncoder().encode(`\ufeff${JSON.stringify({ to: phone() })}`),
      }),
    )
    expect(viaWeb.status).toBe(200)
  })

  it("bytes that are not UTF-8 are not JSON: 400 invalid_json, after the key is judged", async () => {
    const { key } = await setupApplication(s)
    const body = Buffer.from([0x7b, 0x22, 0x74, 0x6f, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) // {"to":"\xff\xfe"}
    const head = `POST /v1/verify/start HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\nConnection: close\r\n`
    const res = await raw(s.baseUrl, Buffer.concat([Buffer.from(`${head}Authorization: Bearer ${key}\r\n\r\n`), body]))
    expect(res.status).toBe(400)
    expect(JSON.parse(res.body)).toEqual({ error: "invalid_json" })
    const unkeyed = await raw(s.baseUrl, Buffer.concat([Buffer.from(`${head}\r\n`), body]))
    expect(unkeyed.status).toBe(401)
  })

  it("header fields over 16 KiB answer 431 headers_too_large in JSON, below the parser's limit and above it", async () => {
    for (const size of [20_000, 70_000]) {
      const res = await raw(s.baseUrl, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"x".repeat(size)}\r\n\r\n`)
      expect(res.status, String(size)).toBe(431)
      expect(JSON.parse(res.body)).toEqual({
        error: "headers_too_large",
        message: "The header fields are larger than 16384 bytes.",
      })
      expect(res.headers).toMatch(/x-request-id: [0-9a-f-]{36}/)
    }
    const viaWeb = await web(new Request("http://h/healthz", { headers: { "x-big": "x".repeat(20_000) } }))
    expect(viaWeb).toMatchObject({ status: 431, body: { error: "headers_too_large" } })
    const justUnder = await raw(s.baseUrl, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"x".repeat(16_000)}\r\n\r\n`)
    expect(justUnder.status).toBe(200)
  })

  it("dot segments, also percent-encoded, are resolved as a URL parser resolves them; a fragment is dropped", async () => {
    for (const target of ["/v1/verify/../../healthz", "/v1/verify/%2e%2e/%2E%2E/healthz", "/./healthz", "/healthz#x"]) {
      const viaNode = await raw(s.baseUrl, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)
      expect(viaNode.status, target).toBe(200)
      expect(JSON.parse(viaNode.body)).toEqual({ status: "ok" })
    }
    expect((await web(new Request("http://h/v1/verify/../../healthz"))).status).toBe(200)
    const absolute = await raw(s.baseUrl, "GET http://elsewhere.example/healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    expect(absolute.status).toBe(200)
    expect((await raw(s.baseUrl, "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n")).status).toBe(404)
  })

  it("a method the parser does not know gets the dispatcher's answer: 405 with Allow on a known path, 404 elsewhere", async () => {
    const foo = await raw(s.baseUrl, "FOO /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    expect(foo.status).toBe(405)
    expect(foo.headers).toContain("allow: get, head, options")
    expect(JSON.parse(foo.body)).toEqual({
      error: "method_not_allowed",
      message: "FOO is not allowed here; use GET, HEAD, OPTIONS.",
    })
    const unknownPath = await raw(s.baseUrl, "FOO /nowhere HTTP/1.1\r\nHost: x\r\n\r\n")
    expect(unknownPath.status).toBe(404)
    expect(JSON.parse(unknownPath.body)).toEqual({ error: "not_found" })
    // Lower-case `get` is `GET`, as Fetch's Request makes it.
    const lower = await raw(s.baseUrl, "get /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    expect(lower.status).toBe(200)
    expect((await web(new Request("http://h/healthz", { method: "get" }))).status).toBe(200)
  })

  it("what one parser refuses and another takes is answered by the dispatcher: no Host, CONNECT, an upgrade", async () => {
    const noHost = await raw(s.baseUrl, "GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n")
    expect(noHost.status).toBe(200)
    const connectTo = await raw(s.baseUrl, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
    expect(connectTo.status).toBe(404)
    expect(JSON.parse(connectTo.body)).toEqual({ error: "not_found" })
    const upgrade = await raw(
      s.baseUrl,
      "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n",
    )
    expect(upgrade.status).toBe(200)
    // A refused head keeps its body when it came whole: lower-case `post` is POST, as on the web hosts.
    const body = JSON.stringify({ to: phone() })
    const { key } = await setupApplication(s)
    const lowerPost = await raw(
      s.baseUrl,
      `post /v1/verify/start HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    )
    expect(lowerPost.status).toBe(200)
    expect(JSON.parse(lowerPost.body)).toMatchObject({ status: "pending" })
    // A refused head whose body comes in chunks, or after the head in later packets, is read to its end.
    const chunked = await raw(
      s.baseUrl,
      "FOO /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
    )
    expect(chunked.status).toBe(405)
    expect(JSON.parse(chunked.body)).toMatchObject({ error: "method_not_allowed" })
    const body2 = JSON.stringify({ to: phone() })
    const later = await raw(s.baseUrl, [
      `post /v1/verify/start HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nTransfer-Encoding: chunked\r\n\r\n`,
      `${body2.length.toString(16)}\r\n${body2}\r\n`,
      "0\r\n\r\n",
    ])
    expect(later.status).toBe(200)
    expect(JSON.parse(later.body)).toMatchObject({ status: "pending" })
    const tooLarge = await raw(s.baseUrl, [
      "put /v1/verify/start HTTP/1.1\r\nHost: x\r\nContent-Length: 1048577\r\n\r\n",
      Buffer.alloc(1_048_577, 0x20),
    ])
    expect(tooLarge.status).toBe(400)
    expect(JSON.parse(tooLarge.body)).toMatchObject({
      error: "invalid_request",
      message: expect.stringMatching(/larger/),
    })
  })

  it("HEAD is GET without the body", async () => {
    const head = await raw(s.baseUrl, "HEAD /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    expect(head.status).toBe(200)
    expect(head.body).toBe("")
    expect(head.headers).toMatch(/x-request-id: [0-9a-f-]{36}/)
    const viaWeb = await webHandler(s.platform.dispatch)(new Request("http://h/healthz", { method: "HEAD" }))
    expect(viaWeb.status).toBe(200)
    expect(await viaWeb.text()).toBe("")
    const { key } = await setupApplication(s)
    const unknown = await s.call("HEAD", `/v1/verify/${crypto.randomUUID()}`, { key })
    expect(unknown.status).toBe(404)
    // No body on any answer to HEAD: an unknown path, a refused method, headers over the limit.
    for (
      const [url, headers] of [["/nowhere", {}], ["/v1/verify/x/cancel", {}], ["/healthz", {
        "x-big": "a".repeat(17_000),
      }]] as const
    ) {
      const res = await webHandler(s.platform.dispatch)(new Request(`http://h${url}`, { method: "HEAD", headers }))
      expect([404, 405, 431]).toContain(res.status)
      expect(await res.text()).toBe("")
    }
  })
})

describe("OPTIONS and CORS: off by default, `allowedOrigins` turns it on", () => {
  it("OPTIONS on a known path answers 204 with Allow and no CORS header; an unknown path 404", async () => {
    const res = await s.call("OPTIONS", "/v1/verify/start", {
      headers: { origin: "https://shop.example", "access-control-request-method": "POST" },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get("allow")).toBe("GET, HEAD, POST, OPTIONS")
    expect(res.headers.get("access-control-allow-origin")).toBeNull()
    expect(res.headers.get("x-request-id")).toMatch(UUID)
    const plain = await s.call("GET", "/healthz", { headers: { origin: "https://shop.example" } })
    expect(plain.headers.get("access-control-allow-origin")).toBeNull()
    expect((await s.call("OPTIONS", "/v1/nowhere")).status).toBe(404)
  })

  describe("with allowedOrigins", () => {
    let cors: TestServer
    beforeAll(async () => {
      cors = await startServer({ allowedOrigins: ["https://shop.example"] })
    })
    afterAll(() => cors.close())

    it("a preflight from an allowed origin gets the methods, headers and max age; another origin gets none", async () => {
      const preflight = await cors.call("OPTIONS", "/api/v1/verify/check", {
        headers: { origin: "https://shop.example", "access-control-request-method": "POST" },
      })
      expect(preflight.status).toBe(204)
      expect(Object.fromEntries([...preflight.headers].filter(([k]) => k.startsWith("access-control-")))).toEqual({
        "access-control-allow-origin": "https://shop.example",
        "access-control-allow-methods": "GET, HEAD, POST, OPTIONS",
        "access-control-allow-headers": "authorization, content-type, idempotency-key, x-api-key",
        "access-control-expose-headers": "x-request-id, retry-after, idempotent-replayed, www-authenticate, allow",
        "access-control-max-age": "600",
      })
      expect(preflight.headers.get("vary")).toBe("origin")
      const other = await cors.call("OPTIONS", "/v1/verify/check", {
        headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
      })
      expect(other.status).toBe(204)
      expect(other.headers.get("access-control-allow-origin")).toBeNull()
    })

    it("answers to an allowed origin carry Access-Control-Allow-Origin, errors and unknown routes included", async () => {
      for (const [method, path] of [["GET", "/healthz"], ["POST", "/v1/verify/start"], ["GET", "/nowhere"]]) {
        const res = await cors.call(method, path, { headers: { origin: "https://shop.example" } })
        expect(res.headers.get("access-control-allow-origin"), path).toBe("https://shop.example")
        expect(res.headers.get("access-control-expose-headers")).toContain("x-request-id")
      }
      const res = await cors.call("GET", "/healthz", { headers: { origin: "https://evil.example" } })
      expect(res.headers.get("access-control-allow-origin")).toBeNull()
    })
  })
})
