import { describe, expect, it } from "@effect/vitest"
import * as fc from "effect/FastCheck"
import { type ApiRequest, nestsWithin, presentedCredential } from "../../../core/pipeline/request.ts"

const requestWith = (headers: Record<string, string>): ApiRequest => ({
  method: "GET",
  path: "/v1/verify/x",
  query: new URLSearchParams(),
  header: (name) => headers[name],
  body: "",
  json: () => ({}),
  ip: undefined,
  requestId: "r",
})

/** The rule as written: `Bearer`, any case, whitespace, one token without whitespace, optional trailing whitespace. */
const reference = (auth: string): string | undefined => /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1]

const spaces = fc.stringOf(fc.constantFrom(" ", "\t", "\u00a0", "\u3000"), { minLength: 0, maxLength: 3 })
const token = fc.stringOf(
  fc.oneof(fc.constantFrom(..."svc_live_AZaz09-"), fc.constantFrom(" ", "é", "\u00a0", "\x7f", "~")),
  { minLength: 0, maxLength: 40 },
)
const scheme = fc.constantFrom("Bearer", "bearer", "BEARER", "Basic", "Bearerx", "")

describe("A key is presented as `Authorization: Bearer <key>` or `x-api-key: <key>`", () => {
  it("the Authorization header is read exactly as the rule says, whatever the spacing, case or token", () =>
    fc.assert(fc.property(scheme, spaces, token, spaces, (s, before, t, after) => {
      const auth = `${s}${before}${t}${after}`
      const expected = reference(auth)
      expect(presentedCredential(requestWith({ authorization: auth }))).toBe(expected)
    })))

  it("the usual form: `Bearer svc_live_…` gives the key", () => {
    const key = "svc_live_7aEDrNEwI0pAh3VyWnibCaGPgAM2eOdp"
    expect(presentedCredential(requestWith({ authorization: `Bearer ${key}` }))).toBe(key)
    expect(presentedCredential(requestWith({ authorization: `bearer  ${key} ` }))).toBe(key)
  })

  it("x-api-key is used when there is no usable Authorization header, trimmed", () => {
    expect(presentedCredential(requestWith({ "x-api-key": " svc_live_k " }))).toBe("svc_live_k")
    expect(presentedCredential(requestWith({ authorization: "Basic abc", "x-api-key": "svc_live_k" }))).toBe(
      "svc_live_k",
    )
    expect(presentedCredential(requestWith({ "x-api-key": "  " }))).toBeUndefined()
    expect(presentedCredential(requestWith({}))).toBeUndefined()
  })
})

/** The depth of a parsed JSON value: `{}` and `[]` are one level, a scalar none. */
const depthOf = (value: unknown): number =>
  typeof value === "object" && value !== null
    ? 1 + Math.max(0, ...Object.values(value as Record<string, unknown>).map(depthOf))
    : 0

describe("JSON nested deeper than 64 levels: `400 invalid_json`, answered before any work on it (DECISIONS 18)", () => {
  it.prop(
    "the scan's verdict on any JSON text is the parsed value's depth against the bound, strings and escapes included",
    [fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 9 })],
    ([value, max]) => {
      const text = JSON.stringify(value)
      expect(nestsWithin(text, max)).toBe(depthOf(value) <= max)
    },
  )

  it.prop(
    "brackets n deep with strings holding brackets, quotes and backslashes inside: within 64 exactly when n <= 64",
    [fc.integer({ min: 60, max: 70 }), fc.string({ maxLength: 5 })],
    ([n, inner]) => {
      const text = `${"[".repeat(n)}${JSON.stringify(`[{"\\${inner}`)}${"]".repeat(n)}`
      expect(nestsWithin(text, 64)).toBe(n <= 64)
    },
  )
})
