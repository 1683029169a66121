/**
 * DECISIONS 18: a webhook URL is refused when its host is, or resolves to, an address that is not public
 * unicast, unless private addresses are allowed; the address is checked again when each delivery connects.
 */
import { createServer as createTcpServer, type Server as TcpServer } from "node:net"
import { Effect, Layer } from "effect"
import fc from "fast-check"
import ipaddr from "ipaddr.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { isPublicAddress } from "../../core/webhooks/url-policy.ts"
import { webhooksProductWith } from "../../adapters/modules/webhooks.ts"
import { products } from "../../adapters/products.ts"
import { FixedDnsResolver } from "../../adapters/webhooks/dns.ts"
import { post } from "../../adapters/webhooks/http-transport.ts"
import { WebhookTransport } from "../../ports/webhook-transport.ts"
import { setupApplication, useServer } from "../support/server.ts"
import { advance, deliveries } from "./helpers.ts"
import { useReceiver } from "./receiver.ts"

/** Fixed DNS answers a test may change between two lookups. */
const records = new Map<string, ReadonlyArray<string>>()
const resolver = FixedDnsResolver((name) => records.get(name))

/** What the platform asked the transport to post (it answers 200 without connecting anywhere). */
const posted: Array<{ url: string; addresses: ReadonlyArray<string> | undefined }> = []
const recordingTransport = Layer.succeed(WebhookTransport, {
  post: (url, _headers, _body, _timeoutMs, addresses) =>
    Effect.sync(() => {
      posted.push({ url, addresses })
      return { status: 200, latencyMs: 1 }
    }),
})

const withWebhooks = (product: ReturnType<typeof webhooksProductWith>) =>
  products.map((p) => (p.name === "webhooks" ? product : p)) as unknown as typeof products

const notPublic = [
  // IPv4
  "0.0.0.0",
  "0.1.2.3",
  "10.0.0.1",
  "100.64.0.1",
  "100.127.255.254",
  "127.0.0.1",
  "127.255.255.254",
  "169.254.169.254",
  "172.16.0.1",
  "172.31.255.255",
  "192.0.0.8",
  "192.0.2.1",
  "192.168.1.1",
  "198.18.0.1",
  "198.19.255.254",
  "198.51.100.1",
  "203.0.113.1",
  "224.0.0.1",
  "239.255.255.250",
  "240.0.0.1",
  "255.255.255.255",
  // IPv6
  "::",
  "::1",
  "::7f00:1",
  "::ffff:127.0.0.1",
  "::ffff:7f00:1",
  "::ffff:10.0.0.1",
  "::ffff:0:7f00:1",
  "64:ff9b::7f00:1",
  "64:ff9b::127.0.0.1",
  "64:ff9b::a00:1",
  "64:ff9b::6440:1",
  "64:ff9b:1::808:808",
  "2002:7f00:1::",
  "2002:a9fe:a9fe::1",
  "2002:c612:1::",
  "2001:0:7f00:1::1",
  "2001:0:808:808::80ff:fffe",
  "2001:db8::1",
  "2001:2::1",
  "fc00::1",
  "fd12:3456::1",
  "fe80::1",
  "febf::1",
  "fec0::1",
  "ff02::1",
  "ff0e::1",
  "100::1",
  "3fff::1",
  "4000::1",
  "[::1]",
  "not-an-address",
  "",
]

const publicOnes = [
  "8.8.8.8",
  "1.1.1.1",
  "93.184.216.34",
  "100.63.255.255",
  "100.128.0.1",
  "172.32.0.1",
  "198.17.255.255",
  "198.20.0.1",
  "223.255.255.254",
  "2001:4860:4860::8888",
  "2606:4700:4700::1111",
  "[2001:4860:4860::8888]",
  "::ffff:8.8.8.8",
  "64:ff9b::808:808",
  "2002:808:808::1",
  "2001:0:808:808::f7f7:f7f7",
]

describe("an address is public only when it is public unicast (DECISIONS 18)", () => {
  it("loopback, private, link-local, CGNAT 100.64.0.0/10, benchmarking 198.18.0.0/15, multicast, broadcast, and their NAT64 and 6to4 forms, are not public", () => {
    for (const address of notPublic) {
      expect({ address, public: isPublicAddress(address) }).toEqual({ address, public: false })
    }
  })

  it("public unicast IPv4 and IPv6 addresses, and the embedding forms of public IPv4 addresses, are public", () => {
    for (const address of publicOnes) {
      expect({ address, public: isPublicAddress(address) }).toEqual({ address, public: true })
    }
  })

  it("an IPv6 form embedding an IPv4 address (mapped, NAT64 64:ff9b::/96, 6to4) is judged as that address", () => {
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        const [a, b, c, d] = ipaddr.IPv4.parse(v4).octets
        const high = ((a << 8) | b).toString(16)
        const low = ((c << 8) | d).toString(16)
        const expected = isPublicAddress(v4)
        expect(isPublicAddress(`::ffff:${v4}`)).toBe(expected)
        expect(isPublicAddress(`64:ff9b::${high}:${low}`)).toBe(expected)
        expect(isPublicAddress(`2002:${high}:${low}::1`)).toBe(expected)
      }),
      { numRuns: 2_000 },
    )
  })

  it("an IPv4 address is public exactly when ipaddr.js puts it in no special range", () => {
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        expect(isPublicAddress(v4)).toBe(ipaddr.IPv4.parse(v4).range() === "unicast")
      }),
      { numRuns: 2_000 },
    )
  })
})

describe("a webhook URL is refused when its host is, or resolves to, an address that is not public unicast (DECISIONS 18)", () => {
  const s = useServer({ webhookAllowPrivate: false }, {
    jobs: false,
    products: withWebhooks(webhooksProductWith(resolver)),
  })
  const put = (path: string, url: string) => s.call("PUT", `/console/v1${path}`, { key: s.consoleToken, body: { url } })

  it("address literals: NAT64, 6to4, CGNAT, benchmarking, multicast and broadcast are refused with 400 invalid_request and fields.url", async () => {
    const { app, account } = await setupApplication(s)
    for (
      const url of [
        "https://[64:ff9b::7f00:1]/hooks",
        "https://[2002:7f00:1::]/hooks",
        "https://[::ffff:127.0.0.1]/hooks",
        "https://100.64.0.1/hooks",
        "https://198.18.0.1/hooks",
        "https://224.0.0.1/hooks",
        "https://255.255.255.255/hooks",
        "https://[ff02::1]/hooks",
        "https://[2001:db8::1]/hooks",
      ]
    ) {
      for (const path of [`/applications/${app.id}/webhook`, `/accounts/${account.id}/webhook`]) {
        const res = await put(path, url)
        expect({ url, path, status: res.status, body: res.body }).toMatchObject({
          url,
          path,
          status: 400,
          body: { error: "invalid_request", fields: { url: expect.stringMatching(/non-public address/) } },
        })
      }
    }
  })

  it("a name resolving to loopback, or to any address that is not public among public ones, is refused", async () => {
    records.set("loopback.example", ["127.0.0.1"])
    records.set("mixed.example", ["8.8.8.8", "10.0.0.1"])
    records.set("nat64.example", ["64:ff9b::7f00:1"])
    records.set("sixtofour.example", ["2001:4860:4860::8888", "2002:7f00:1::"])
    records.set("cgnat.example", ["100.64.0.1"])
    const { app, account } = await setupApplication(s)
    for (
      const [name, refused] of [
        ["loopback.example", "127.0.0.1"],
        ["mixed.example", "10.0.0.1"],
        ["nat64.example", "64:ff9b::7f00:1"],
        ["sixtofour.example", "2002:7f00:1::"],
        ["cgnat.example", "100.64.0.1"],
      ]
    ) {
      for (const path of [`/applications/${app.id}/webhook`, `/accounts/${account.id}/webhook`]) {
        const res = await put(path, `https://${name}/hooks`)
        expect({ name, status: res.status, body: res.body }).toMatchObject({
          name,
          status: 400,
          body: { error: "invalid_request", fields: { url: expect.stringContaining(`resolves to ${refused}`) } },
        })
      }
    }
  })

  it("a name resolving only to public addresses is accepted; so is one that does not resolve yet", async () => {
    records.set("public.example", ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"])
    const { app } = await setupApplication(s)
    expect((await put(`/applications/${app.id}/webhook`, "https://public.example/hooks")).status).toBe(200)
    expect((await put(`/applications/${app.id}/webhook`, "https://not-yet.example/hooks")).status).toBe(200)
  })
})

describe("with private addresses allowed (WEBHOOK_ALLOW_PRIVATE), names and addresses are not judged", () => {
  const s = useServer({ webhookAllowPrivate: true }, {
    jobs: false,
    products: withWebhooks(webhooksProductWith(resolver)),
  })

  it("a name resolving to loopback and a loopback literal are accepted", async () => {
    records.set("loopback.example", ["127.0.0.1"])
    const { app } = await setupApplication(s)
    for (const url of ["http://loopback.example:9/hooks", "http://127.0.0.1:9/hooks", "http://[64:ff9b::7f00:1]/"]) {
      const res = await s.call("PUT", `/console/v1/applications/${app.id}/webhook`, {
        key: s.consoleToken,
        body: { url },
      })
      expect({ url, status: res.status }).toEqual({ url, status: 200 })
    }
  })
})

describe("the address is checked again when each delivery connects (DECISIONS 18)", () => {
  /** A TCP listener on 127.0.0.1 that counts the connections it gets. */
  let listener: TcpServer
  let connections = 0
  let port = 0
  beforeAll(async () => {
    listener = createTcpServer((socket) => {
      connections++
      socket.destroy()
    })
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve))
    port = (listener.address() as { port: number }).port
  })
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())))

  describe("over the real transport", () => {
    const s = useServer({ webhookAllowPrivate: false }, {
      jobs: false,
      products: withWebhooks(webhooksProductWith(resolver)),
    })

    it("a name public when set but resolving to loopback at delivery is not connected to; the attempt is recorded failed and retried per schedule", async () => {
      records.set("rebind.example", ["93.184.216.34"])
      const { app } = await setupApplication(s)
      await s.console("PUT", `/applications/${app.id}/webhook`, { url: `https://rebind.example:${port}/hooks` })
      records.set("rebind.example", ["127.0.0.1"])
      await s.console("POST", `/applications/${app.id}/webhook/test`, {})
      await advance(s, 0)
      let [log] = await deliveries(s, { application: app.id })
      expect(log.status).toBe("pending")
      expect(log.attempts).toHaveLength(1)
      expect(log.attempts[0]).toMatchObject({
        status_code: null,
        error: "the endpoint's host resolves to 127.0.0.1, which is not a public address; not connected",
      })
      await advance(s, 5_000)
      ;[log] = await deliveries(s, { application: app.id })
      expect(log.attempts).toHaveLength(2)
      expect(log.attempts.map((a: any) => a.error)).toEqual([
        "the endpoint's host resolves to 127.0.0.1, which is not a public address; not connected",
        "the endpoint's host resolves to 127.0.0.1, which is not a public address; not connected",
      ])
      expect(connections).toBe(0)
    })
  })

  describe("over a transport that records what it is asked", () => {
    const s = useServer({ webhookAllowPrivate: false }, {
      jobs: false,
      products: withWebhooks(webhooksProductWith(resolver, recordingTransport)),
    })

    it("a delivery connects only to the addresses it checked; when the name turns private the transport is not called", async () => {
      records.set("moving.example", ["8.8.8.8", "2001:4860:4860::8888"])
      const { app } = await setupApplication(s)
      await s.console("PUT", `/applications/${app.id}/webhook`, { url: "https://moving.example/hooks" })
      posted.length = 0
      await s.console("POST", `/applications/${app.id}/webhook/test`, {})
      await advance(s, 0)
      expect(posted).toEqual([{ url: "https://moving.example/hooks", addresses: ["8.8.8.8", "2001:4860:4860::8888"] }])
      expect((await deliveries(s, { application: app.id }))[0].status).toBe("succeeded")

      records.set("moving.example", ["8.8.8.8", "::ffff:169.254.169.254"])
      await s.console("POST", `/applications/${app.id}/webhook/test`, {})
      await advance(s, 0)
      expect(posted).toHaveLength(1)
      const [log] = await deliveries(s, { application: app.id })
      expect(log.attempts[0].error).toMatch(/resolves to ::ffff:169\.254\.169\.254.*not connected/)

      records.delete("moving.example")
      await advance(s, 5_000)
      expect(posted).toHaveLength(1)
      const [again] = await deliveries(s, { application: app.id })
      expect(again.attempts).toHaveLength(2)
      expect(again.attempts[0].error).toMatch(/did not resolve.*not connected/)
    })
  })

  describe("the HTTP transport", () => {
    const receiver = useReceiver()

    it("given checked addresses, connects to them and not to what the name resolves to, keeping the name in Host", async () => {
      const target = new URL(receiver.url)
      const url = `http://pinned.invalid:${target.port}/hooks?x=1`
      const unpinned = await Effect.runPromise(Effect.either(post(url, {}, "{}", 5_000)))
      expect(unpinned).toMatchObject({ _tag: "Left", left: { message: "connection failed: ENOTFOUND" } })
      const pinned = await Effect.runPromise(
        post(url, { "content-type": "application/json" }, "{}", 5_000, ["127.0.0.1"]),
      )
      expect(pinned.status).toBe(200)
      expect(receiver.received.at(-1)).toMatchObject({ headers: { host: `pinned.invalid:${target.port}` }, body: "{}" })
    })
  })
})
