/**
 * Who may call an account-API operation (DECISIONS 11): writes, `wallet.*` and money are for owners and
 * admins; every other read is for every role.
 */
import type { Caller } from "../pipeline/operation.ts"

/** Reads: every role. */
export const everyRole = { _tag: "Account", roles: ["owner", "admin", "agent"] } as const satisfies Caller
/** Writes, `wallet.*` and money: owners and admins. */
export const ownerOrAdmin = { _tag: "Account", roles: ["owner", "admin"] } as const satisfies Caller

/** The `needs` of `insufficient_role`: `["role:owner", "role:admin"]`. */
export const roleNeeds = (roles: ReadonlyArray<string>): Array<string> => roles.map((r) => `role:${r}`)
