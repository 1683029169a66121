/**
 * Chat's team in the store contract (run from ./chat.ts, the product's contract): members by application and
 * contact, one e-mail and one mobile per team, invitations that replace each other, joining once, the page that
 * leaves out a token's person's e-mail, and the tokens' persons read from the credentials.
 */
import { assert } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { TeamMember } from "../../core/chat/team.ts"
import type { AccountId, ApplicationId, Millis, SaudiMobile } from "../../core/shared/brands.ts"
import { CredentialsRepo } from "../../ports/store/credentials.ts"
import { AccountsRepo, ApplicationsRepo } from "../../ports/store/mod.ts"
import { ChatTeamRepo } from "../../ports/store/chat-team.ts"
import { account, application, type ContractOptions, credential, type It, uuid } from "./fixtures.ts"

const member = (over: Partial<TeamMember> = {}): TeamMember => ({
  id: uuid(),
  applicationId: uuid() as ApplicationId,
  name: "Sara",
  email: `${uuid()}@shop.sa`,
  mobile: null,
  role: "agent",
  status: "invited",
  invitedAt: 1_000 as Millis,
  joinedAt: null,
  createdAt: 1_000 as Millis,
  invitationHash: `hash-${uuid()}`,
  ...over,
})

export const teamContract = (it: It, _options: ContractOptions) => {
  it.effect("chat team: insert, get and find by contact within the application; one e-mail and one mobile each", () =>
    Effect.gen(function* () {
      const repo = yield* ChatTeamRepo
      const byMail = member()
      const byMobile = member({
        applicationId: byMail.applicationId,
        email: null,
        mobile: "+966551234567" as SaudiMobile,
      })
      assert.isTrue(yield* repo.insert(byMail))
      assert.isTrue(yield* repo.insert(byMobile))
      assert.deepStrictEqual(yield* repo.get(byMail.applicationId, byMail.id), Option.some(byMail))
      assert.isTrue(Option.isNone(yield* repo.get(uuid() as ApplicationId, byMail.id)))
      assert.deepStrictEqual(
        yield* repo.byContact(byMail.applicationId, { _tag: "Email", email: byMail.email! }),
        Option.some(byMail),
      )
      assert.deepStrictEqual(
        yield* repo.byContact(byMail.applicationId, { _tag: "Mobile", mobile: byMobile.mobile! }),
        Option.some(byMobile),
      )
      assert.isFalse(yield* repo.insert(member({ applicationId: byMail.applicationId, email: byMail.email })))
      assert.isFalse(
        yield* repo.insert(member({ applicationId: byMail.applicationId, email: null, mobile: byMobile.mobile })),
      )
      // Another application's team may hold the same person.
      assert.isTrue(yield* repo.insert(member({ email: byMail.email })))
    }))

  it.effect("chat team: a new invitation only after `since`, replacing the link; restore, join once, remove", () =>
    Effect.gen(function* () {
      const repo = yield* ChatTeamRepo
      const m = member()
      yield* repo.insert(m)
      assert.isFalse(yield* repo.reinvite(m.id, 2_000 as Millis, "hash-new", 999 as Millis))
      assert.isTrue(yield* repo.reinvite(m.id, 2_000 as Millis, "hash-new", 1_000 as Millis))
      assert.isTrue(Option.isNone(yield* repo.byInvitation(m.invitationHash!)))
      const renewed = yield* repo.byInvitation("hash-new")
      assert.deepStrictEqual(renewed, Option.some({ ...m, invitedAt: 2_000 as Millis, invitationHash: "hash-new" }))
      yield* repo.restore(m)
      assert.deepStrictEqual(yield* repo.get(m.applicationId, m.id), Option.some(m))
      yield* repo.join(m.id, 3_000 as Millis)
      yield* repo.join(m.id, 4_000 as Millis)
      assert.deepStrictEqual(
        yield* repo.get(m.applicationId, m.id),
        Option.some({ ...m, status: "active", joinedAt: 3_000 as Millis }),
      )
      yield* repo.remove(m.id)
      assert.isTrue(Option.isNone(yield* repo.get(m.applicationId, m.id)))
    }))

  it.effect("chat team: the tokens' persons, one each, their highest role; the page leaves out their e-mails", () =>
    Effect.gen(function* () {
      const repo = yield* ChatTeamRepo
      const credentials = yield* CredentialsRepo
      const accountId = uuid() as AccountId
      const sara = uuid()
      const token = (memberId: string, role: "owner" | "admin" | "agent", email: string | null, createdAt: number) =>
        credential(accountId, null, {
          kind: "account_token",
          mode: null,
          access: "full",
          ipAllowlist: [],
          holder: { memberId, role, email, manageContacts: true },
          createdAt,
        })
      yield* credentials.insert(token(sara, "agent", "Sara@Shop.sa", 10))
      yield* credentials.insert(token(sara, "admin", "sara@shop.sa", 20))
      const ali = uuid()
      yield* credentials.insert(token(ali, "owner", null, 15))
      const revoked = token(uuid(), "owner", "gone@shop.sa", 5)
      yield* credentials.insert(revoked)
      yield* credentials.revoke(revoked.id, 6 as Millis)
      assert.deepStrictEqual(yield* repo.holders(accountId), [
        { memberId: sara, email: "sara@shop.sa", role: "admin", since: 10 as Millis },
        { memberId: ali, email: null, role: "owner", since: 15 as Millis },
      ])
      const app = uuid() as ApplicationId
      const ids = ["00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"]
      const first = member({ id: ids[1], applicationId: app, createdAt: 1 as Millis })
      const tie = member({ id: ids[0], applicationId: app, createdAt: 2 as Millis })
      const later = member({ applicationId: app, createdAt: 2 as Millis, id: "00000000-0000-4000-8000-000000000003" })
      const holderMail = member({ applicationId: app, email: "sara@shop.sa", createdAt: 0 as Millis })
      const gone = member({ applicationId: app, email: "gone@shop.sa", createdAt: 3 as Millis })
      yield* Effect.forEach([later, first, tie, holderMail, gone], repo.insert)
      assert.deepStrictEqual(yield* repo.page(app, accountId, null, 10), [first, tie, later, gone])
      assert.deepStrictEqual(yield* repo.page(app, accountId, null, 2), [first, tie])
      assert.deepStrictEqual(yield* repo.page(app, accountId, { createdAt: tie.createdAt, id: tie.id }, 10), [
        later,
        gone,
      ])
    }))

  it.effect("chat team: the active count: the tokens' persons not revoked and the joined members, a person counted once", () =>
    Effect.gen(function* () {
      const repo = yield* ChatTeamRepo
      const credentials = yield* CredentialsRepo
      const a = account()
      yield* (yield* AccountsRepo).insert(a)
      const app = application(a.id)
      yield* (yield* ApplicationsRepo).insert(app)
      assert.strictEqual(yield* repo.activeCount(app.id), 0)
      const token = (memberId: string, email: string | null) =>
        credential(a.id, null, {
          kind: "account_token",
          mode: null,
          access: "full",
          ipAllowlist: [],
          holder: { memberId, role: "agent", email, manageContacts: true },
        })
      // One person with two tokens, one without an e-mail, one whose only token is revoked.
      const sara = uuid()
      yield* credentials.insert(token(sara, "Sara@Shop.sa"))
      yield* credentials.insert(token(sara, "sara@shop.sa"))
      yield* credentials.insert(token(uuid(), null))
      const revoked = token(uuid(), "gone@shop.sa")
      yield* credentials.insert(revoked)
      yield* credentials.revoke(revoked.id, 6 as Millis)
      assert.strictEqual(yield* repo.activeCount(app.id), 2)
      // Members: joined (counted), invited (not), joined with a token's person's e-mail (once), joined by mobile,
      // joined with the revoked person's e-mail (counted: no token of theirs is live), another application's.
      const joined = member({ applicationId: app.id })
      const invited = member({ applicationId: app.id })
      const holderMail = member({ applicationId: app.id, email: "sara@shop.sa" })
      const byMobile = member({ applicationId: app.id, email: null, mobile: "+966551234567" as SaudiMobile })
      const goneMail = member({ applicationId: app.id, email: "gone@shop.sa" })
      const elsewhere = member()
      yield* Effect.forEach([joined, invited, holderMail, byMobile, goneMail, elsewhere], repo.insert)
      yield* Effect.forEach(
        [joined, holderMail, byMobile, goneMail, elsewhere],
        (m) => repo.join(m.id, 2_000 as Millis),
      )
      assert.strictEqual(yield* repo.activeCount(app.id), 2 + 3)
      // Another application of the same account shares the tokens' persons, not the members.
      const sibling = application(a.id)
      yield* (yield* ApplicationsRepo).insert(sibling)
      assert.strictEqual(yield* repo.activeCount(sibling.id), 2)
    }))
}
