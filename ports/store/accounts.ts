import { Context, type Effect, type Option } from "effect"
import type { Account, Application } from "../../core/accounts/model.ts"
import type { AccountId, ApplicationId, Millis } from "../../core/shared/brands.ts"
import type { LifecycleStatus, ReasonCode } from "../../core/partner/lifecycle.ts"

export class AccountsRepo extends Context.Tag("ports/AccountsRepo")<AccountsRepo, {
  readonly insert: (account: Account) => Effect.Effect<void>
  readonly get: (id: AccountId) => Effect.Effect<Option.Option<Account>>
  readonly count: Effect.Effect<number>
  /** The account made first (on a store the demo seeded, the demo account). */
  readonly oldest: Effect.Effect<Option.Option<Account>>
  /** Up to `limit` accounts, newest first (then the greater id): the console's list. */
  readonly recent: (limit: number) => Effect.Effect<ReadonlyArray<Account>>
}>() {}

export class ApplicationsRepo extends Context.Tag("ports/ApplicationsRepo")<ApplicationsRepo, {
  readonly insert: (application: Application) => Effect.Effect<void>
  readonly get: (id: ApplicationId) => Effect.Effect<Option.Option<Application>>
  /** Takes the application's row lock until the transaction ends (serializes sends of one application). */
  readonly getForUpdate: (id: ApplicationId) => Effect.Effect<Option.Option<Application>>
  /** A partner's client application, named by its id or its `external_id`. */
  readonly findInAccount: (accountId: AccountId, idOrExternalId: string) => Effect.Effect<Option.Option<Application>>
  readonly update: (application: Application) => Effect.Effect<void>
  /** Up to `limit` applications of the account, newest first (then the greater id), after `after` if given. */
  readonly pageInAccount: (
    accountId: AccountId,
    after: { readonly createdAt: number; readonly id: string } | null,
    limit: number,
  ) => Effect.Effect<ReadonlyArray<Application>>
}>() {}

/** An application's brand and review record beside its status (DECISIONS 13): written only by its moves. */
export interface ApplicationProfile {
  readonly website: string | null
  /** The logo's content hash and extension (`png`, `jpg`, `webp`), or null. */
  readonly logo: { readonly sha256: string; readonly ext: string } | null
  readonly reasonCode: ReasonCode | null
  readonly appealable: boolean
  readonly statusBeforeArchive: LifecycleStatus | null
  readonly updatedAt: Millis
}

export class ApplicationProfilesRepo extends Context.Tag("ports/ApplicationProfilesRepo")<ApplicationProfilesRepo, {
  /** The profile of an application (a fresh one for an application made before profiles: no brand, no review). */
  readonly get: (id: ApplicationId) => Effect.Effect<Option.Option<ApplicationProfile>>
  readonly put: (id: ApplicationId, profile: ApplicationProfile) => Effect.Effect<void>
}>() {}
