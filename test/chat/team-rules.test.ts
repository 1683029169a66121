/**
 * The team's rules as pure functions (core/chat/team.ts): the refusals of an invitation and of an add in the order
 * DECISIONS 10 gives them, for any asker and member (property tests), and the add's body read into whom it names.
 */
import { Either, Option } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type AddRequest, addRequest, type Asker, type TeamMember, vetAdd, vetInvite } from "../../core/chat/team.ts"
import type { Role } from "../../core/keys/model.ts"
import { Chat } from "../../core/limits.ts"
import type { ApplicationId, Millis } from "../../core/shared/brands.ts"

const rank: Record<Role, number> = { owner: 3, admin: 2, agent: 1 }
const role = fc.constantFrom<Role>("owner", "admin", "agent")
const again = { operation: "chat.team.invite", method: "POST", path: "/v1/applications/a/chat/team/m/invite" }
const now = 10_000_000 as Millis

/** A member and an asker, each condition of the invite's refusals on or off. */
const situation = fc.record({
  self: fc.boolean(),
  askerRole: fc.constantFrom<Role>("owner", "admin"),
  memberRole: role,
  hasEmail: fc.boolean(),
  active: fc.boolean(),
  sinceMs: fc.integer({ min: 0, max: 2 * Chat.inviteWaitMs }),
}).map((c) => {
  const member: TeamMember = {
    id: "member-1",
    applicationId: "app" as ApplicationId,
    name: null,
    email: c.hasEmail ? "sara@shop.sa" : null,
    mobile: null,
    role: c.memberRole,
    status: c.active ? "active" : "invited",
    invitedAt: (now - c.sinceMs) as Millis,
    joinedAt: null,
    createdAt: 0 as Millis,
    invitationHash: null,
  }
  const asker: Asker = { memberId: c.self ? "member-1" : "member-2", role: c.askerRole, email: "other@shop.sa" }
  return { c, member, asker }
})

describe("DECISIONS 10: invite refusals in order — self_edit, above_own_role, no_email, already_joined, invite_wait", () => {
  it("answers the first condition that holds, in that order, else the member's e-mail", () => {
    fc.assert(
      fc.property(situation, ({ c, member, asker }) => {
        const expected = c.self
          ? "self_edit"
          : rank[c.memberRole] > rank[c.askerRole]
          ? "above_own_role"
          : !c.hasEmail
          ? "no_email"
          : c.active
          ? "already_joined"
          : c.sinceMs < Chat.inviteWaitMs
          ? "invite_wait"
          : undefined
        const got = vetInvite(asker, member, now, again)
        expect(Either.isLeft(got) ? got.left._tag : undefined).toBe(expected)
        if (Either.isRight(got)) expect(got.right).toBe("sara@shop.sa")
      }),
    )
  })

  it("invite_wait says the seconds left, rounded up, in the body and for Retry-After, and next is the same call", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Chat.inviteWaitMs - 1 }), (sinceMs) => {
        const member: TeamMember = {
          id: "m",
          applicationId: "app" as ApplicationId,
          name: null,
          email: "sara@shop.sa",
          mobile: null,
          role: "agent",
          status: "invited",
          invitedAt: (now - sinceMs) as Millis,
          joinedAt: null,
          createdAt: 0 as Millis,
          invitationHash: null,
        }
        const got = vetInvite({ memberId: null, role: "owner", email: null }, member, now, again)
        if (Either.isRight(got) || got.left._tag !== "invite_wait") throw new Error("expected invite_wait")
        const seconds = Math.ceil((Chat.inviteWaitMs - sinceMs) / 1000)
        expect(got.left.retry_after_seconds).toBe(seconds)
        expect(got.left.retry_after).toBe(seconds)
        expect(got.left.next).toEqual(again)
      }),
    )
  })
})

describe("DECISIONS 9.4: an add — self_edit, then above_own_role, then someone already there (200), else a new member", () => {
  const request = (r: AddRequest["role"], email = "new@shop.sa"): AddRequest => ({
    contact: { _tag: "Email", email },
    name: null,
    role: r,
  })
  const existing = (r: Role, id = "m-9"): Option.Option<TeamMember> =>
    Option.some({
      id,
      applicationId: "app" as ApplicationId,
      name: null,
      email: "new@shop.sa",
      mobile: null,
      role: r,
      status: "invited",
      invitedAt: 0 as Millis,
      joinedAt: null,
      createdAt: 0 as Millis,
      invitationHash: null,
    })
  const admin: Asker = { memberId: "m-1", role: "admin", email: "admin@shop.sa" }

  it("self_edit: the asker's own e-mail (any case) or own person, before above_own_role", () => {
    const own = vetAdd(admin, request("agent", "admin@shop.sa"), existing("owner", "m-1"))
    expect(Either.isLeft(own) && own.left._tag).toBe("self_edit")
    const person = vetAdd(admin, request("agent"), existing("owner", "m-1"))
    expect(Either.isLeft(person) && person.left._tag).toBe("self_edit")
  })

  it("above_own_role: a role above the asker's, asked (an agent's rules) or held by the person named", () => {
    const agent: Asker = { memberId: "m-3", role: "agent", email: null }
    const asked = vetAdd(agent, request("admin"), Option.none())
    expect(Either.isLeft(asked) && asked.left._tag).toBe("above_own_role")
    const held = vetAdd(admin, request("agent"), existing("owner"))
    expect(Either.isLeft(held) && held.left._tag).toBe("above_own_role")
  })

  it("someone already in the team at or below the asker's role is answered as they are; nobody: a new member", () => {
    expect(vetAdd(admin, request("admin"), existing("agent"))).toEqual(Either.right(existing("agent")))
    expect(vetAdd(admin, request("admin"), Option.none())).toEqual(Either.right(Option.none()))
  })
})

describe("the add's body: exactly one of email and mobile", () => {
  it("reads an e-mail lower-cased and a mobile in E.164; refuses neither, both, and a mobile that is not Saudi", () => {
    expect(addRequest({ email: " Sara@Shop.SA ", role: "agent" })).toEqual(
      Either.right({ contact: { _tag: "Email", email: "sara@shop.sa" }, name: null, role: "agent" }),
    )
    expect(addRequest({ mobile: "0551234567", name: " Ali ", role: "admin" })).toEqual(
      Either.right({ contact: { _tag: "Mobile", mobile: "+966551234567" }, name: "Ali", role: "admin" }),
    )
    const codes = (b: Parameters<typeof addRequest>[0]) => {
      const r = addRequest(b)
      return Either.isLeft(r) ? r.left.errors : undefined
    }
    expect(codes({ role: "agent" })).toEqual({ email: "required" })
    expect(codes({ email: "a@b.sa", mobile: "0551234567", role: "agent" })).toEqual({ mobile: "invalid" })
    expect(codes({ mobile: "+14155550100", role: "agent" })).toEqual({ mobile: "invalid" })
  })
})
