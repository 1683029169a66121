import type { AccountId, ApplicationId, KeyId, Millis } from "../shared/brands.ts"
import type { KeyMode } from "../shared/key-mode.ts"
import type { Access } from "../shared/scope.ts"

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
  readonly expiresAt: Millis | null
  readonly ipAllowlist: ReadonlyArray<string>
  readonly revokedAt: Millis | null
  readonly createdAt: Millis
}
