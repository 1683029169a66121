/** Chat's team in memory (ports/store/chat-team.ts), beside the credentials it reads the tokens' persons from. */
import { Effect, Layer, Option } from "effect"
import type { TeamMember, TokenHolderMember } from "../../core/chat/team.ts"
import type { Role } from "../../core/keys/model.ts"
import type { AccountId } from "../../core/shared/brands.ts"
import { ChatTeamRepo, type TeamPosition } from "../../ports/store/chat-team.ts"
import { accountTables } from "./accounts.ts"
import { credentialTables } from "./credentials.ts"
import { deleteIn, memoryTables, setIn, type TablesOf, violation } from "./db.ts"

export const chatTeamTables = () => ({
  chatTeam: new Map<string, TeamMember>(),
})

type Tables = TablesOf<[typeof chatTeamTables, typeof credentialTables, typeof accountTables]>

const rank: Readonly<Record<Role, number>> = { owner: 3, admin: 2, agent: 1 }

const holdersOf = (t: Tables, accountId: AccountId): Array<TokenHolderMember> => {
  const byMember = new Map<string, TokenHolderMember>()
  for (const c of [...t.credentials.values()].sort((x, y) => x.createdAt - y.createdAt)) {
    if (c.accountId !== accountId || c.kind !== "account_token" || c.revokedAt !== null || c.holder === null) continue
    const held = byMember.get(c.holder.memberId)
    byMember.set(c.holder.memberId, {
      memberId: c.holder.memberId,
      email: held?.email ?? c.holder.email?.toLowerCase() ?? null,
      role: held === undefined || rank[c.holder.role] > rank[held.role] ? c.holder.role : held.role,
      since: held === undefined ? c.createdAt : Math.min(held.since, c.createdAt),
    })
  }
  return [...byMember.values()].sort((x, y) => x.since - y.since || (x.memberId < y.memberId ? -1 : 1))
}

const order = (x: TeamMember, y: TeamMember) => x.createdAt - y.createdAt || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)
const after = (m: TeamMember, p: TeamPosition) =>
  m.createdAt > p.createdAt || (m.createdAt === p.createdAt && m.id > p.id)

const sameContact = (a: TeamMember, b: TeamMember) =>
  a.applicationId === b.applicationId &&
  ((a.email !== null && a.email === b.email) || (a.mobile !== null && a.mobile === b.mobile))

export const ChatTeamRepoMemory = Layer.effect(
  ChatTeamRepo,
  Effect.map(memoryTables(chatTeamTables, credentialTables, accountTables), (db) => ({
    holders: (accountId) => db.read((t) => holdersOf(t, accountId)),
    activeCount: (applicationId) =>
      db.read((t) => {
        const accountId = t.applications.get(applicationId)?.accountId
        const holders = accountId === undefined ? [] : holdersOf(t, accountId)
        const holderEmails = new Set(holders.flatMap((h) => (h.email === null ? [] : [h.email])))
        return holders.length + [...t.chatTeam.values()].filter((m) =>
          m.applicationId === applicationId && m.status === "active" && (m.email === null || !holderEmails.has(m.email))
        ).length
      }),
    get: (applicationId, id) =>
      db.read((t) => Option.filter(Option.fromNullable(t.chatTeam.get(id)), (m) => m.applicationId === applicationId)),
    byContact: (applicationId, contact) =>
      db.read((t) =>
        Option.fromNullable(
          [...t.chatTeam.values()].find((m) =>
            m.applicationId === applicationId &&
            (contact._tag === "Email" ? m.email === contact.email : m.mobile === contact.mobile)
          ),
        )
      ),
    insert: (member) =>
      db.write((t, record) => {
        if (t.chatTeam.has(member.id)) violation(`duplicate team member ${member.id}`)
        if ([...t.chatTeam.values()].some((m) => sameContact(m, member))) return false
        setIn(t.chatTeam, member.id, member, record)
        return true
      }),
    reinvite: (id, at, invitationHash, since) =>
      db.write((t, record) => {
        const held = t.chatTeam.get(id)
        if (held === undefined || held.invitedAt > since) return false
        setIn(t.chatTeam, id, { ...held, invitedAt: at, invitationHash }, record)
        return true
      }),
    restore: (member) =>
      db.write((t, record) => {
        const held = t.chatTeam.get(member.id)
        if (held !== undefined) {
          setIn(
            t.chatTeam,
            member.id,
            { ...held, invitedAt: member.invitedAt, invitationHash: member.invitationHash },
            record,
          )
        }
      }),
    remove: (id) => db.write((t, record) => deleteIn(t.chatTeam, id, record)),
    byInvitation: (invitationHash) =>
      db.read((t) => Option.fromNullable([...t.chatTeam.values()].find((m) => m.invitationHash === invitationHash))),
    join: (id, at) =>
      db.write((t, record) => {
        const held = t.chatTeam.get(id)
        if (held !== undefined && held.status === "invited") {
          setIn(t.chatTeam, id, { ...held, status: "active", joinedAt: at }, record)
        }
      }),
    page: (applicationId, accountId, position, limit) =>
      db.read((t) => {
        const holderEmails = new Set(holdersOf(t, accountId).flatMap((h) => (h.email === null ? [] : [h.email])))
        return [...t.chatTeam.values()]
          .filter((m) =>
            m.applicationId === applicationId && (m.email === null || !holderEmails.has(m.email)) &&
            (position === null || after(m, position))
          )
          .sort(order)
          .slice(0, limit)
      }),
  })),
)
