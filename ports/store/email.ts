/** Email's tables (DECISIONS 8): account access, each application's switch, sender domains, messages. */
import { Context, type Effect, type Option } from "effect"
import type {
  DomainRecord,
  DomainStatus,
  EmailAccess,
  EmailMessage,
  EmailStatus,
  ListStatus,
  SenderDomain,
} from "../../core/email/model.ts"
import type { AccountId, ApplicationId, Millis } from "../../core/shared/brands.ts"

export class EmailAccessRepo extends Context.Tag("ports/EmailAccessRepo")<EmailAccessRepo, {
  /** The account's access (`none` when it never asked). */
  readonly get: (accountId: AccountId) => Effect.Effect<EmailAccess>
  readonly put: (access: EmailAccess) => Effect.Effect<void>
}>() {}

/** Each application's Email: on unless the console turned it off. */
export class EmailSwitchRepo extends Context.Tag("ports/EmailSwitchRepo")<EmailSwitchRepo, {
  readonly enabled: (applicationId: ApplicationId) => Effect.Effect<boolean>
  readonly setEnabled: (applicationId: ApplicationId, enabled: boolean) => Effect.Effect<void>
}>() {}

/** A DNS check's outcome for one domain. */
export interface DomainCheck {
  readonly id: string
  readonly records: ReadonlyArray<DomainRecord>
  readonly status: DomainStatus
  readonly verifiedAt: Millis | null
  readonly checkedAt: Millis
}

export class SenderDomainsRepo extends Context.Tag("ports/SenderDomainsRepo")<SenderDomainsRepo, {
  /** The application's domains, oldest first (then by id). */
  readonly list: (applicationId: ApplicationId) => Effect.Effect<ReadonlyArray<SenderDomain>>
  readonly get: (id: string) => Effect.Effect<Option.Option<SenderDomain>>
  /** Whether another application holds `domain` verified. */
  readonly verifiedElsewhere: (domain: string, applicationId: ApplicationId) => Effect.Effect<boolean>
  readonly insert: (domain: SenderDomain) => Effect.Effect<void>
  /** A failed domain added again: pending until `pendingUntil`, checked at `at` (a domain not failed is left alone). */
  readonly restart: (id: string, pendingUntil: Millis, at: Millis) => Effect.Effect<void>
  /**
   * Stores a check, only while the domain is still pending (one conditional write: of two checks racing, the one
   * that settled it wins); answers whether it was stored.
   */
  readonly recordCheck: (check: DomainCheck) => Effect.Effect<boolean>
  /** Pending domains whose next check is due (`checkedAt <= before`), the longest waiting first (then by id). */
  readonly due: (before: Millis, limit: number) => Effect.Effect<ReadonlyArray<SenderDomain>>
  /** The earliest `checkedAt` of a pending domain. */
  readonly earliestPending: Effect.Effect<Option.Option<Millis>>
  /**
   * During a simulated advance from `since` to `until` (nothing outside changes): the earliest check of a pending
   * domain that must run. A domain last checked at or before `since` (its records may have changed): `checkedAt +
   * every`. One checked since: its first check at or after `pendingUntil` (the one that fails it), or its last due
   * by `until` if earlier (at least `checkedAt + every`): the checks between would find what the last one found.
   */
  readonly earliestSettled: (since: Millis, until: Millis, every: number) => Effect.Effect<Option.Option<Millis>>
}>() {}

export interface EmailListQuery {
  readonly applicationId: ApplicationId
  /** Lower-cased; what it matches depends on its shape (core/email/search.ts); `%`, `_` are no patterns. */
  readonly q: string | undefined
  readonly status: ListStatus | undefined
  /** As the query string gave it: one that is no uuid names no domain (an empty page). */
  readonly domainId: string | undefined
  readonly limit: number
  /** After this row (newest first: `createdAt` then `id` descending). */
  readonly after: { readonly createdAt: Millis; readonly id: string } | undefined
}

export class EmailMessagesRepo extends Context.Tag("ports/EmailMessagesRepo")<EmailMessagesRepo, {
  readonly insert: (message: EmailMessage) => Effect.Effect<void>
  readonly setProviderId: (id: string, providerMessageId: string) => Effect.Effect<void>
  /** Takes back a message the provider refused: nothing of it is kept. */
  readonly remove: (id: string) => Effect.Effect<void>
  readonly get: (applicationId: ApplicationId, id: string) => Effect.Effect<Option.Option<EmailMessage>>
  readonly find: (id: string) => Effect.Effect<Option.Option<EmailMessage>>
  /** `sent` → a final status, once; answers the message moved, or none when it was not `sent` (or is unknown). */
  readonly finish: (id: string, status: EmailStatus, at: Millis) => Effect.Effect<Option.Option<EmailMessage>>
  /** Marks a complaint, once, whatever the status; answers the message marked, or none when it already was. */
  readonly complain: (id: string, at: Millis) => Effect.Effect<Option.Option<EmailMessage>>
  /** One page, newest first; `limit + 1` rows tell whether there is a next page. */
  readonly list: (query: EmailListQuery) => Effect.Effect<ReadonlyArray<EmailMessage>>
}>() {}
