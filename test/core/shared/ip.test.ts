import { describe, expect, it } from "@effect/vitest"
import { Either, Option, Schema } from "effect"
import * as fc from "effect/FastCheck"
import * as net from "node:net"
import {
  allowlistAdmits,
  formatIp,
  type Ip,
  IpFromString,
  ipInRange,
  type IpRange,
  IpRangeFromString,
  parseIp,
  parseIpRange,
} from "../../../core/shared/ip.ts"

// ---- generators and reference computations -------------------------------------------------

const byte = fc.integer({ min: 0, max: 255 })
const v4Bytes = fc.tuple(byte, byte, byte, byte)
const v4Text = (b: ReadonlyArray<number>) => b.join(".")
const v4Value = (b: ReadonlyArray<number>) => b.reduce((acc, x) => (acc << 8n) | BigInt(x), 0n)

/** Eight 16-bit groups, biased towards zeros so that `::` compression gets exercised. */
const v6Groups = fc.array(fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 0, max: 0xffff })), {
  minLength: 8,
  maxLength: 8,
})
const v6Value = (g: ReadonlyArray<number>) => g.reduce((acc, x) => (acc << 16n) | BigInt(x), 0n)
const isMapped = (g: ReadonlyArray<number>) => g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff
/** Anything outside ::ffff:0:0/96 stays IPv6. */
const v6GroupsNotMapped = v6Groups.filter((g) => !isMapped(g))

/** The ways of writing one address: expanded, padded, any zero run compressed, random case, IPv4 tail. */
const v6Spellings = (g: ReadonlyArray<number>): Array<string> => {
  const hex = (gs: ReadonlyArray<number>, padded = false) =>
    gs.map((x) => x.toString(16).padStart(padded ? 4 : 1, "0")).join(":")
  const forms = [hex(g), hex(g, true), hex(g).toUpperCase()]
  for (let i = 0; i < 8; i++) {
    for (let j = i + 1; j <= 8 && g[j - 1] === 0; j++) forms.push(`${hex(g.slice(0, i))}::${hex(g.slice(j))}`)
  }
  const tail = `${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`
  forms.push(`${hex(g.slice(0, 6))}:${tail}`)
  for (let i = 0; i < 6; i++) {
    for (let j = i + 1; j <= 6 && g[j - 1] === 0; j++) {
      const right = hex(g.slice(j, 6))
      forms.push(`${hex(g.slice(0, i))}::${right === "" ? "" : `${right}:`}${tail}`)
    }
  }
  return forms
}

const refInRange = (ip: bigint, base: bigint, prefix: number, bits: number) =>
  ip >> BigInt(bits - prefix) === base >> BigInt(bits - prefix)

const some = <A>(o: Option.Option<A>): A => Option.getOrThrow(o)

// ---- the rules ------------------------------------------------------------------------------

describe("IPv4: strict dotted decimal, four parts 0-255, no leading zeros", () => {
  it.prop("every dotted quad parses to its 32-bit value", [v4Bytes], ([b]) => {
    expect(parseIp(v4Text(b))).toEqual(Option.some({ version: 4, value: v4Value(b) }))
  })

  it("rejects malformed dotted quads", () => {
    for (
      const bad of [
        "",
        "1.2.3",
        "1.2.3.4.5",
        "256.0.0.1",
        "01.2.3.4",
        "1.2.3.-4",
        "1..3.4",
        " 1.2.3.4",
        "1.2.3.4 ",
        "0x1.2.3.4",
        "1.2.3.4.",
      ]
    ) {
      expect(parseIp(bad)).toEqual(Option.none())
    }
  })
})

describe("IPv6: full syntax — ::, compressed zeros, embedded IPv4 tail; zone ids rejected", () => {
  it.prop("compressed, expanded and IPv4-tailed spellings parse to the same value", [v6GroupsNotMapped], ([g]) => {
    for (const spelling of v6Spellings(g)) {
      expect(parseIp(spelling), spelling).toEqual(Option.some({ version: 6, value: v6Value(g) }))
    }
  })

  it("examples", () => {
    expect(parseIp("::")).toEqual(Option.some({ version: 6, value: 0n }))
    expect(parseIp("::1")).toEqual(Option.some({ version: 6, value: 1n }))
    expect(parseIp("2001:db8::")).toEqual(Option.some({ version: 6, value: 0x20010db8n << 96n }))
    expect(parseIp("1:2:3:4:5:6:7::")).toEqual(parseIp("1:2:3:4:5:6:7:0"))
    expect(parseIp("64:ff9b::192.0.2.33")).toEqual(parseIp("64:ff9b::c000:221"))
  })

  it("rejects zone ids, brackets, extra groups and misplaced IPv4 tails", () => {
    for (
      const bad of [
        "fe80::1%eth0",
        "fe80::1%25eth0",
        "[::1]",
        ":::",
        "1::2::3",
        "1:2:3:4:5:6:7:8:9",
        "1:2:3:4:5:6:7",
        "1::2:3:4:5:6:7:8",
        "12345::",
        "g::",
        ":1::",
        "1:",
        "::1.2.3.4:5",
        "1.2.3.4::",
        "::ffff:1.2.3",
        "::ffff:01.2.3.4",
        "1:2:3:4:5:6:7:1.2.3.4",
      ]
    ) expect(parseIp(bad), bad).toEqual(Option.none())
  })

  it.prop(
    "accepts exactly what node:net isIP accepts (strings over the address alphabet)",
    [
      fc.oneof(
        fc.stringOf(fc.constantFrom(..."0123456789abcdefABCDEF:."), { maxLength: 45 }),
        fc.stringOf(fc.constantFrom(..."01f:."), { maxLength: 20 }),
        v6Groups.chain((g) => fc.constantFrom(...v6Spellings(g))).chain((s) =>
          fc.tuple(fc.nat(s.length), fc.constantFrom("", ":", "::", ".", "0", "00000", "1.2")).map(([at, ins]) =>
            s.slice(0, at) + ins + s.slice(at)
          )
        ),
      ),
    ],
    ([s]) => {
      expect(Option.isSome(parseIp(s)), s).toBe(net.isIP(s) !== 0)
    },
    { fastCheck: { numRuns: 3000 } },
  )

  it.prop("canonical text is what WHATWG URL serializes (RFC 5952 compression)", [v6GroupsNotMapped], ([g]) => {
    const ip = some(parseIp(v6Spellings(g)[1]))
    expect(`[${formatIp(ip)}]`).toBe(new URL(`http://[${v6Spellings(g)[1]}]/`).hostname)
  })
})

describe("IPv4-mapped IPv6 (::ffff:a.b.c.d) is the IPv4 address", () => {
  it.prop("::ffff:a.b.c.d and ::ffff:xxxx:yyyy both parse as IPv4 a.b.c.d", [v4Bytes], ([b]) => {
    const expected = parseIp(v4Text(b))
    expect(parseIp(`::ffff:${v4Text(b)}`)).toEqual(expected)
    expect(parseIp(`::FFFF:${v4Text(b)}`)).toEqual(expected)
    const hi = ((b[0] << 8) | b[1]).toString(16)
    const lo = ((b[2] << 8) | b[3]).toString(16)
    expect(parseIp(`::ffff:${hi}:${lo}`)).toEqual(expected)
    expect(parseIp(`0:0:0:0:0:ffff:${hi}:${lo}`)).toEqual(expected)
  })

  it.prop("a mapped range ::ffff:a.b.c.d/(96+n) is the IPv4 range a.b.c.d/n", [
    v4Bytes,
    fc.integer({ min: 0, max: 32 }),
  ], ([b, n]) => {
    expect(parseIpRange(`::ffff:${v4Text(b)}/${96 + n}`)).toEqual(parseIpRange(`${v4Text(b)}/${n}`))
  })

  it("a Node peer address ::ffff:10.1.2.3 is admitted by 10.0.0.0/8", () => {
    expect(allowlistAdmits([some(parseIpRange("10.0.0.0/8"))], some(parseIp("::ffff:10.1.2.3")))).toBe(true)
  })
})

describe("ranges: an exact IP or CIDR; prefix 0-32 / 0-128; host bits accepted and masked", () => {
  it.prop("an exact IPv4 is a /32, an exact IPv6 a /128", [v4Bytes, v6GroupsNotMapped], ([b, g]) => {
    expect(parseIpRange(v4Text(b))).toEqual(Option.some({ version: 4, base: v4Value(b), prefix: 32 }))
    expect(parseIpRange(v6Spellings(g)[0])).toEqual(Option.some({ version: 6, base: v6Value(g), prefix: 128 }))
  })

  it.prop("host bits are masked: a.b.c.d/n is the range of its network address", [
    v4Bytes,
    fc.integer({ min: 0, max: 32 }),
  ], ([b, n]) => {
    const mask = n === 0 ? 0n : ((1n << BigInt(n)) - 1n) << BigInt(32 - n)
    expect(parseIpRange(`${v4Text(b)}/${n}`)).toEqual(Option.some({ version: 4, base: v4Value(b) & mask, prefix: n }))
  })

  it("examples", () => {
    expect(parseIpRange("10.1.2.3/8")).toEqual(parseIpRange("10.0.0.0/8"))
    expect(parseIpRange("2001:db8::/32")).toEqual(Option.some({ version: 6, base: 0x20010db8n << 96n, prefix: 32 }))
    expect(parseIpRange("0.0.0.0/0")).toEqual(Option.some({ version: 4, base: 0n, prefix: 0 }))
    expect(parseIpRange("::/0")).toEqual(Option.some({ version: 6, base: 0n, prefix: 0 }))
  })

  it("rejects out-of-bounds and malformed prefixes", () => {
    for (
      const bad of [
        "10.0.0.0/33",
        "::/129",
        "10.0.0.0/-1",
        "10.0.0.0/",
        "10.0.0.0/08",
        "10.0.0.0/8/8",
        "10.0.0.0/ 8",
        "/8",
        "10.0.0/8",
        "fe80::%eth0/64",
        "::ffff:1.2.3.4/97x",
      ]
    ) expect(parseIpRange(bad), bad).toEqual(Option.none())
  })
})

describe("ipInRange: the address's first prefix bits equal the range's, same version", () => {
  const v4Case = fc.tuple(v4Bytes, v4Bytes, fc.integer({ min: 0, max: 32 }), fc.boolean()).map(([a, b, n, inside]) => {
    const base = v4Value(b)
    const hostMask = (1n << BigInt(32 - n)) - 1n
    const ip = inside ? (base & ~hostMask) | (v4Value(a) & hostMask) : v4Value(a) // half the cases inside by construction
    return { ip, base, n, baseText: v4Text(b) }
  })

  it.prop(
    "random IPv4 in/out of random CIDRs agrees with a bigint reference and node:net BlockList",
    [v4Case],
    ([c]) => {
      const ip: Ip = { version: 4, value: c.ip }
      const range = some(parseIpRange(`${c.baseText}/${c.n}`))
      const expected = refInRange(c.ip, c.base, c.n, 32)
      expect(ipInRange(ip, range)).toBe(expected)
      const list = new net.BlockList()
      list.addSubnet(c.baseText, c.n, "ipv4")
      expect(list.check(formatIp(ip), "ipv4")).toBe(expected)
    },
  )

  const v6Case = fc.tuple(v6GroupsNotMapped, v6GroupsNotMapped, fc.integer({ min: 0, max: 128 }), fc.boolean())
    .map(([a, b, n, inside]) => {
      const base = v6Value(b)
      const hostMask = (1n << BigInt(128 - n)) - 1n
      const ip = inside ? (base & ~hostMask) | (v6Value(a) & hostMask) : v6Value(a)
      return { ip, base, n, baseText: v6Spellings(b)[0] }
    })
    .filter((c) => c.ip >> 32n !== 0xffffn && !(c.n >= 96 && c.base >> 32n === 0xffffn))

  it.prop("random IPv6 in/out of random CIDRs agrees with a bigint reference", [v6Case], ([c]) => {
    const range = some(parseIpRange(`${c.baseText}/${c.n}`))
    expect(ipInRange({ version: 6, value: c.ip }, range)).toBe(refInRange(c.ip, c.base, c.n, 128))
  })

  it.prop("an IPv4 address is never in an IPv6 range and vice versa", [v4Bytes, v6GroupsNotMapped], ([b, g]) => {
    expect(ipInRange(some(parseIp(v4Text(b))), some(parseIpRange(`${v6Spellings(g)[0]}/0`)))).toBe(false)
    expect(ipInRange(some(parseIp(v6Spellings(g)[0])), some(parseIpRange("0.0.0.0/0")))).toBe(false)
  })
})

describe("allowlistAdmits: an empty list admits everything; an unknown address only by the empty list", () => {
  const ranges = fc.array(
    fc.tuple(v4Bytes, fc.integer({ min: 0, max: 32 })).map(([b, n]) => some(parseIpRange(`${v4Text(b)}/${n}`))),
    {
      maxLength: 4,
    },
  )

  it.prop("empty list admits any address and undefined", [fc.option(v4Bytes, { nil: undefined })], ([b]) => {
    expect(allowlistAdmits([], b === undefined ? undefined : some(parseIp(v4Text(b))))).toBe(true)
  })

  it.prop("a non-empty list never admits undefined", [ranges.filter((r) => r.length > 0)], ([list]) => {
    expect(allowlistAdmits(list, undefined)).toBe(false)
  })

  it.prop("a non-empty list admits exactly the addresses inside one of its ranges", [
    ranges.filter((r) => r.length > 0),
    v4Bytes,
  ], ([list, b]) => {
    const ip = some(parseIp(v4Text(b)))
    expect(allowlistAdmits(list, ip)).toBe(list.some((r: IpRange) => refInRange(ip.value, r.base, r.prefix, 32)))
  })
})

describe("IpRangeFromString and IpFromString decode text and encode canonical text", () => {
  it.prop("decode . encode is the identity on ranges", [fc.oneof(
    fc.tuple(v4Bytes, fc.integer({ min: 0, max: 32 })).map(([b, n]) => `${v4Text(b)}/${n}`),
    fc.tuple(v6Groups, fc.integer({ min: 0, max: 128 })).map(([g, n]) => `${v6Spellings(g)[0]}/${n}`),
  )], ([text]) => {
    const range = Schema.decodeUnknownSync(IpRangeFromString)(text)
    expect(Schema.decodeUnknownSync(IpRangeFromString)(Schema.encodeSync(IpRangeFromString)(range))).toEqual(range)
  })

  it("examples", () => {
    expect(Schema.encodeSync(IpRangeFromString)(Schema.decodeUnknownSync(IpRangeFromString)("10.1.2.3/8"))).toBe(
      "10.0.0.0/8",
    )
    expect(Schema.encodeSync(IpRangeFromString)(Schema.decodeUnknownSync(IpRangeFromString)("2001:0DB8:0:0::1"))).toBe(
      "2001:db8::1/128",
    )
    expect(Schema.encodeSync(IpFromString)(Schema.decodeUnknownSync(IpFromString)("::ffff:7f00:1"))).toBe("127.0.0.1")
    expect(Either.isLeft(Schema.decodeUnknownEither(IpRangeFromString)("10.0.0.0/33"))).toBe(true)
    expect(Either.isLeft(Schema.decodeUnknownEither(IpFromString)("fe80::1%eth0"))).toBe(true)
  })
})
