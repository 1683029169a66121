import { assert } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { KeyId } from "../../../core/shared/brands.ts"
import { AccountsRepo, ApplicationsRepo, CredentialsRepo, Transactor } from "../../../ports/store/mod.ts"
import { account, application, credential, isDefect, type It, uuid } from "../fixtures.ts"

export const contract = (it: It) => {
  it.effect("accounts: insert, get, count; an unknown id reads as none; a duplicate id is a defect", () =>
    Effect.gen(function* () {
      const accounts = yield* AccountsRepo
      const before = yield* accounts.count
      const a = account({ sandboxOnly: true, partner: true, status: "suspended" })
      yield* accounts.insert(a)
      yield* accounts.insert(account())
      assert.deepStrictEqual(yield* accounts.get(a.id), Option.some(a))
      assert.strictEqual(yield* accounts.count, before + 2)
      assert.isTrue(Option.isNone(yield* accounts.get(uuid() as typeof a.id)))
      assert.isTrue(isDefect(yield* Effect.exit(accounts.insert(a))))
    }))

  it.effect("accounts: oldest is the account made first (ties by id), none on an empty store", () =>
    Effect.gen(function* () {
      const accounts = yield* AccountsRepo
      const before = yield* accounts.oldest
      if ((yield* accounts.count) === 0) assert.isTrue(Option.isNone(before))
      const early = account({ createdAt: 1_000 })
      const tie = account({ createdAt: 1_000 })
      yield* accounts.insert(account({ createdAt: 2_000 }))
      yield* accounts.insert(tie)
      yield* accounts.insert(early)
      const first = early.id < tie.id ? early : tie
      assert.deepStrictEqual(yield* accounts.oldest, Option.some(first))
    }))

  it.effect("applications: insert, get, getForUpdate, update (created_at kept)", () =>
    Effect.gen(function* () {
      const apps = yield* ApplicationsRepo
      const tx = yield* Transactor
      const a = account()
      const app = application(a.id, { status: "pending", externalId: "ext-1" })
      yield* apps.insert(app)
      assert.deepStrictEqual(yield* apps.get(app.id), Option.some(app))
      assert.deepStrictEqual(yield* tx.withTransaction(apps.getForUpdate(app.id)), Option.some(app))
      const changed = { ...app, status: "active" as const, paused: true, externalId: null, name: "Renamed" }
      yield* apps.update({ ...changed, createdAt: 5 })
      assert.deepStrictEqual(yield* apps.get(app.id), Option.some(changed))
      assert.isTrue(Option.isNone(yield* apps.get(uuid() as typeof app.id)))
      assert.isTrue(Option.isNone(yield* tx.withTransaction(apps.getForUpdate(uuid() as typeof app.id))))
    }))

  it.effect("applications: findInAccount by id or external id, only within the account; the id wins", () =>
    Effect.gen(function* () {
      const apps = yield* ApplicationsRepo
      const a = account()
      const first = application(a.id, { externalId: "client-7" })
      const second = application(a.id, { externalId: first.id })
      const elsewhere = application(account().id, { externalId: "client-9" })
      yield* Effect.forEach([first, second, elsewhere], apps.insert)
      assert.deepStrictEqual(yield* apps.findInAccount(a.id, first.id), Option.some(first))
      assert.deepStrictEqual(yield* apps.findInAccount(a.id, "client-7"), Option.some(first))
      assert.deepStrictEqual(yield* apps.findInAccount(a.id, second.id), Option.some(second))
      assert.isTrue(Option.isNone(yield* apps.findInAccount(a.id, "client-9")))
      assert.isTrue(Option.isNone(yield* apps.findInAccount(a.id, elsewhere.id)))
      assert.isTrue(Option.isNone(yield* apps.findInAccount(a.id, "not a uuid")))
    }))

  it.effect("credentials: findByHash joins account and application; partner keys have none", () =>
    Effect.gen(function* () {
      const accounts = yield* AccountsRepo
      const apps = yield* ApplicationsRepo
      const credentials = yield* CredentialsRepo
      const a = account()
      const app = application(a.id, { externalId: "x" })
      yield* accounts.insert(a)
      yield* apps.insert(app)
      const key = credential(a.id, app.id, { expiresAt: 1_800_000_000_000, appName: "Zapier" })
      const partner = credential(a.id, null, { mode: "partner", access: "full", ipAllowlist: [] })
      const token = credential(a.id, null, { kind: "account_token", mode: null, access: "check" })
      yield* Effect.forEach([key, partner, token], credentials.insert)
      assert.deepStrictEqual(
        yield* credentials.findByHash(key.hash),
        Option.some({ credential: key, account: a, application: app }),
      )
      assert.deepStrictEqual(
        yield* credentials.findByHash(partner.hash),
        Option.some({ credential: partner, account: a, application: null }),
      )
      assert.deepStrictEqual(
        yield* credentials.findByHash(token.hash),
        Option.some({ credential: token, account: a, application: null }),
      )
      assert.isTrue(Option.isNone(yield* credentials.findByHash("unknown")))
      // No account row: nothing to authenticate against.
      const orphan = credential(uuid() as typeof a.id, null)
      yield* credentials.insert(orphan)
      assert.isTrue(Option.isNone(yield* credentials.findByHash(orphan.hash)))
      assert.isTrue(isDefect(yield* Effect.exit(credentials.insert({ ...key, id: uuid() as KeyId }))))
    }))

  it.effect("credentials: present counts the request in the hash's window and reads what findByHash reads", () =>
    Effect.gen(function* () {
      const accounts = yield* AccountsRepo
      const apps = yield* ApplicationsRepo
      const credentials = yield* CredentialsRepo
      const a = account()
      const app = application(a.id)
      yield* accounts.insert(a)
      yield* apps.insert(app)
      const key = credential(a.id, app.id)
      const partner = credential(a.id, null, { mode: "partner", access: "full", ipAllowlist: [] })
      const orphan = credential(uuid() as typeof a.id, null)
      yield* Effect.forEach([key, partner, orphan], credentials.insert)
      assert.deepStrictEqual(
        yield* credentials.present(key.hash, 60_000),
        { count: 1, found: Option.some({ credential: key, account: a, application: app }) },
      )
      assert.deepStrictEqual(
        yield* credentials.present(key.hash, 60_000),
        { count: 2, found: Option.some({ credential: key, account: a, application: app }) },
      )
      assert.deepStrictEqual(yield* credentials.present(key.hash, 120_000), {
        count: 1,
        found: Option.some({ credential: key, account: a, application: app }),
      })
      assert.deepStrictEqual(
        yield* credentials.present(partner.hash, 60_000),
        { count: 1, found: Option.some({ credential: partner, account: a, application: null }) },
      )
      // Unknown credentials and credentials without an account are counted all the same, and name nothing.
      const unknown = `unknown-${uuid()}`
      assert.deepStrictEqual(yield* credentials.present(unknown, 60_000), { count: 1, found: Option.none() })
      assert.deepStrictEqual(yield* credentials.present(unknown, 60_000), { count: 2, found: Option.none() })
      assert.deepStrictEqual(yield* credentials.present(orphan.hash, 60_000), { count: 1, found: Option.none() })
    }))

  it.effect("credentials: revoke stamps once and answers the credential; unknown ids answer none", () =>
    Effect.gen(function* () {
      const accounts = yield* AccountsRepo
      const credentials = yield* CredentialsRepo
      const a = account()
      yield* accounts.insert(a)
      const key = credential(a.id, null)
      yield* credentials.insert(key)
      const revoked = { ...key, revokedAt: 1_750_000_000_000 }
      assert.deepStrictEqual(yield* credentials.revoke(key.id, 1_750_000_000_000), Option.some(revoked))
      assert.deepStrictEqual(yield* credentials.revoke(key.id, 1_760_000_000_000), Option.some(revoked))
      assert.deepStrictEqual(
        Option.map(yield* credentials.findByHash(key.hash), (c) => c.credential),
        Option.some(revoked),
      )
      assert.isTrue(Option.isNone(yield* credentials.revoke(uuid() as KeyId, 1)))
    }))

  it.effect("accounts: recent lists the newest first (ties by the greater id), at most `limit`", () =>
    Effect.gen(function* () {
      const accounts = yield* AccountsRepo
      const far = 9_000_000_000_000
      const older = account({ createdAt: far })
      const tieA = account({ createdAt: far + 1 })
      const tieB = account({ createdAt: far + 1 })
      yield* Effect.forEach([older, tieA, tieB], accounts.insert)
      const [high, low] = tieA.id > tieB.id ? [tieA, tieB] : [tieB, tieA]
      assert.deepStrictEqual(yield* accounts.recent(3), [high, low, older])
      assert.deepStrictEqual(yield* accounts.recent(1), [high])
    }))

  it.effect("credentials: ofAccount lists an account's keys and tokens, revoked too, newest first; none of another's", () =>
    Effect.gen(function* () {
      const credentials = yield* CredentialsRepo
      const a = account()
      const first = credential(a.id, null, { createdAt: 1_000 })
      const second = credential(a.id, null, { createdAt: 2_000 })
      yield* Effect.forEach([first, second, credential(account().id, null)], credentials.insert)
      yield* credentials.revoke(first.id, 3_000 as any)
      const listed = yield* credentials.ofAccount(a.id)
      assert.deepStrictEqual(listed.map((c) => c.id), [second.id, first.id])
      assert.strictEqual(listed[1].revokedAt, 3_000)
      assert.deepStrictEqual(yield* credentials.ofAccount(account().id), [])
    }))
}
