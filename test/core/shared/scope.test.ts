import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import * as fc from "effect/FastCheck"
import {
  Access,
  AllScopes,
  ConnectedAppScopes,
  grantedScopes,
  grants,
  includes,
  type Scope,
} from "../../../core/shared/scope.ts"

const scope = fc.constantFrom(...AllScopes)
const scopeList = fc.array(scope, { minLength: 1, maxLength: 9 }) as fc.Arbitrary<[Scope, ...Array<Scope>]>

describe("the scope set is exactly the nine literals", () => {
  it("lists them", () => {
    expect([...AllScopes].sort()).toEqual([
      "chat:attendant",
      "chat:menus",
      "email:read",
      "email:send",
      "notifications:read",
      "notifications:send",
      "notifications:templates",
      "verify:check",
      "verify:send",
    ])
  })
})

describe("inclusions: verify:send ⊇ verify:check; notifications:send ⊇ notifications:read; email:send ⊇ email:read; notifications:templates ⊇ notifications:read", () => {
  it("the inclusion table", () => {
    const pairs = AllScopes.flatMap((held) =>
      AllScopes.filter((s) => s !== held && grants([held], s)).map((s) => `${held} > ${s}`)
    )
    expect(pairs.sort()).toEqual([
      "email:send > email:read",
      "notifications:send > notifications:read",
      "notifications:templates > notifications:read",
      "verify:send > verify:check",
    ])
  })

  it.prop("a scope grants itself", [scope], ([s]) => {
    expect(grants([s], s)).toBe(true)
  })

  it.prop("a list grants exactly the union of what its members grant", [scopeList, scope], ([list, needed]) => {
    expect(grants(list, needed)).toBe(list.some((held) => held === needed || includes[held].includes(needed)))
  })

  it.prop("inclusion is not symmetric: a read scope never grants its send scope", [scope], ([s]) => {
    for (const included of includes[s]) expect(grants([included], s)).toBe(false)
  })
})

describe("full access covers every scope except notifications:templates, chat:menus and chat:attendant", () => {
  it("ConnectedAppScopes are the three", () => {
    expect([...ConnectedAppScopes].sort()).toEqual(["chat:attendant", "chat:menus", "notifications:templates"])
  })

  it.prop("full grants a scope iff it is not a connected-app scope", [scope], ([s]) => {
    expect(grants("full", s)).toBe(!ConnectedAppScopes.includes(s))
  })

  it("full grants notifications:read even though it excludes notifications:templates", () => {
    expect(grants("full", "notifications:read")).toBe(true)
    expect(grants("full", "notifications:templates")).toBe(false)
  })
})

describe("legacy check access equals [verify:check]", () => {
  it.prop("check grants what [verify:check] grants", [scope], ([s]) => {
    expect(grants("check", s)).toBe(grants(["verify:check"], s))
  })

  it("check grants only verify:check", () => {
    expect(grantedScopes("check")).toEqual(["verify:check"])
  })
})

describe('Access decodes "full", "check" or a non-empty array of scopes', () => {
  const decode = Schema.decodeUnknownEither(Access)

  it.prop("any non-empty scope list decodes", [scopeList], ([list]) => {
    expect(decode(list)).toEqual(Either.right(list))
  })

  it("examples", () => {
    expect(decode("full")).toEqual(Either.right("full"))
    expect(decode("check")).toEqual(Either.right("check"))
    for (const bad of [[], "none", ["verify:read"], ["verify:check", "admin"], "verify:check", null]) {
      expect(Either.isLeft(decode(bad))).toBe(true)
    }
  })
})
