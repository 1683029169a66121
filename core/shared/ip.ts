/**
 * IP addresses and CIDR ranges, for key allowlists.
 *
 * - IPv4: strict dotted decimal, four parts 0-255, no leading zeros (`01.2.3.4` is rejected: octal ambiguity).
 * - IPv6: full RFC 4291 text form: eight hex groups, one `::` for one or more zero groups,
 *   an embedded IPv4 tail (`::ffff:1.2.3.4`, `64:ff9b::1.2.3.4`); zone ids (`fe80::1%eth0`) and brackets are rejected.
 * - IPv4-mapped IPv6 (`::ffff:0:0/96`) is the IPv4 address: Node reports IPv4 peers as `::ffff:a.b.c.d`.
 * - Ranges: an exact address or `address/prefix` with prefix 0-32 (IPv4) or 0-128 (IPv6);
 *   host bits are accepted and masked away (`10.1.2.3/8` is `10.0.0.0/8`).
 */
import { Option, ParseResult, Schema } from "effect"

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

const parseV4Value = (s: string): bigint | undefined => {
  const parts = s.split(".")
  if (parts.length !== 4) return undefined
  let value = 0n
  for (const part of parts) {
    if (!/^(?:0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return undefined
    value = (value << 8n) | BigInt(part)
  }
  return value
}

/** Parses `groups` of a side of `::`; an IPv4 tail is allowed only as the very last group when `last`. */
const parseGroups = (side: string, last: boolean): Array<number> | undefined => {
  if (side === "") return []
  const texts = side.split(":")
  const groups: Array<number> = []
  for (const [i, text] of texts.entries()) {
    if (last && i === texts.length - 1 && text.includes(".")) {
      const v4 = parseV4Value(text)
      if (v4 === undefined) return undefined
      groups.push(Number(v4 >> 16n), Number(v4 & 0xffffn))
    } else if (/^[0-9a-fA-F]{1,4}$/.test(text)) {
      groups.push(parseInt(text, 16))
    } else {
      return undefined
    }
  }
  return groups
}

const parseV6Value = (s: string): bigint | undefined => {
  const halves = s.split("::")
  if (halves.length > 2) return undefined
  let groups: Array<number>
  if (halves.length === 1) {
    const all = parseGroups(s, true)
    if (all === undefined || all.length !== 8) return undefined
    groups = all
  } else {
    const head = parseGroups(halves[0], false)
    const tail = parseGroups(halves[1], true)
    if (head === undefined || tail === undefined || head.length + tail.length > 7) return undefined
    groups = [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail]
  }
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n)
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

const formatV4 = (value: bigint): string =>
  [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join(".")

/** RFC 5952: lowercase, no leading zeros, the longest run (first if tied) of two or more zero groups as `::`. */
const formatV6 = (value: bigint): string => {
  const groups = [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((shift) => Number((value >> shift) & 0xffffn))
  let best = { start: -1, length: 1 }
  for (let i = 0; i < 8;) {
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > best.length) best = { start: i, length: j - i }
    i = j === i ? i + 1 : j
  }
  const hex = (gs: Array<number>) => gs.map((g) => g.toString(16)).join(":")
  if (best.start === -1) return hex(groups)
  return `${hex(groups.slice(0, best.start))}::${hex(groups.slice(best.start + best.length))}`
}

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
