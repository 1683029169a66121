/**
 * The same HTTP smoke set against the Node, Deno and Bun hosts, each a real process on PGlite in
 * memory: the banner, health, the order of checks at the edge, every console route, a Verify round trip,
 * graceful stop.
 */
import { connect } from "node:net"
import { extractText, getDocumentProxy } from "unpdf"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixture, prepare, routes } from "../console/routes.ts"
import { type Call, consoleCaller, jsonCall } from "../support/net.ts"
import { signIn as signInToConsole } from "../console/web-support.ts"
import { startReceiver, verify } from "../webhooks/receiver.ts"
import { type HostName, hostNames, type HostProcess, startHost } from "./host-process.ts"

const consoleToken = "console-smoke-token"

describe.each(hostNames.map((h) => [h] as [HostName]))("the %s host as a process", (host) => {
  let p: HostProcess
  const call: Call = (method, path, opts) => jsonCall(p.baseUrl)(method, path, opts)
  const consoleCall = consoleCaller(call, consoleToken)

  beforeAll(async () => {
    p = await startHost(host, { PGLITE_DIR: "memory://", CONSOLE_TOKEN: consoleToken, CLOCK: "simulated" })
  }, 120_000)
  afterAll(async () => {
    await p?.kill()
  })

  it("prints the banner in the pinned order", () => {
    const lines = p.output().split("\n").filter((l) => /^(listening on|console token|demo )/.test(l))
    expect(lines[0]).toBe(`listening on http://127.0.0.1:${p.port}`)
    expect(lines[1]).toBe(`console token: ${consoleToken}`)
    expect(lines.slice(2).map((l) => l.split(":")[0])).toEqual([
      "demo account",
      "demo application",
      "demo live key",
      "demo test key",
      "demo proven destination (test key)",
    ])
    expect(p.banner.demoLiveKey).toMatch(/^svc_live_/)
    expect(p.banner.demoTestKey).toMatch(/^svc_test_/)
    expect(p.banner.provenDestination).toBe("+966500000000")
  })

  it("serves the console's pages: the banner's console URL, sign-in, a session, a page (issue 33)", async () => {
    expect(p.output()).toContain(`console: http://127.0.0.1:${p.port}/console/`)
    const signIn = await signInToConsole(p.baseUrl, consoleToken)
    const page = await fetch(`${p.baseUrl}/console/accounts`, { headers: { cookie: signIn.session } })
    expect(page.status).toBe(200)
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'")
    expect(await page.text()).toContain('<html lang="en" dir="ltr">')
  })

  it("GET /healthz answers 200 {status: ok} with an X-Request-Id", async () => {
    const res = await call("GET", "/healthz")
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: "ok" })
    expect(res.headers.get("content-type")).toContain("application/json")
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
  })

  it("header fields over 16 KiB answer 431 headers_too_large on every host, a field given twice counted twice", async () => {
    const get = (headers: Record<string, string> | Array<[string, string]>) =>
      fetch(`${p.baseUrl}/healthz`, { headers })
    expect((await get({ "x-big": "x".repeat(20_000) })).status).toBe(431)
    expect((await get({ "x-big": "x".repeat(16_000) })).status).toBe(200)
    const twice = await get([["x-big", "x".repeat(9_000)], ["x-big", "y".repeat(9_000)]])
    expect(twice.status).toBe(431)
    expect(await twice.json()).toMatchObject({ error: "headers_too_large" })
    // A GET with no other header read before the count: the count still sees every field.
    expect((await get([["x-a", "x".repeat(8_500)], ["x-b", "y".repeat(8_500)]])).status).toBe(431)
  })

  it("an unknown route is 404 not_found", async () => {
    const res = await call("GET", "/v1/nothing-here")
    expect(res.status).toBe(404)
    expect(res.body.error).toBe("not_found")
    expect(res.headers.get("x-request-id")).toBeTruthy()
  })

  it("a Verify round trip with the demo live key: start, the simulator's code, check; the /api/v1 alias", async () => {
    const key = p.banner.demoLiveKey!
    const started = await call("POST", "/v1/verify/start", { key, body: { to: "0551234567" } })
    expect(started.status).toBe(200)
    expect(started.body.status).toBe("pending")
    expect(started.body.to).toBe("+966551234567")

    const sms = await call("GET", `/console/v1/simulator/sms?to=${encodeURIComponent("+966551234567")}`, {
      key: consoleToken,
    })
    expect(sms.status).toBe(200)
    const code = /\b\d{4,8}\b/.exec(sms.body.data[0].text)![0]

    const checked = await call("POST", "/v1/verify/check", { key, body: { id: started.body.id, code } })
    expect(checked.status).toBe(200)
    expect(checked.body.status).toBe("verified")

    const read = await call("GET", `/api/v1/verify/${started.body.id}`, { key })
    expect(read.status).toBe(200)
    expect(read.body.id).toBe(started.body.id)
    expect(read.body.status).toBe("verified")
  })

  it(
    "a webhook reaches its endpoint signed, through the node:http transport of this runtime (DECISIONS 5)",
    async () => {
      const receiver = await startReceiver()
      try {
        const app = p.banner.demoApplication!
        const endpoint = await consoleCall("PUT", `/applications/${app}/webhook`, { url: receiver.url })
        await consoleCall("POST", `/applications/${app}/webhook/test`, { event: "verification.verified" })
        // Codes verified earlier in this file may reach the endpoint too: the rehearsal is the one marked `test`.
        const deadline = Date.now() + 20_000
        while (!receiver.received.some((r) => r.json?.test === true) && Date.now() < deadline) {
          await new Promise((done) => setTimeout(done, 50))
        }
        const rehearsal = receiver.received.find((r) => r.json?.test === true)
        expect(rehearsal, "the rehearsal arrived").toBeDefined()
        expect(verify(endpoint.secret, rehearsal!)).toMatchObject({ event: "verification.verified", test: true })
        // Every delivery is signed with the endpoint's secret.
        for (const r of receiver.received) expect(() => verify(endpoint.secret, r)).not.toThrow()
      } finally {
        await receiver.close()
      }
    },
    30_000,
  )

  it("401 without a key", async () => {
    const res = await call("POST", "/v1/verify/start", { body: { to: "0551234567" } })
    expect(res.status).toBe(401)
    expect(res.body.error).toBe("unauthorized")
  })

  it("a console route is 401 without the console token", async () => {
    const none = await call("GET", "/console/v1/simulator/sms?to=0551234567")
    expect(none.status).toBe(401)
    expect(none.body.error).toBe("unauthorized")
    const wrong = await call("GET", "/console/v1/simulator/sms?to=0551234567", { key: p.banner.demoLiveKey })
    expect(wrong.status).toBe(401)
  })

  describe("every console route of DECISIONS 2 answers with the printed console token, as in process", () => {
    for (const [name, r] of Object.entries(routes)) {
      it(`${name} → ${r.status} { data }`, async () => {
        const ids = await fixture(consoleCall)
        await prepare(consoleCall, name, ids)
        const res = await call(r.method, `/console/v1${r.path(ids)}`, { key: consoleToken, body: r.body(ids) })
        expect(res.status, JSON.stringify(res.body)).toBe(r.status)
        expect(Object.keys(res.body)).toEqual(["data"])
        r.data(res.body.data, ids)
      })
    }
  })

  it("a proforma's PDF for an Arabic and mixed-script buyer: 200 application/pdf set in the embedded DejaVu Sans (DECISIONS 18)", async () => {
    const account = await consoleCall("POST", "/accounts", { name: "Merchant" })
    const token = (await consoleCall("POST", `/accounts/${account.id}/account-tokens`, { role: "owner" })).token
    const proforma = (await call("POST", "/v1/account/wallet/proformas", {
      key: token,
      body: { amount_halalas: 10_000, buyer: { name: "شركة ABC المحدودة 123", address: "الرياض، طريق الملك فهد" } },
    })).body.data
    const res = await fetch(`${p.baseUrl}/v1/account/wallet/proformas/${proforma.id}/pdf`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("application/pdf")
    // Read back (pdf.js): the font reached the host (dist/fonts for Node, the sources' for Deno and Bun).
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(await res.arrayBuffer())))
    expect(String(text).split("\n")).toContain("شركة ABC المحدودة 123")
  })

  it("a partner's logo is served as bytes without a key: its type, ETag, cache headers, 304, HEAD (DECISIONS 13)", async () => {
    const account = await consoleCall("POST", "/accounts", { name: "Platform", partner: true })
    const key = (await consoleCall("POST", `/accounts/${account.id}/keys`, { mode: "partner" })).key
    // A PNG header (64 × 64), then every byte value, so nothing on the way may treat the body as text.
    const bytes = Uint8Array.from([
      ...[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
      ...[0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 64, 0, 0, 0, 64, 8, 6, 0, 0, 0, 0, 0, 0, 0],
      ...Array.from({ length: 4096 }, (_, i) => i % 256),
    ])
    const made = await call("POST", "/v1/partner/applications", {
      key,
      body: {
        name: "Logo shop",
        website: "https://logo.example.sa",
        logo: `data:image/png;base64,${Buffer.from(bytes).toString("base64")}`,
      },
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    const path = new URL(made.body.logo_url).pathname
    const res = await fetch(p.baseUrl + path)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("image/png")
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
    expect(res.headers.get("x-content-type-options")).toBe("nosniff")
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'")
    const etag = res.headers.get("etag")!
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/)
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes)
    const cached = await fetch(p.baseUrl + path, { headers: { "if-none-match": etag } })
    expect(cached.status).toBe(304)
    expect((await cached.arrayBuffer()).byteLength).toBe(0)
    const head = await fetch(p.baseUrl + `/api${path}`, { method: "HEAD" })
    expect(head.status).toBe(200)
    expect(head.headers.get("content-type")).toBe("image/png")
  })

  it("an IP allowlist judges the caller's address as the host reports it", async () => {
    const keyWith = async (ip_allowlist: Array<string>) => {
      const res = await call("POST", `/console/v1/applications/${p.banner.demoApplication}/keys`, {
        key: consoleToken,
        body: { mode: "live", ip_allowlist },
      })
      expect(res.status).toBe(201)
      return res.body.data.key as string
    }
    const elsewhere = await call("GET", `/v1/verify/${crypto.randomUUID()}`, { key: await keyWith(["10.0.0.0/8"]) })
    expect(elsewhere.status).toBe(403)
    expect(elsewhere.body.error).toBe("ip_not_allowed")
    const here = await call("GET", `/v1/verify/${crypto.randomUUID()}`, { key: await keyWith(["127.0.0.1", "::1"]) })
    expect(here.status).toBe(404)
    expect(here.body.error).toBe("not_found")
  })

  it("a body over 1 MiB is refused with 400 invalid_request and a request id, before it is read whole", async () => {
    const res = await fetch(`${p.baseUrl}/v1/verify/start`, {
      method: "POST",
      headers: { authorization: `Bearer ${p.banner.demoLiveKey}`, "content-type": "application/json" },
      body: JSON.stringify({ to: "0551234567", pad: "x".repeat(1024 * 1024) }),
    })
    expect(res.status).toBe(400)
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
    expect(await res.json()).toEqual({ error: "invalid_request", message: "The body is larger than 1048576 bytes." })
    // A body just under the limit is read and judged as usual.
    const under = await call("POST", "/v1/verify/start", {
      key: p.banner.demoLiveKey,
      body: { to: "1", pad: "x".repeat(1000) },
    })
    expect(under.status).toBe(422)
  })

  it("SIGTERM: a request half sent is still answered, then the process exits 0 within a few seconds", async () => {
    const body = JSON.stringify({ to: "+966551234569" })
    const half = Math.floor(body.length / 2)
    const socket = connect(p.port, "127.0.0.1")
    await new Promise((ok, fail) => socket.once("connect", ok).once("error", fail))
    let text = ""
    socket.setEncoding("utf8").on("data", (chunk: string) => (text += chunk))
    const closed = new Promise<boolean>((ok) => {
      const timer = setTimeout(() => ok(false), 10_000)
      socket.once("close", () => (clearTimeout(timer), ok(true)))
    })
    // The head and half the body: the host has the request and the platform is reading its body.
    socket.write(
      "POST /v1/verify/start HTTP/1.1\r\nhost: 127.0.0.1\r\n" +
        `authorization: Bearer ${p.banner.demoLiveKey}\r\ncontent-type: application/json\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
    )
    await new Promise((ok) => setTimeout(ok, 300))
    p.child.kill("SIGTERM")
    await new Promise((ok) => setTimeout(ok, 300))
    expect(p.child.exitCode, "exited with a request in flight").toBe(null)
    socket.write(body.slice(half))
    expect(await closed, "the connection stayed open after its answer").toBe(true)
    expect(text.split("\r\n")[0], text).toBe("HTTP/1.1 200 OK")
    const code = await Promise.race([
      p.exited,
      new Promise((ok) => setTimeout(() => ok("still running after 10 s"), 10_000)),
    ])
    expect(code, p.output()).toBe(0)
  }, 25_000)
})
