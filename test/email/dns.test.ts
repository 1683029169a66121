import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import dns2 from "dns2"
import { Effect } from "effect"
import { createSocket } from "node:dgram"
import { dnsRecordsResolver, type DnsResolverSettings, rejoinSplitTxt } from "../../adapters/dns/resolver.ts"
import { checkRecords, recordsFor } from "../../core/email/records.ts"
import { DnsRecords } from "../../ports/dns.ts"

// The adapter asks a local authoritative DNS server (dns2, UDP on 127.0.0.1) through node:dns's Resolver.

const { Packet } = dns2
const KEY = "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun" +
  "VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxKLxoS2tFczGkPLPgizskuemMghRniWaoLcyeh"

interface Zone {
  readonly txt: ReadonlyMap<string, ReadonlyArray<ReadonlyArray<string>>>
  readonly cname: ReadonlyMap<string, string>
}

const zone: Zone = {
  txt: new Map([
    ["shop.example", [["v=spf1 include:spf.mail.svc.sa ~all"], ["google-site-verification=abc123"]]],
    // A DKIM record past 255 bytes is published as several strings of one record.
    ["svc._domainkey.shop.example", [[`v=DKIM1; k=rsa; p=${KEY.slice(0, 100)}`, KEY.slice(100)]]],
  ]),
  cname: new Map([["bounces.shop.example", "Bounces.Mail.SVC.sa"]]),
}

/** A resource record as dns2 encodes it (its type asks for the `toBuffer` the encoder does not read). */
const rr = (record: Omit<dns2.Packet.Resource, "toBuffer">) => record as dns2.Packet.Resource

let server: ReturnType<typeof dns2.createServer>
let port: number
const questions: Array<string> = []

beforeAll(async () => {
  server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request)
      const [question] = request.questions
      const name = question.name.toLowerCase()
      questions.push(`${question.type} ${name}`)
      if (name === "servfail.shop.example") response.header.rcode = 2
      else if (name === "silent.shop.example") return
      else if (question.type === Packet.TYPE.TXT && zone.txt.has(name)) {
        for (const data of zone.txt.get(name)!) {
          response.answers.push(rr({ name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data: [...data] }))
        }
      } else if (question.type === Packet.TYPE.CNAME && zone.cname.has(name)) {
        response.answers.push(rr({
          name,
          type: Packet.TYPE.CNAME,
          class: Packet.CLASS.IN,
          ttl: 60,
          domain: zone.cname.get(name)!,
        }))
      } else if (!zone.txt.has(name) && !zone.cname.has(name)) response.header.rcode = 3
      // Otherwise NOERROR without answers: the name exists, not with that type (NODATA).
      void send(response)
    },
  })
  const addresses = await server.listen({ udp: { port: 0, address: "127.0.0.1" } })
  port = addresses.udp!.port
})
afterAll(async () => {
  await server.close()
})

const withResolver = <A, E>(
  use: (dns: DnsRecords["Type"]) => Effect.Effect<A, E>,
  over: DnsResolverSettings = {},
) =>
  Effect.flatMap(DnsRecords, use).pipe(
    Effect.provide(dnsRecordsResolver({ servers: [`127.0.0.1:${port}`], timeoutMs: 500, tries: 1, ...over })),
  )

describe("TXT: each record at the name, its strings joined", () => {
  it.live("two TXT records at the domain: both, in full", () =>
    withResolver((dns) =>
      Effect.gen(function* () {
        const found = yield* dns.txt("shop.example")
        expect([...found].sort()).toEqual(["google-site-verification=abc123", "v=spf1 include:spf.mail.svc.sa ~all"])
      })
    ))

  it.live("a DKIM record split in two strings is one value", () =>
    withResolver((dns) =>
      Effect.gen(function* () {
        expect(yield* dns.txt("svc._domainkey.shop.example")).toEqual([`v=DKIM1; k=rsa; p=${KEY}`])
      })
    ))
})

describe("on Bun, whose resolver answers each string of a TXT record as a record (oven-sh/bun#21370)", () => {
  it("a string starting v= opens a record, the strings after it continue it; others stand alone", () => {
    expect(rejoinSplitTxt([["v=DKIM1; k=rsa; p=AAA"], ["BBB"], ["CCC"]])).toEqual(["v=DKIM1; k=rsa; p=AAABBBCCC"])
    expect(rejoinSplitTxt([["google-site-verification=x"], ["v=spf1 include:a "], ["~all"], ["v=spf1 -all"]]))
      .toEqual(["google-site-verification=x", "v=spf1 include:a ~all", "v=spf1 -all"])
    expect(rejoinSplitTxt([["a"], ["b"]])).toEqual(["a", "b"])
    expect(rejoinSplitTxt([])).toEqual([])
  })
})

describe("CNAME: the targets at the name, lower-cased, without the final dot", () => {
  it.live("bounces.<domain> → bounces.mail.svc.sa", () =>
    withResolver((dns) =>
      Effect.gen(function* () {
        expect(yield* dns.cname("bounces.shop.example")).toEqual(["bounces.mail.svc.sa"])
      })
    ))
})

describe("a name with no such record answers an empty list (NXDOMAIN, NODATA)", () => {
  it.live("NXDOMAIN: TXT and CNAME of a name that does not exist", () =>
    withResolver((dns) =>
      Effect.gen(function* () {
        expect(yield* dns.txt("missing.shop.example")).toEqual([])
        expect(yield* dns.cname("missing.shop.example")).toEqual([])
      })
    ))

  it.live("NODATA: the CNAME of a name that holds only TXT, the TXT of one that holds only a CNAME", () =>
    withResolver((dns) =>
      Effect.gen(function* () {
        expect(yield* dns.cname("shop.example")).toEqual([])
        expect(questions).toContain(`${Packet.TYPE.CNAME} shop.example`)
        expect(yield* dns.txt("bounces.shop.example")).toEqual([])
      })
    ))
})

describe("a resolver that does not answer fails: DnsFailure", () => {
  it.live("SERVFAIL", () =>
    withResolver((dns) =>
      Effect.gen(function* () {
        const error = yield* Effect.flip(dns.txt("servfail.shop.example"))
        expect(error._tag).toBe("DnsFailure")
        expect(error.message).toContain("servfail.shop.example")
      })
    ))

  it.live("a server that stays silent, within the timeout", () =>
    withResolver((dns) =>
      Effect.gen(function* () {
        const started = Date.now()
        expect((yield* Effect.flip(dns.txt("silent.shop.example")))._tag).toBe("DnsFailure")
        expect(Date.now() - started).toBeLessThan(3_000)
      }), { timeoutMs: 200 }))

  it.live("a port with nothing listening", () =>
    Effect.gen(function* () {
      const socket = createSocket("udp4")
      yield* Effect.promise(() => new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", () => resolve())))
      const closed = socket.address().port
      yield* Effect.promise(() => new Promise<void>((resolve) => socket.close(() => resolve())))
      const error = yield* withResolver(
        (dns) => Effect.flip(dns.cname("bounces.shop.example")),
        { servers: [`127.0.0.1:${closed}`], timeoutMs: 200 },
      )
      expect(error._tag).toBe("DnsFailure")
    }))
})

describe("DECISIONS 8.2: the three records of a sender domain are checked through this adapter", () => {
  it.live("spf, dkim (two strings) and return_path (upper-case target) are all verified", () =>
    withResolver((dns) =>
      Effect.gen(function* () {
        const checked = yield* checkRecords(recordsFor("shop.example", KEY), dns)
        expect(checked.map((r) => [r.purpose, r.verified])).toEqual([
          ["spf", true],
          ["dkim", true],
          ["return_path", true],
        ])
        const elsewhere = yield* checkRecords(recordsFor("other.example", KEY), dns)
        expect(elsewhere.map((r) => r.verified)).toEqual([false, false, false])
      })
    ))
})
