/**
 * IP addresses and CIDR ranges, for key allowlists: parsed and written by ipaddr.js, held as integers.
 *
 * - IPv4: strict dotted decimal, four parts 0-255, no leading zeros (`01.2.3.4` is rejected: octal ambiguity).
 * - IPv6: full RFC 4291 text form: eight hex groups, one `::` for one or more zero groups,
 *   an embedded IPv4 tail (`::ffff:1.2.3.4`, `64:ff9b::1.2.3.4`); zone ids (`fe80::1%eth0`) and brackets are rejected.
 * - IPv4-mapped IPv6 (`::ffff:0:0/96`) is the IPv4 address: Node reports IPv4 peers as `::ffff:a.b.c.d`.
 * - Ranges: an exact address or `address/prefix` with prefix 0-32 (IPv4) or 0-128 (IPv6);
 *   host bits are accepted and masked away (`10.1.2.3/8` is `10.0.0.0/8`).
 */
import { Option, ParseResult, Schema } from "effect"
import ipaddr from "ipaddr.js"

export type IpVersion = 4 | 6

/** An address as an unsigned integer of 32 (v4) or 128 (v6) bits. */
export interface Ip {
  readonly version: IpVersion
  readonly value: bigint
}

/** The addresses whose first `prefix` bits equal those of `base` (`base` has its host bits zero). */
export interface IpRange {
  readonly version: IpVersion
  readonly base: bigint
  readonly prefix: number
}

const bitsOf = (version: IpVersion): number => (version === 4 ? 32 : 128)
const MAPPED_V4 = 0xffffn << 32n // ::ffff:0:0/96

const valueOf = (bytes: ReadonlyArray<number>): bigint => bytes.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n)

const bytesOf = (value: bigint, count: number): Array<number> =>
  Array.from({ length: count }, (_, i) => Number((value >> BigInt(8 * (count - 1 - i))) & 0xffn))

/** Strict dotted decimal (ipaddr.js's four-part decimal check: no octal, hex or short forms). */
const parseV4Value = (s: string): bigint | undefined =>
  ipaddr.IPv4.isValidFourPartDecimal(s) ? valueOf(ipaddr.IPv4.parse(s).toByteArray()) : undefined

/**
 * RFC 4291 text forms by ipaddr.js; zone ids and brackets refused. An IPv4 tail is checked as strict dotted
 * decimal and written as its two groups first: ipaddr.js reads any tail as IPv4-mapped (`::1.2.3.4` as
 * `::ffff:1.2.3.4`) and accepts leading zeros in it.
 */
const parseV6Value = (s: string): bigint | undefined => {
  if (s.includes("%")) return undefined
  let text = s
  if (s.includes(".")) {
    const colon = s.lastIndexOf(":")
    const tail = parseV4Value(s.slice(colon + 1))
    if (colon === -1 || tail === undefined) return undefined
    text = `${s.slice(0, colon + 1)}${(tail >> 16n).toString(16)}:${(tail & 0xffffn).toString(16)}`
  }
  return ipaddr.IPv6.isValid(text) ? valueOf(ipaddr.IPv6.parse(text).toByteArray()) : undefined
}

/** Parses an IPv4 or IPv6 address; IPv4-mapped IPv6 addresses come out as IPv4. */
export const parseIp = (s: string): Option.Option<Ip> => {
  const v4 = parseV4Value(s)
  if (v4 !== undefined) return Option.some({ version: 4, value: v4 })
  const v6 = parseV6Value(s)
  if (v6 === undefined) return Option.none()
  return Option.some(v6 >> 32n === 0xffffn ? { version: 4, value: v6 & 0xffffffffn } : { version: 6, value: v6 })
}

const maskOf = (version: IpVersion, prefix: number): bigint => {
  const bits = bitsOf(version)
  return ((1n << BigInt(prefix)) - 1n) << BigInt(bits - prefix)
}

const makeRange = (version: IpVersion, value: bigint, prefix: number): IpRange => ({
  version,
  base: value & maskOf(version, prefix),
  prefix,
})

/** Parses an exact address (a /32 or /128 range) or a CIDR range; host bits are masked away. */
export const parseIpRange = (s: string): Option.Option<IpRange> => {
  const slash = s.indexOf("/")
  if (slash === -1) return Option.map(parseIp(s), (ip) => makeRange(ip.version, ip.value, bitsOf(ip.version)))
  const prefixText = s.slice(slash + 1)
  if (!/^(?:0|[1-9]\d{0,2})$/.test(prefixText)) return Option.none()
  const prefix = Number(prefixText)
  const text = s.slice(0, slash)
  const v4 = parseV4Value(text)
  if (v4 !== undefined) return prefix <= 32 ? Option.some(makeRange(4, v4, prefix)) : Option.none()
  const v6 = parseV6Value(text)
  if (v6 === undefined || prefix > 128) return Option.none()
  // A range inside ::ffff:0:0/96 is the IPv4 range it maps, so it matches IPv4 peers.
  if (prefix >= 96 && (v6 & ~0xffffffffn) === MAPPED_V4) return Option.some(makeRange(4, v6 & 0xffffffffn, prefix - 96))
  return Option.some(makeRange(6, v6, prefix))
}

export const ipInRange = (ip: Ip, range: IpRange): boolean =>
  ip.version === range.version && (ip.value & maskOf(range.version, range.prefix)) === range.base

/** An empty allowlist admits every caller, even one of unknown address; otherwise the address must be in a range. */
export const allowlistAdmits = (list: ReadonlyArray<IpRange>, ip: Ip | undefined): boolean =>
  list.length === 0 || (ip !== undefined && list.some((range) => ipInRange(ip, range)))

const formatV4 = (value: bigint): string => ipaddr.fromByteArray(bytesOf(value, 4)).toString()

/** RFC 5952: lowercase, no leading zeros, the longest run of two or more zero groups as `::`. */
const formatV6 = (value: bigint): string => (ipaddr.fromByteArray(bytesOf(value, 16)) as ipaddr.IPv6).toRFC5952String()

export const formatIp = (ip: Ip): string => (ip.version === 4 ? formatV4(ip.value) : formatV6(ip.value))

/** Canonical text of a range: `address/prefix`, always with the prefix. */
export const formatIpRange = (range: IpRange): string =>
  `${formatIp({ version: range.version, value: range.base })}/${range.prefix}`

const Version = Schema.Literal(4, 6)
export const IpSchema = Schema.Struct({ version: Version, value: Schema.BigIntFromSelf })
export const IpRangeSchema = Schema.Struct({ version: Version, base: Schema.BigIntFromSelf, prefix: Schema.Int })

const fromString = <A>(
  schema: Schema.Schema<A>,
  parse: (s: string) => Option.Option<A>,
  format: (a: A) => string,
  what: string,
) =>
  Schema.transformOrFail(Schema.String, schema, {
    strict: true,
    decode: (s, _, ast) =>
      Option.match(parse(s), {
        onNone: () => ParseResult.fail(new ParseResult.Type(ast, s, `not a valid ${what}`)),
        onSome: ParseResult.succeed,
      }),
    encode: (a) => ParseResult.succeed(format(a)),
  })

/** Decodes an IP address string to `Ip`; encodes to canonical text. */
export const IpFromString = fromString(IpSchema, parseIp, formatIp, "IP address")
/** Decodes an exact IP or a CIDR range to `IpRange`; encodes to canonical `address/prefix`. */
export const IpRangeFromString = fromString(IpRangeSchema, parseIpRange, formatIpRange, "IP address or CIDR range")
