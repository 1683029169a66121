/**
 * A chat team (DECISIONS 9.4, 10, 11, 17): its members, the body that adds one, and the rules of adding and
 * inviting, as pure functions of who asks, whom and when. Roles rank owner > admin > agent; the person of an
 * account token is a member of every team of the account, with the token's role (its `member_id` is the member's
 * id), and has joined.
 */
import { Either, Option, Schema } from "effect"
import type { Role } from "../keys/model.ts"
import { Chat as Limits, Fields } from "../limits.ts"
import { fieldsRefused } from "../pipeline/decode.ts"
import type { InvalidRequest } from "../pipeline/errors.ts"
import type { Next } from "../accounts/errors.ts"
import type { ApplicationId, Millis, SaudiMobile } from "../shared/brands.ts"
import { isEmailAddress } from "../shared/email-address.ts"
import { check, NonBlank, Text } from "../shared/fields.ts"
import { withoutControlCharacters } from "../shared/names.ts"
import { parseSaudiMobile } from "../shared/phone.ts"
import { isoMillis } from "../shared/riyadh.ts"
import { AboveOwnRole, AlreadyJoined, InviteWait, NoEmail, SelfEdit } from "./errors.ts"

export const memberStatuses = ["invited", "active"] as const
export type MemberStatus = (typeof memberStatuses)[number]
/** The roles a member is added with: never `owner` (an owner is the person of an owner's token). */
export const addedRoles = ["admin", "agent"] as const

export interface TeamMember {
  readonly id: string
  readonly applicationId: ApplicationId
  readonly name: string | null
  /** Lower-cased; null for a member added by mobile. */
  readonly email: string | null
  readonly mobile: SaudiMobile | null
  readonly role: Role
  readonly status: MemberStatus
  /** The last invitation (the first is the add). */
  readonly invitedAt: Millis
  readonly joinedAt: Millis | null
  /** When the member was added: the list's order. */
  readonly createdAt: Millis
  /** Keyed hash of the current invitation link's secret (a new invitation replaces it); null for a token's person. */
  readonly invitationHash: string | null
}

/** The person of one of the account's tokens, as a member of every team (DECISIONS 17). */
export interface TokenHolderMember {
  readonly memberId: string
  readonly email: string | null
  /** The highest role among the person's tokens that are not revoked. */
  readonly role: Role
  /** The person's first token. */
  readonly since: Millis
}

/** A token's person as a member of the application's team: joined, never invited by the team. */
export const holderMember = (applicationId: ApplicationId, h: TokenHolderMember): TeamMember => ({
  id: h.memberId,
  applicationId,
  name: null,
  email: h.email?.toLowerCase() ?? null,
  mobile: null,
  role: h.role,
  status: "active",
  invitedAt: h.since,
  joinedAt: h.since,
  createdAt: h.since,
  invitationHash: null,
})

export const MemberOutput = Schema.Struct({
  id: Schema.UUID,
  name: Schema.NullOr(Schema.String),
  email: Schema.NullOr(Schema.String),
  mobile: Schema.NullOr(Schema.String),
  role: Schema.Literal("owner", "admin", "agent"),
  status: Schema.Literal(...memberStatuses),
  invited_at: Schema.String,
}).annotations({ identifier: "TeamMember" })

export const memberJson = (m: TeamMember): typeof MemberOutput.Type => ({
  id: m.id,
  name: m.name,
  email: m.email,
  mobile: m.mobile,
  role: m.role,
  status: m.status,
  invited_at: isoMillis(m.invitedAt),
})

export const AddOutput = Schema.extend(
  MemberOutput,
  Schema.Struct({
    invitation_sent_to: Schema.optional(Schema.String.annotations({ description: "Added by e-mail: the address" })),
    invitation_url: Schema.optional(Schema.String.annotations({
      description: "Added by mobile: the link that makes the member active, a secret shown only in this answer",
    })),
  }),
).annotations({ identifier: "TeamMemberAdded" })

export const InviteOutput = Schema.Struct({
  id: Schema.UUID,
  invitation_sent_to: Schema.String,
  invited_at: Schema.String,
}).annotations({ identifier: "TeamInvitation" })

export const AddBody = Schema.Struct({
  email: Schema.optional(
    Text(Fields.maxEmailLength).pipe(check(isEmailAddress, "must be an e-mail address")).annotations({
      description: "The person's e-mail (exactly one of `email` and `mobile`): the invitation is sent there",
    }),
  ),
  mobile: Schema.optional(Schema.String.annotations({
    description: "The person's Saudi mobile, any accepted format (exactly one of `email` and `mobile`)",
  })),
  name: Schema.optional(withoutControlCharacters(NonBlank(Text(Limits.memberNameMax)))),
  role: Schema.Literal(...addedRoles),
}).annotations({ identifier: "TeamMemberAdd" })

/** Whom an add names: an e-mail (lower-cased) or a mobile (`+9665XXXXXXXX`). */
export type Contact =
  | { readonly _tag: "Email"; readonly email: string }
  | { readonly _tag: "Mobile"; readonly mobile: SaudiMobile }

export interface AddRequest {
  readonly contact: Contact
  readonly name: string | null
  readonly role: (typeof addedRoles)[number]
}

/** Exactly one of `email` and `mobile`, the mobile in an accepted format (`400 invalid_request` otherwise). */
export const addRequest = (body: typeof AddBody.Type): Either.Either<AddRequest, InvalidRequest> => {
  const base = { name: body.name?.trim() ?? null, role: body.role }
  if (body.email !== undefined && body.mobile !== undefined) {
    return Either.left(fieldsRefused({ mobile: "give `email` or `mobile`, not both" }, { mobile: "invalid" }))
  }
  if (body.email !== undefined) {
    return Either.right({ ...base, contact: { _tag: "Email", email: body.email.trim().toLowerCase() } })
  }
  if (body.mobile === undefined) {
    return Either.left(fieldsRefused({ email: "give `email` or `mobile`" }, { email: "required" }))
  }
  return Option.match(parseSaudiMobile(body.mobile), {
    onNone: () => Either.left(fieldsRefused({ mobile: "must be a Saudi mobile number" }, { mobile: "invalid" })),
    onSome: (mobile) => Either.right({ ...base, contact: { _tag: "Mobile", mobile } }),
  })
}

/** Who asks: the token's person (a token issued before roles is the owner's, with no e-mail). */
export interface Asker {
  readonly memberId: string | null
  readonly role: Role
  readonly email: string | null
}

const rank: Readonly<Record<Role, number>> = { owner: 3, admin: 2, agent: 1 }
export const above = (role: Role, own: Role): boolean => rank[role] > rank[own]

const isSelf = (asker: Asker, m: { readonly id?: string; readonly email: string | null }) =>
  (asker.memberId !== null && m.id === asker.memberId) ||
  (asker.email !== null && m.email !== null && asker.email.toLowerCase() === m.email)

/**
 * The refusals of an add, in order (DECISIONS 10): `self_edit` (the asker's own e-mail, or the member the asker
 * is), `above_own_role` (a role above the asker's, asked or already held); then someone already in the team is
 * `Some` of that member (answered `200`, without approval), else none: a new member.
 */
export const vetAdd = (
  asker: Asker,
  request: AddRequest,
  existing: Option.Option<TeamMember>,
): Either.Either<Option.Option<TeamMember>, SelfEdit | AboveOwnRole> => {
  const email = request.contact._tag === "Email" ? request.contact.email : null
  if (isSelf(asker, { email }) || (Option.isSome(existing) && isSelf(asker, existing.value))) {
    return Either.left(new SelfEdit({ message: "A person does not add themselves to the team." }))
  }
  if (above(request.role, asker.role) || (Option.isSome(existing) && above(existing.value.role, asker.role))) {
    return Either.left(new AboveOwnRole({ message: `A token of role ${asker.role} does not add above its role.` }))
  }
  return Either.right(existing)
}

/**
 * The refusals of an invitation, in order (DECISIONS 10): `self_edit`, `above_own_role`, `no_email` (added by
 * mobile), `already_joined` (active), `invite_wait` (within 5 minutes of the last invitation; `next` is the call).
 */
export const vetInvite = (
  asker: Asker,
  member: TeamMember,
  now: Millis,
  again: Next,
): Either.Either<string, SelfEdit | AboveOwnRole | NoEmail | AlreadyJoined | InviteWait> => {
  if (isSelf(asker, member)) return Either.left(new SelfEdit({ message: "A person does not invite themselves." }))
  if (above(member.role, asker.role)) {
    return Either.left(new AboveOwnRole({ message: `A token of role ${asker.role} does not invite above its role.` }))
  }
  if (member.email === null) {
    return Either.left(new NoEmail({ message: "This member signs in with a mobile; there is no e-mail to invite." }))
  }
  if (member.status === "active") {
    return Either.left(new AlreadyJoined({ message: "This member accepted the invitation already." }))
  }
  const waitMs = member.invitedAt + Limits.inviteWaitMs - now
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000)
    return Either.left(
      new InviteWait({
        message: `The last invitation is under ${Limits.inviteWaitMs / 60_000} minutes old; ` +
          `invite again in ${seconds} seconds.`,
        retry_after_seconds: seconds,
        retry_after: seconds,
        next: again,
      }),
    )
  }
  return Either.right(member.email)
}

/** The secret of an invitation link: `inv_` and 32 characters of base64url (24 random bytes). */
export const invitationSecretPattern = /^inv_[A-Za-z0-9_-]{32}$/
