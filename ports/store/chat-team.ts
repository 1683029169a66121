/**
 * Chat's team table (DECISIONS 9.4): each application's members added by e-mail or mobile. The persons of the
 * account's tokens are members of every team too (DECISIONS 17): the repository reads them from the credentials.
 */
import { Context, type Effect, type Option } from "effect"
import type { Contact, TeamMember, TokenHolderMember } from "../../core/chat/team.ts"
import type { AccountId, ApplicationId, Millis } from "../../core/shared/brands.ts"

/** Where a page of the team ends: the last member's `createdAt` and id (oldest first). */
export interface TeamPosition {
  readonly createdAt: Millis
  readonly id: string
}

export class ChatTeamRepo extends Context.Tag("ports/ChatTeamRepo")<ChatTeamRepo, {
  /** The persons of the account's tokens that are not revoked, one each (by `member_id`), oldest first. */
  readonly holders: (accountId: AccountId) => Effect.Effect<ReadonlyArray<TokenHolderMember>>
  /**
   * How many of the application's team are active: the persons of its account's tokens that are not revoked and
   * the members who opened their invitation, a member whose e-mail is a token's person's counted once.
   */
  readonly activeCount: (applicationId: ApplicationId) => Effect.Effect<number>
  readonly get: (applicationId: ApplicationId, id: string) => Effect.Effect<Option.Option<TeamMember>>
  /** The member of the application added with this e-mail (lower-cased) or mobile. */
  readonly byContact: (applicationId: ApplicationId, contact: Contact) => Effect.Effect<Option.Option<TeamMember>>
  /** Adds the member: false, nothing added, when the team holds its e-mail or mobile already (two adds racing). */
  readonly insert: (member: TeamMember) => Effect.Effect<boolean>
  /**
   * A new invitation: `invitedAt` and the link's secret, only while the last invitation is at or before `since`:
   * false, nothing changed, when another invitation came after it (two invites racing).
   */
  readonly reinvite: (
    id: string,
    at: Millis,
    invitationHash: string,
    since: Millis,
  ) => Effect.Effect<boolean>
  /** Puts back an invitation whose e-mail could not be sent. */
  readonly restore: (member: TeamMember) => Effect.Effect<void>
  /** Removes a member whose invitation could not be sent. */
  readonly remove: (id: string) => Effect.Effect<void>
  /** The member whose current invitation link holds this secret (its keyed hash). */
  readonly byInvitation: (invitationHash: string) => Effect.Effect<Option.Option<TeamMember>>
  /** The member opened the link: `active` from `at` (once; a second opening changes nothing). */
  readonly join: (id: string, at: Millis) => Effect.Effect<void>
  /**
   * Up to `limit` members of the application after `after`, oldest first (`createdAt`, then id), leaving out a
   * member whose e-mail is a token's person's of the account (that person is listed as the token's).
   */
  readonly page: (
    applicationId: ApplicationId,
    accountId: AccountId,
    after: TeamPosition | null,
    limit: number,
  ) => Effect.Effect<ReadonlyArray<TeamMember>>
}>() {}
