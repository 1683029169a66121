/**
 * Who may call an account-API operation (DECISIONS 11): writes, `wallet.*` and money are for owners and
 * admins; every other read is for every role. Role-limited facts stay limited on every read (DECISIONS 18):
 * `roleLimited` is the one rule by which a read leaves them out for an agent.
 */
import type { AccountPrincipal } from "../pipeline/authenticate.ts"
import type { Caller } from "../pipeline/operation.ts"

/** Reads: every role. */
export const everyRole = { _tag: "Account", roles: ["owner", "admin", "agent"] } as const satisfies Caller
/** Writes, `wallet.*` and money: owners and admins. */
export const ownerOrAdmin = { _tag: "Account", roles: ["owner", "admin"] } as const satisfies Caller

/** The `needs` of `insufficient_role`: `["role:owner", "role:admin"]`. */
export const roleNeeds = (roles: ReadonlyArray<string>): Array<string> => roles.map((r) => `role:${r}`)

/** Whether the caller may see money and a buyer's identity: owners and admins (DECISIONS 11, 18). */
export const seesMoney = (p: AccountPrincipal): boolean => p.credential.holder?.role !== "agent"

/** A buyer's identity (DECISIONS 12's proforma `buyer`): what an agent does not see. */
const buyerIdentity: ReadonlySet<string> = new Set(["name", "address", "vat_number"])

const isRecord = (v: unknown): v is Readonly<Record<string, unknown>> =>
  v !== null && typeof v === "object" && !Array.isArray(v)

/**
 * A JSON value without the role-limited facts, at any depth: every key ending in `_halalas` (money), and a
 * `buyer`'s `name`, `address` and `vat_number` (the buyer object stays, with any other key it has; a `buyer`
 * that is not an object, null aside, is left out whole). Everything else is kept, in its order.
 */
export const withoutRoleLimited = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutRoleLimited)
  if (!isRecord(value)) return value
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    if (key.endsWith("_halalas")) continue
    const v = value[key]
    if (key !== "buyer") out[key] = withoutRoleLimited(v)
    else if (isRecord(v)) {
      const kept = Object.fromEntries(Object.entries(v).filter(([k]) => !buyerIdentity.has(k)))
      out[key] = withoutRoleLimited(kept)
    } else if (v === null) out[key] = v
  }
  return out
}

/**
 * What a read answers to this caller (DECISIONS 11, 18): the value as it is for owners and admins; for an
 * agent, without the role-limited facts (`withoutRoleLimited`). Every account-API read whose answer may
 * carry them (usage, approvals, the audit record) answers through this.
 */
export const roleLimited = <A>(p: AccountPrincipal, value: A): A =>
  seesMoney(p) ? value : withoutRoleLimited(value) as A
