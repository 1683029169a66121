import { describe, expect, it } from "@effect/vitest"
import { Option } from "effect"
import * as fc from "effect/FastCheck"
import {
  base64url,
  credentialKind,
  type CredentialType,
  generateCredential,
  isPartnerMode,
  isSandboxMode,
  KeyMode,
  keyPrefix,
} from "../../../core/shared/key-mode.ts"

const modes = KeyMode.literals
const types: ReadonlyArray<CredentialType> = [...modes, "account_token"]
const kindOf = (t: CredentialType) => (t === "account_token" ? { kind: "account_token" } : { kind: "key", mode: t })
const body = fc.stringOf(fc.constantFrom(..."ABCxyz019-_"), { minLength: 1, maxLength: 40 })

describe("prefixes: svc_live_ live, svc_test_ test, svc_partner_ partner, svc_partner_test_ partner_test, svc_acct_ account token", () => {
  it("the prefix table", () => {
    expect(types.map((t) => [t, keyPrefix(t)])).toEqual([
      ["live", "svc_live_"],
      ["test", "svc_test_"],
      ["partner", "svc_partner_"],
      ["partner_test", "svc_partner_test_"],
      ["account_token", "svc_acct_"],
    ])
  })

  it.prop("prefix + body is recognised as its kind", [fc.constantFrom(...types), body], ([t, b]) => {
    fc.pre(!(t === "partner" && b.startsWith("test_")))
    expect(credentialKind(keyPrefix(t) + b)).toEqual(Option.some(kindOf(t)))
  })

  it("svc_partner_test_ wins over svc_partner_", () => {
    expect(credentialKind("svc_partner_test_abc")).toEqual(Option.some({ kind: "key", mode: "partner_test" }))
    expect(credentialKind("svc_partner_testabc")).toEqual(Option.some({ kind: "key", mode: "partner" }))
    expect(credentialKind("svc_partner_abc")).toEqual(Option.some({ kind: "key", mode: "partner" }))
  })

  it("a bare prefix, an unknown prefix or a different case is not a credential", () => {
    for (
      const bad of [
        "",
        "svc_live_",
        "svc_acct_",
        "svc_partner_test_",
        "svc_",
        "svc_prod_abc",
        "SVC_LIVE_abc",
        "sk_live_abc",
        " svc_live_abc",
        "svclive_abc",
      ]
    ) {
      expect(credentialKind(bad), bad).toEqual(Option.none())
    }
  })

  it.prop("anything not starting with svc_ is not a credential", [fc.string()], ([s]) => {
    fc.pre(!s.startsWith("svc_"))
    expect(credentialKind(s)).toEqual(Option.none())
  })
})

describe("sandbox modes are test and partner_test; partner modes are partner and partner_test", () => {
  it("the mode table", () => {
    expect(modes.map((m) => [m, isSandboxMode(m), isPartnerMode(m)])).toEqual([
      ["live", false, false],
      ["test", true, false],
      ["partner", false, true],
      ["partner_test", true, true],
    ])
  })
})

describe("generateCredential renders prefix + base64url (no padding) of the random bytes; 24 bytes give 32 characters", () => {
  it.prop("base64url agrees with Node's Buffer base64url", [fc.uint8Array({ maxLength: 64 })], ([bytes]) => {
    expect(base64url(bytes)).toBe(Buffer.from(bytes).toString("base64url"))
  })

  it.prop(
    "a generated credential is its prefix plus 32 base64url characters and is recognised as its kind",
    [fc.constantFrom(...types), fc.uint8Array({ minLength: 24, maxLength: 24 })],
    ([t, bytes]) => {
      const credential = generateCredential(t, bytes)
      expect(credential.startsWith(keyPrefix(t))).toBe(true)
      const rest = credential.slice(keyPrefix(t).length)
      expect(rest).toMatch(/^[A-Za-z0-9_-]{32}$/)
      fc.pre(!(t === "partner" && rest.startsWith("test_")))
      expect(credentialKind(credential)).toEqual(Option.some(kindOf(t)))
    },
  )
})
