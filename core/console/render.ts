/** Console answer shapes (DECISIONS 2). */
import type { Account, Application } from "../accounts/model.ts"
import type { Credential } from "../keys/model.ts"
import { isoMillis } from "../shared/riyadh.ts"

export const accountJson = (a: Account) => ({
  id: a.id,
  name: a.name,
  sandbox_only: a.sandboxOnly,
  partner: a.partner,
})

export const applicationJson = (a: Application) => ({
  id: a.id,
  account_id: a.accountId,
  name: a.name,
  status: a.status,
  external_id: a.externalId,
  paused: a.paused,
})

/** A new key: `key` is shown only here, once. */
export const newKeyJson = (c: Credential, key: string) => ({
  id: c.id,
  key,
  mode: c.mode,
  access: c.access,
  expires_at: c.expiresAt === null ? null : isoMillis(c.expiresAt),
  ip_allowlist: c.ipAllowlist,
  ...(c.appName === null ? {} : { app_name: c.appName }),
})
