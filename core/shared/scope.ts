/**
 * Scopes of API keys and what each access level grants.
 *
 * - A scope grants itself and every scope it includes (the `includes` table, applied transitively).
 * - `"full"` grants every scope except the connected-app scopes, which only a connected-app key can hold.
 * - `"check"` is the legacy access level: it grants exactly what `["verify:check"]` grants.
 */
import { Schema } from "effect"

export const Scope = Schema.Literal(
  "verify:check",
  "verify:send",
  "notifications:read",
  "notifications:send",
  "email:read",
  "email:send",
  "notifications:templates",
  "chat:menus",
  "chat:attendant",
)
export type Scope = typeof Scope.Type
export const AllScopes: ReadonlyArray<Scope> = Scope.literals

/** The inclusion table: each scope lists the scopes it directly includes. */
export const includes: { readonly [S in Scope]: ReadonlyArray<Scope> } = {
  "verify:check": [],
  "verify:send": ["verify:check"],
  "notifications:read": [],
  "notifications:send": ["notifications:read"],
  "email:read": [],
  "email:send": ["email:read"],
  "notifications:templates": ["notifications:read"],
  "chat:menus": [],
  "chat:attendant": [],
}

/** Scopes only a connected-app key can hold; `"full"` does not cover them. */
export const ConnectedAppScopes: ReadonlyArray<Scope> = ["notifications:templates", "chat:menus", "chat:attendant"]

export const Access = Schema.Union(Schema.Literal("full", "check"), Schema.NonEmptyArray(Scope))
export type Access = typeof Access.Type

const covers = (held: Scope, needed: Scope): boolean =>
  held === needed || includes[held].some((included) => covers(included, needed))

export const grants = (access: Access, needed: Scope): boolean =>
  access === "full"
    ? !ConnectedAppScopes.includes(needed)
    : access === "check"
    ? covers("verify:check", needed)
    : access.some((held) => covers(held, needed))

/** Every scope the access grants, in the order of `AllScopes`. */
export const grantedScopes = (access: Access): ReadonlyArray<Scope> => AllScopes.filter((s) => grants(access, s))
