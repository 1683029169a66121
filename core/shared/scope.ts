/**
 * Scopes of API keys and what each access level grants.
 *
 * Each product declares the scopes it adds (`core/<product>/scopes.ts`, listed in its module's `scopes`); the
 * platform's table is the fold of the products list (adapters/products.ts `scopeTableOf`), provided to the
 * order of checks and the key issuers as the `Scopes` service. The rules:
 *
 * - A scope grants itself and every scope it includes (its `includes`, applied transitively).
 * - `"full"` grants every scope except the connected-app scopes, which only a connected-app key can hold.
 * - `"check"` is the legacy access level: it grants exactly what `["verify:check"]` grants.
 */
import { Context, Schema } from "effect"

/** A scope's name: `product:action` (its table decides whether it exists). */
export type Scope = string

/** One scope a product adds. */
export interface ScopeDeclaration {
  readonly scope: Scope
  /** The scopes it directly includes (each declared by this product or another in the list). */
  readonly includes: ReadonlyArray<Scope>
  /** Held only by connected-app keys; `"full"` does not cover it. */
  readonly connectedApp?: boolean
  /** What it lets a key do, for the document. */
  readonly description: string
}

/** Declares a product's scopes (keeps the literal names for its guards). */
export const scopes = <const D extends ReadonlyArray<ScopeDeclaration>>(declarations: D): D => declarations

/** The shape of a scope name; whether it exists is the table's (`Scopes`). */
export const ScopeName = Schema.String.pipe(Schema.pattern(/^[a-z][a-z0-9_-]*:[a-z][a-z0-9_-]*$/)).annotations({
  identifier: "Scope",
  description:
    "A key scope: `components.schemas.Scope` lists those of the products list, `x-scopes` what each includes.",
})

/** An access level as keys hold it: `"full"`, `"check"`, or a list of scopes. */
export const Access = Schema.Union(Schema.Literal("full", "check"), Schema.NonEmptyArray(ScopeName))
export type Access = typeof Access.Type

/** The scope table of a list of products. */
export interface ScopeTable {
  /** Every declared scope, in the list's order. */
  readonly all: ReadonlyArray<Scope>
  /** The scopes only a connected-app key can hold. */
  readonly connectedApp: ReadonlyArray<Scope>
  /** Each scope's direct inclusions. */
  readonly includes: Readonly<Record<Scope, ReadonlyArray<Scope>>>
  readonly declarations: ReadonlyArray<ScopeDeclaration>
  /** Whether a key holding `access` may act where `needed` is required. */
  readonly grants: (access: Access, needed: Scope) => boolean
  /** Every scope the access grants, in the table's order. */
  readonly grantedScopes: (access: Access) => ReadonlyArray<Scope>
  /** The names in `list` that are no declared scope. */
  readonly unknown: (list: ReadonlyArray<string>) => ReadonlyArray<string>
}

/**
 * The table of some declarations. Throws, with the names, when a scope is declared twice or includes a scope
 * nobody declares (a products list that cannot be served: found when the list is folded, not per request).
 */
export const scopeTable = (declarations: ReadonlyArray<ScopeDeclaration>): ScopeTable => {
  const includes: Record<Scope, ReadonlyArray<Scope>> = {}
  for (const d of declarations) {
    if (d.scope in includes) throw new Error(`The scope ${d.scope} is declared twice in the products list.`)
    includes[d.scope] = d.includes
  }
  for (const d of declarations) {
    for (const i of d.includes) {
      if (!(i in includes)) {
        throw new Error(`The scope ${d.scope} includes ${i}, which no product in the list declares.`)
      }
    }
  }
  const all = declarations.map((d) => d.scope)
  const connectedApp = declarations.filter((d) => d.connectedApp === true).map((d) => d.scope)
  const covers = (held: Scope, needed: Scope): boolean =>
    held === needed || (includes[held] ?? []).some((included) => covers(included, needed))
  const grants = (access: Access, needed: Scope): boolean =>
    access === "full"
      ? needed in includes && !connectedApp.includes(needed)
      : access === "check"
      ? covers("verify:check", needed)
      : access.some((held) => covers(held, needed))
  return {
    all,
    connectedApp,
    includes,
    declarations,
    grants,
    grantedScopes: (access) => all.filter((s) => grants(access, s)),
    unknown: (list) => list.filter((s) => !(s in includes)),
  }
}

/** The platform's scope table (the fold of its products list). */
export class Scopes extends Context.Tag("Scopes")<Scopes, ScopeTable>() {}
