/**
 * A sender domain as DECISIONS 8.2 reads it: lower-cased, the final dot dropped, internationalised names in their
 * ASCII (IDNA) form; then `domain_invalid` (the label rules), `domain_public` (a public mailbox domain or below
 * one), `domain_tawked` (a platform domain or below one).
 */
import { domainToASCII } from "node:url"
import { Email as Limits } from "../limits.ts"

/** Public mailbox domains (DECISIONS 8.2): nobody's sender domain. */
export const publicMailDomains: ReadonlyArray<string> = [
  "gmail.com",
  "googlemail.com",
  "yahoo.com",
  "hotmail.com",
  "outlook.com",
  "live.com",
  "icloud.com",
  "me.com",
  "aol.com",
  "proton.me",
  "protonmail.com",
  "gmx.com",
  "yandex.com",
  "mail.com",
]

export type DomainRefusal = "invalid" | "public" | "tawked"

const label = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/
const alphabetic = /^[a-z]+$/

/** The domain `name` is, or is below. */
const within = (name: string, domain: string) => name === domain || name.endsWith(`.${domain}`)

/**
 * The domain in its stored form, or why it is refused. `input` is at most 253 characters (longer is `400
 * invalid_request`, judged before).
 */
export const readDomain = (
  input: string,
  platformDomains: ReadonlyArray<string>,
): { readonly domain: string } | { readonly refused: DomainRefusal } => {
  let name = input.toLowerCase()
  if (name.endsWith(".")) name = name.slice(0, -1)
  // IDNA: a Unicode name in its ASCII form; an `xn--` label must be valid Punycode (the conversion refuses it).
  // `domainToASCII` answers "" for a name it cannot convert, on Node, Deno and Bun alike.
  if (!/^[\x21-\x7e]*$/.test(name) || name.includes("xn--")) {
    const ascii = domainToASCII(name)
    if (ascii === "" || (!/^[\x21-\x7e]*$/.test(name) && ascii === name)) return { refused: "invalid" }
    name = ascii
  }
  const labels = name.split(".")
  if (name.length > Limits.domainMax || labels.length < 2 || !labels.every((l) => label.test(l))) {
    return { refused: "invalid" }
  }
  const last = labels[labels.length - 1]
  if (!alphabetic.test(last) && !last.startsWith("xn--")) return { refused: "invalid" }
  if (publicMailDomains.some((d) => within(name, d))) return { refused: "public" }
  if (platformDomains.some((d) => within(name, d))) return { refused: "tawked" }
  return { domain: name }
}
