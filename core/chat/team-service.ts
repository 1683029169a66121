/**
 * The chat team (DECISIONS 9.4, 10, 11, 17): listed, added to and invited again through the account API, joined by
 * opening the invitation link. An invitation by e-mail goes out through the platform's e-mail provider from the
 * platform's own address (`Chat.invitationFrom`); one the provider refuses or cannot take undoes the add or the
 * invitation (`502 send_failed`, `503 email_unavailable`), as Email's sends keep nothing that did not go.
 */
import { Clock, Effect, Either, Option } from "effect"
import { EmailProvider } from "../../ports/email.ts"
import { Secrets } from "../../ports/secrets.ts"
import { ApplicationsRepo } from "../../ports/store/accounts.ts"
import { ChatTeamRepo, type TeamPosition } from "../../ports/store/chat-team.ts"
import { keysetPage, type ListQuery } from "../accounts/lists.ts"
import { envelopeFromOf } from "../email/service.ts"
import { EmailUnavailable } from "../email/errors.ts"
import { Chat as Limits } from "../limits.ts"
import type { AccountPrincipal } from "../pipeline/authenticate.ts"
import { makeCursors } from "../pipeline/cursor.ts"
import { notFound } from "../pipeline/errors.ts"
import { answeredWith, type Vetted } from "../pipeline/operation.ts"
import { base64url } from "../shared/key-mode.ts"
import { isoMillis } from "../shared/riyadh.ts"
import type { ApplicationId, Millis } from "../shared/brands.ts"
import { untracedStacks } from "../shared/tracing.ts"
import { SendFailed } from "../verify/errors.ts"
import {
  type AddRequest,
  type Asker,
  type Contact,
  holderMember,
  memberJson,
  type TeamMember,
  vetAdd,
  vetInvite,
} from "./team.ts"

/** The path of the link that makes a member active; `{base_url}` before it. */
export const invitationPath = (secret: string) => `/v1/chat/team/invitations/${secret}`

const askerOf = (p: AccountPrincipal): Asker => {
  const holder = p.credential.holder
  // A token issued before roles is the owner's (adapters/sql/migrations/accounts/0003).
  return holder === null
    ? { memberId: null, role: "owner", email: null }
    : { memberId: holder.memberId, role: holder.role, email: holder.email }
}

const contactText = (c: Contact) => (c._tag === "Email" ? c.email : c.mobile)

const roleText = { owner: "an owner", admin: "an admin", agent: "an agent" } as const

export class ChatTeam extends Effect.Service<ChatTeam>()("core/ChatTeam", {
  effect: Effect.gen(function* () {
    const repo = yield* ChatTeamRepo
    const apps = yield* ApplicationsRepo
    const provider = yield* EmailProvider
    const secrets = yield* Secrets
    const cursors = yield* makeCursors

    const now = Effect.map(Clock.currentTimeMillis, (ms) => ms as Millis)

    /** The member the add names: a token's person by e-mail first (DECISIONS 17), then the team's rows. */
    const byContact = (p: AccountPrincipal, applicationId: ApplicationId, contact: Contact) =>
      Effect.gen(function* () {
        if (contact._tag === "Email") {
          const holder = (yield* repo.holders(p.account.id)).find((h) => h.email?.toLowerCase() === contact.email)
          if (holder !== undefined) return Option.some(holderMember(applicationId, holder))
        }
        return yield* repo.byContact(applicationId, contact)
      })

    /** `{member}` of the application's team (a token's person included), else `404 not_found`. */
    const memberOf = (p: AccountPrincipal, applicationId: ApplicationId, id: string) =>
      Effect.gen(function* () {
        const row = yield* repo.get(applicationId, id)
        if (Option.isSome(row)) return row.value
        const holder = (yield* repo.holders(p.account.id)).find((h) => h.memberId === id)
        if (holder !== undefined) return holderMember(applicationId, holder)
        return yield* notFound
      })

    const newSecret = Effect.map(secrets.randomBytes(24), (bytes) => `inv_${base64url(bytes)}`)

    /** Sends the invitation to `to`; a refusal or an unreachable provider fails with the answer to give. */
    const sendInvitation = (
      p: AccountPrincipal,
      applicationId: ApplicationId,
      m: TeamMember,
      to: string,
      url: string,
    ) =>
      Effect.gen(function* () {
        const app = yield* apps.get(applicationId)
        const appName = Option.match(app, { onNone: () => "an application", onSome: (a) => a.name })
        const who = p.credential.holder?.email ?? p.account.name
        const id = yield* secrets.uuid
        const sent = yield* Effect.either(provider.send({
          id,
          from: Limits.invitationFrom,
          to,
          subject: `Join the chat team of ${appName}`,
          text: `${who} added you${m.name === null ? "" : ` (${m.name})`} to the chat team of ${appName} as ` +
            `${roleText[m.role]}, to answer its customers' conversations.\n\nOpen this link to join:\n${url}\n\n` +
            "The link is yours alone; a new invitation replaces it.",
          html: null,
          envelopeFrom: envelopeFromOf(id),
          dkim: null,
        }))
        if (Either.isLeft(sent)) {
          return yield* sent.left._tag === "EmailRefused"
            ? new SendFailed({ provider_code: sent.left.providerCode, message: sent.left.message })
            : new EmailUnavailable({ message: "The e-mail service did not answer; no invitation was sent." })
        }
      })

    /**
     * `chat.team.add`'s checks before its approval: `self_edit`, `above_own_role`; someone already in the team
     * needs no approval (nothing is granted), anyone else one worded for the person.
     */
    const vet = Effect.fn("ChatTeam.vet", untracedStacks)(
      function* (p: AccountPrincipal, applicationId: ApplicationId, request: AddRequest) {
        const existing = yield* byContact(p, applicationId, request.contact)
        const vetted = vetAdd(askerOf(p), request, existing)
        if (Either.isLeft(vetted)) return yield* vetted.left
        return Option.isSome(vetted.right)
          ? false as Vetted
          : { say: `Approve adding ${contactText(request.contact)} to the team.` } as Vetted
      },
    )

    /** `chat.team.add`: `201` the new member (invited), `200` one already in the team. */
    const add = Effect.fn("ChatTeam.add", untracedStacks)(
      function* (p: AccountPrincipal, applicationId: ApplicationId, request: AddRequest, baseUrl: string) {
        const existing = yield* byContact(p, applicationId, request.contact)
        const vetted = vetAdd(askerOf(p), request, existing)
        if (Either.isLeft(vetted)) return yield* vetted.left
        if (Option.isSome(vetted.right)) return answeredWith(200, memberJson(vetted.right.value))
        const at = yield* now
        const secret = yield* newSecret
        const member: TeamMember = {
          id: yield* secrets.uuid,
          applicationId,
          name: request.name,
          email: request.contact._tag === "Email" ? request.contact.email : null,
          mobile: request.contact._tag === "Mobile" ? request.contact.mobile : null,
          role: request.role,
          status: "invited",
          invitedAt: at,
          joinedAt: null,
          createdAt: at,
          invitationHash: secrets.hash(secret),
        }
        if (!(yield* repo.insert(member))) {
          // Another add of the same person got there first.
          const held = yield* repo.byContact(applicationId, request.contact)
          if (Option.isSome(held)) return answeredWith(200, memberJson(held.value))
          return yield* Effect.die(new Error("chat team: an add refused with no member holding its contact"))
        }
        const url = `${baseUrl}${invitationPath(secret)}`
        if (member.email === null) return { ...memberJson(member), invitation_url: url }
        yield* sendInvitation(p, applicationId, member, member.email, url).pipe(
          Effect.tapError(() => repo.remove(member.id)),
        )
        return { ...memberJson(member), invitation_sent_to: member.email }
      },
    )

    /** `chat.team.invite`: a new invitation e-mail (a new link; the last one stops working). */
    const invite = Effect.fn("ChatTeam.invite", untracedStacks)(
      function* (p: AccountPrincipal, applicationId: ApplicationId, memberId: string, baseUrl: string, path: string) {
        const again = { operation: "chat.team.invite", method: "POST", path }
        const at = yield* now
        const member = yield* memberOf(p, applicationId, memberId)
        const vetted = vetInvite(askerOf(p), member, at, again)
        if (Either.isLeft(vetted)) return yield* vetted.left
        const secret = yield* newSecret
        if (!(yield* repo.reinvite(member.id, at, secrets.hash(secret), (at - Limits.inviteWaitMs) as Millis))) {
          // Another invitation went out meanwhile: this one waits for it.
          const latest = vetInvite(askerOf(p), yield* memberOf(p, applicationId, memberId), at, again)
          if (Either.isLeft(latest)) return yield* latest.left
          return yield* Effect.die(new Error("chat team: an invitation refused with none newer"))
        }
        yield* sendInvitation(p, applicationId, member, vetted.right, `${baseUrl}${invitationPath(secret)}`).pipe(
          Effect.tapError(() => repo.restore(member)),
        )
        return { id: member.id, invitation_sent_to: vetted.right, invited_at: isoMillis(at) }
      },
    )

    /** `chat.team.list`: the tokens' persons and the members added, oldest first. */
    const list = (p: AccountPrincipal, applicationId: ApplicationId, query: typeof ListQuery.Type) =>
      keysetPage(
        cursors,
        `chat.team:${applicationId}`,
        p.account.id,
        query,
        (after, limit) =>
          Effect.gen(function* () {
            const position: TeamPosition | null = after === null
              ? null
              : { createdAt: after[0] as Millis, id: after[1] as string }
            const holders = (yield* repo.holders(p.account.id)).map((h) => holderMember(applicationId, h))
            const rows = yield* repo.page(applicationId, p.account.id, position, limit)
            return [...holders.filter((m) => position === null || isAfter(m, position)), ...rows]
              .sort(oldestFirst).slice(0, limit)
          }),
        (m) => [m.createdAt, m.id],
        memberJson,
      )

    /** Opening the invitation link: the member becomes `active` (once); an unknown or replaced link is `404`. */
    const accept = Effect.fn("ChatTeam.accept", untracedStacks)(function* (secret: string) {
      const found = yield* repo.byInvitation(secrets.hash(secret))
      if (Option.isNone(found)) return yield* notFound
      const member = found.value
      if (member.status === "active") return memberJson(member)
      const at = yield* now
      yield* repo.join(member.id, at)
      return memberJson({ ...member, status: "active", joinedAt: at })
    })

    return { vet, add, invite, list, accept } as const
  }),
}) {}

const oldestFirst = (x: TeamMember, y: TeamMember) =>
  x.createdAt - y.createdAt || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)

const isAfter = (m: TeamMember, after: TeamPosition) =>
  m.createdAt > after.createdAt || (m.createdAt === after.createdAt && m.id > after.id)
