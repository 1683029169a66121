import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import * as fc from "effect/FastCheck"
import { scopeTableOf } from "../../../adapters/products.ts"
import { Access, type Scope, scopeTable } from "../../../core/shared/scope.ts"

/** The table of the real products list: each product declares its own scopes (core/<product>/scopes.ts). */
const table = scopeTableOf()
const { all: AllScopes, connectedApp: ConnectedAppScopes, grantedScopes, grants, includes } = table

const scope = fc.constantFrom(...AllScopes)
const scopeList = fc.array(scope, { minLength: 1, maxLength: 9 }) as fc.Arbitrary<[Scope, ...Array<Scope>]>

describe("the scope set, folded over the products list, is exactly the nine of the spec", () => {
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

describe('Access decodes "full", "check" or a non-empty array of scopes (the table says which exist)', () => {
  const decode = Schema.decodeUnknownEither(Access)
  const known = (access: unknown) =>
    Either.isRight(decode(access)) &&
    (!Array.isArray(access) || table.unknown(access as ReadonlyArray<string>).length === 0)

  it.prop("any non-empty scope list decodes", [scopeList], ([list]) => {
    expect(decode(list)).toEqual(Either.right(list))
    expect(known(list)).toBe(true)
  })

  it("examples", () => {
    expect(known("full")).toBe(true)
    expect(known("check")).toBe(true)
    for (const bad of [[], "none", ["verify:read"], ["verify:check", "admin"], "verify:check", null]) {
      expect(known(bad)).toBe(false)
    }
  })
})

describe("a products list whose scopes cannot be served is refused when it is folded, naming the scope", () => {
  it("a scope declared twice", () => {
    const d = { scope: "x:read", includes: [], description: "" }
    expect(() => scopeTable([d, d])).toThrow("The scope x:read is declared twice")
  })

  it("a scope including one nobody declares", () => {
    expect(() => scopeTable([{ scope: "x:send", includes: ["x:read"], description: "" }])).toThrow(
      "The scope x:send includes x:read, which no product in the list declares.",
    )
  })

  it("full access grants no scope the table lacks", () => {
    expect(grants("full", "nobody:declared")).toBe(false)
  })
})
