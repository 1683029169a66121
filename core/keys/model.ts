import type { AccountId, ApplicationId, KeyId, Millis } from "../shared/brands.ts"
import type { KeyMode } from "../shared/key-mode.ts"
import type { Access } from "../shared/scope.ts"

/** The roles of the account API (DECISIONS 11), highest first: owner > admin > agent. */
export const roles = ["owner", "admin", "agent"] as const
export type Role = (typeof roles)[number]

/** The person an account token belongs to (DECISIONS 11, 14): its role, and whether it manages contacts. */
export interface TokenHolder {
  /** The person's member id (`member_id`). */
  readonly memberId: string
  readonly role: Role
  readonly email: string | null
  readonly manageContacts: boolean
}

/** An API key or an account token, as stored: the secret itself is never kept, only its keyed hash. */
export interface Credential {
  readonly id: KeyId
  readonly hash: string
  readonly accountId: AccountId
  /** Set for application keys (live, test, connected app); null for partner keys and account tokens. */
  readonly applicationId: ApplicationId | null
  readonly kind: "key" | "account_token"
  /** Null for account tokens. */
  readonly mode: KeyMode | null
  readonly access: Access
  /** Name of the connected app that holds this key, else null. */
  readonly appName: string | null
  /** An account token's person; null for API keys. */
  readonly holder: TokenHolder | null
  readonly expiresAt: Millis | null
  readonly ipAllowlist: ReadonlyArray<string>
  readonly revokedAt: Millis | null
  readonly createdAt: Millis
}
