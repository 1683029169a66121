import { Context, type Effect, type Option } from "effect"
import type { Account, Application } from "../../core/accounts/model.ts"
import type { Credential } from "../../core/keys/model.ts"
import type { AccountId, KeyId, Millis } from "../../core/shared/brands.ts"

/** What authentication needs about a presented credential, read in one look-up. */
export interface CredentialContext {
  readonly credential: Credential
  readonly account: Account
  /** The key's own application (null for partner keys and account tokens). */
  readonly application: Application | null
}

/** One request presenting a credential: the count of its rate window with this request, and what it names. */
export interface Presentation {
  readonly count: number
  readonly found: Option.Option<CredentialContext>
}

export class CredentialsRepo extends Context.Tag("ports/CredentialsRepo")<CredentialsRepo, {
  readonly insert: (credential: Credential) => Effect.Effect<void>
  readonly findByHash: (hash: string) => Effect.Effect<Option.Option<CredentialContext>>
  /**
   * Steps 1 and 2 of every keyed request in one look-up: counts the request in the window of 60 s
   * starting at `windowStart` for the presented credential's hash (known or not), and reads the
   * credential as `findByHash` does. Called outside any transaction, so the count commits on its own
   * and stands whatever the request then does.
   */
  readonly present: (hash: string, windowStart: Millis) => Effect.Effect<Presentation>
  readonly revoke: (id: KeyId, at: Millis) => Effect.Effect<Option.Option<Credential>>
  /** The member id of the person of an account who holds a token under this e-mail, if any. */
  readonly holderByEmail: (accountId: AccountId, email: string) => Effect.Effect<Option.Option<string>>
  /** Every key and token of an account, revoked ones too, newest first (then the greater id): the console's lists. */
  readonly ofAccount: (accountId: AccountId) => Effect.Effect<ReadonlyArray<Credential>>
}>() {}
