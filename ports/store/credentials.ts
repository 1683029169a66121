import { Context, type Effect, type Option } from "effect"
import type { Account, Application } from "../../core/accounts/model.ts"
import type { Credential } from "../../core/keys/model.ts"
import type { KeyId, Millis } from "../../core/shared/brands.ts"

/** What authentication needs about a presented credential, read in one look-up. */
export interface CredentialContext {
  readonly credential: Credential
  readonly account: Account
  /** The key's own application (null for partner keys and account tokens). */
  readonly application: Application | null
}

export class CredentialsRepo extends Context.Tag("ports/CredentialsRepo")<CredentialsRepo, {
  readonly insert: (credential: Credential) => Effect.Effect<void>
  readonly findByHash: (hash: string) => Effect.Effect<Option.Option<CredentialContext>>
  readonly revoke: (id: KeyId, at: Millis) => Effect.Effect<Option.Option<Credential>>
}>() {}
