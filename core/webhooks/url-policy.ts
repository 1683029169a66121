/**
 * Which endpoint URLs the console accepts, and where a delivery may connect (DECISIONS 18).
 *
 * - A URL is a valid http(s) URL without credentials; unless private targets are allowed (the simulators'
 *   default), `https` only.
 * - Unless private targets are allowed, its host must be, or resolve only to, public unicast addresses:
 *   not loopback, private, link-local, CGNAT, benchmarking, documentation, reserved, multicast, broadcast
 *   or unspecified, nor an IPv6 form that embeds such an IPv4 address (IPv4-mapped, NAT64, 6to4, Teredo).
 *   `localhost` and `*.localhost` are refused without asking the resolver.
 * - The console refuses a URL whose host resolves to such an address; a name that does not resolve yet
 *   is accepted (the delivery checks it). Each delivery resolves the name again, checks every address,
 *   and connects only to the addresses it checked, so a DNS answer that changed since cannot reach a
 *   private address.
 */
import { Context, Data, Effect } from "effect"
import ipaddr from "ipaddr.js"
import { DnsResolver } from "../../ports/dns.ts"

/** Whether endpoint URLs may name loopback and private addresses (settings: `WEBHOOK_ALLOW_PRIVATE`). */
export class WebhookPolicy extends Context.Tag("core/WebhookPolicy")<WebhookPolicy, {
  readonly allowPrivate: boolean
}>() {}

/** An IPv4 address is public when ipaddr.js puts it in no special range. */
const isPublicV4 = (ip: ipaddr.IPv4): boolean => ip.range() === "unicast"

const v4Of = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff])

/**
 * An IPv6 address is public when it is global unicast (`2000::/3`) in no special range of ipaddr.js; the
 * forms that carry an IPv4 address are judged by that address: IPv4-mapped `::ffff:0:0/96`, NAT64
 * `64:ff9b::/96`, 6to4 `2002::/16`, and Teredo `2001::/32` (its server and its obfuscated client).
 * `::/96` (unspecified, loopback, the deprecated IPv4-compatible form) and NAT64's local-use
 * `64:ff9b:1::/48` are never public.
 */
const isPublicV6 = (ip: ipaddr.IPv6): boolean => {
  const p = ip.parts
  if (ip.isIPv4MappedAddress()) return isPublicV4(ip.toIPv4Address())
  if (p.slice(0, 6).every((g) => g === 0)) return false
  if (p[0] === 0x64 && p[1] === 0xff9b) return p.slice(2, 6).every((g) => g === 0) && isPublicV4(v4Of(p[6], p[7]))
  if (p[0] === 0x2002) return isPublicV4(v4Of(p[1], p[2]))
  if (p[0] === 0x2001 && p[1] === 0) {
    return isPublicV4(v4Of(p[2], p[3])) && isPublicV4(v4Of(p[6] ^ 0xffff, p[7] ^ 0xffff))
  }
  return (p[0] & 0xe000) === 0x2000 && ip.range() === "unicast"
}

/** Strips the brackets of an IPv6 URL host. */
const bare = (host: string): string => host.replace(/^\[(.*)\]$/, "$1")

/** An address literal (strict dotted decimal IPv4, or IPv6 without brackets), or undefined for anything else. */
const parseAddress = (text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined => {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text)
  if (!text.includes(":") || !ipaddr.IPv6.isValid(text)) return undefined
  return ipaddr.IPv6.parse(text)
}

/** Whether an address (text; IPv6 with or without brackets) is public unicast. Anything else is not. */
export const isPublicAddress = (address: string): boolean => {
  const ip = parseAddress(bare(address))
  if (ip === undefined) return false
  return ip.kind() === "ipv4" ? isPublicV4(ip as ipaddr.IPv4) : isPublicV6(ip as ipaddr.IPv6)
}

const isLocalhostName = (name: string): boolean => name === "localhost" || name.endsWith(".localhost")

/**
 * Whether a host (name or address literal, IPv6 with or without brackets) is refused without resolving it:
 * `localhost`, `*.localhost`, or an address that is not public unicast.
 */
export const isPrivateHost = (host: string): boolean => {
  const name = bare(host.toLowerCase()).replace(/\.$/, "")
  if (isLocalhostName(name)) return true
  return parseAddress(name) !== undefined && !isPublicAddress(name)
}

const notPublic = "must not point at a loopback, private or otherwise non-public address"

/** Why `raw` is refused as an endpoint URL from its text alone, or undefined when it is accepted. */
export const urlProblem = (raw: string, allowPrivate: boolean): string | undefined => {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return "must be a valid http or https URL"
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must be a valid http or https URL"
  if (url.username !== "" || url.password !== "") return "must not carry credentials"
  if (allowPrivate) return undefined
  if (url.protocol !== "https:") return "must use https"
  if (isPrivateHost(url.hostname)) return notPublic
  return undefined
}

/** A delivery may not connect to the endpoint's host: it is not public (`not_public`) or did not resolve. */
export class TargetRefused extends Data.TaggedError("TargetRefused")<{
  readonly reason: "not_public" | "unresolved"
  /** The address refused (`not_public`). */
  readonly address?: string
  readonly message: string
}> {}

/**
 * The addresses a connection to `url`'s host may go to: the address it names, or every address its name
 * resolves to now, each checked to be public unicast; refused when one is not, or when the name does not
 * resolve. Private targets allowed or not is the caller's to decide.
 */
export const checkedAddresses = (
  url: string,
): Effect.Effect<ReadonlyArray<string>, TargetRefused, DnsResolver> =>
  Effect.gen(function* () {
    let host: string
    try {
      host = bare(new URL(url).hostname)
    } catch {
      return yield* new TargetRefused({ reason: "not_public", message: "the endpoint URL is not valid" })
    }
    if (isPrivateHost(host)) {
      return yield* new TargetRefused({
        reason: "not_public",
        address: host,
        message: "the endpoint's host is not a public address",
      })
    }
    const addresses = parseAddress(host) !== undefined ? [host] : yield* Effect.flatMap(
      DnsResolver,
      (dns) =>
        Effect.mapError(
          dns.resolve(host),
          (e) =>
            new TargetRefused({ reason: "unresolved", message: `the endpoint's host did not resolve: ${e.message}` }),
        ),
    )
    if (addresses.length === 0) {
      return yield* new TargetRefused({ reason: "unresolved", message: "the endpoint's host did not resolve" })
    }
    const refused = addresses.find((a) => !isPublicAddress(a))
    if (refused !== undefined) {
      return yield* new TargetRefused({
        reason: "not_public",
        address: refused,
        message: `the endpoint's host resolves to ${refused}, which is not a public address`,
      })
    }
    return addresses
  })
