/**
 * Which endpoint URLs the console accepts: a valid http(s) URL without credentials; unless private
 * targets are allowed (the simulators' default), `https` only and no loopback, private or link-local
 * address, nor `localhost`. Host names are not resolved here.
 */
import { Option } from "effect"
import { ipInRange, parseIp, parseIpRange } from "../shared/ip.ts"

const privateRanges = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.168.0.0/16",
  "::/128",
  "::1/128",
  "fc00::/7",
  "fe80::/10",
].map((r) => Option.getOrThrow(parseIpRange(r)))

/** Whether a host (name or address literal, IPv6 with or without brackets) is loopback, private or link-local. */
export const isPrivateHost = (host: string): boolean => {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "")
  if (name === "localhost" || name.endsWith(".localhost")) return true
  const ip = parseIp(name)
  return Option.isSome(ip) && privateRanges.some((range) => ipInRange(ip.value, range))
}

/** Why `raw` is refused as an endpoint URL, or undefined when it is accepted. */
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
  if (isPrivateHost(url.hostname)) return "must not point at a loopback, private or link-local address"
  return undefined
}
