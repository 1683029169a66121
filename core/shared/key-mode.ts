/**
 * Credentials and their prefixes.
 *
 * | prefix              | credential              |
 * |---------------------|-------------------------|
 * | `svc_live_`         | key, mode `live`        |
 * | `svc_test_`         | key, mode `test`        |
 * | `svc_partner_`      | key, mode `partner`     |
 * | `svc_partner_test_` | key, mode `partner_test`|
 * | `svc_acct_`         | account token           |
 *
 * The longest matching prefix wins, so `svc_partner_test_…` is a partner_test key.
 * A credential is the prefix and a non-empty body; generated bodies are base64url without padding.
 */
import { Option, Schema } from "effect"

export const KeyMode = Schema.Literal("live", "test", "partner", "partner_test")
export type KeyMode = typeof KeyMode.Type

export type CredentialType = KeyMode | "account_token"
export type CredentialKind = { readonly kind: "key"; readonly mode: KeyMode } | { readonly kind: "account_token" }

const prefixes: { readonly [T in CredentialType]: string } = {
  live: "svc_live_",
  test: "svc_test_",
  partner: "svc_partner_",
  partner_test: "svc_partner_test_",
  account_token: "svc_acct_",
}

/** Longest prefix first, so that `svc_partner_test_` is tried before `svc_partner_`. */
const byLongestPrefix = (Object.keys(prefixes) as Array<CredentialType>).sort(
  (a, b) => prefixes[b].length - prefixes[a].length,
)

export const keyPrefix = (type: CredentialType): string => prefixes[type]

export const credentialKind = (presented: string): Option.Option<CredentialKind> => {
  const type = byLongestPrefix.find((t) => presented.startsWith(prefixes[t]))
  if (type === undefined || presented.length === prefixes[type].length) return Option.none()
  return Option.some(type === "account_token" ? { kind: "account_token" } : { kind: "key", mode: type })
}

export const isSandboxMode = (mode: KeyMode): boolean => mode === "test" || mode === "partner_test"
export const isPartnerMode = (mode: KeyMode): boolean => mode === "partner" || mode === "partner_test"

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

/** RFC 4648 §5 base64url, without padding. */
export const base64url = (bytes: Uint8Array): string => {
  let out = ""
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0)
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6))
    for (let c = 0; c < chars; c++) out += alphabet[(n >> (18 - 6 * c)) & 63]
  }
  return out
}

/** Renders a credential from caller-supplied random bytes: 24 bytes give a 32-character body. */
export const generateCredential = (type: CredentialType, randomBytes: Uint8Array): string =>
  prefixes[type] + base64url(randomBytes)
