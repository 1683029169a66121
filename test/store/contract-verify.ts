import { assert } from "@effect/vitest"
import { Deferred, Effect, Fiber, Option } from "effect"
import type { AccountId, SaudiMobile } from "../../core/shared/brands.ts"
import type { Verification } from "../../core/verify/model.ts"
import { defaultSettings } from "../../core/verify/settings.ts"
import {
  SandboxDestinationsRepo,
  Transactor,
  VerificationsRepo,
  VerifySendsRepo,
  VerifySettingsRepo,
} from "../../ports/store/mod.ts"
import { application, type ContractOptions, type It, send, uuid, verification } from "./fixtures.ts"

const ids = (vs: ReadonlyArray<Verification>) => vs.map((v) => v.id)

export const verifyContract = (it: It, options: ContractOptions) => {
  it.effect("verifications: insert, get, getForUpdate, update, delete", () =>
    Effect.gen(function* () {
      const repo = yield* VerificationsRepo
      const tx = yield* Transactor
      const v = verification(application(uuid() as AccountId), { reference: null, clientIp: null })
      yield* repo.insert(v)
      assert.deepStrictEqual(yield* repo.get(v.id), Option.some(v))
      assert.deepStrictEqual(yield* tx.withTransaction(repo.getForUpdate(v.id)), Option.some(v))
      const verified = {
        ...v,
        status: "verified" as const,
        attempts: 1,
        verifiedAt: 1_700_000_100_000,
        updatedAt: 1_700_000_100_000,
      }
      yield* repo.update(verified)
      assert.deepStrictEqual(yield* repo.get(v.id), Option.some(verified))
      yield* repo.delete(v.id)
      assert.isTrue(Option.isNone(yield* repo.get(v.id)))
      assert.isTrue(Option.isNone(yield* tx.withTransaction(repo.getForUpdate(v.id))))
    }))

  it.effect("verifications: lockExpirable takes pending ones expired by `before`, oldest first, up to the limit", () =>
    Effect.gen(function* () {
      const repo = yield* VerificationsRepo
      const tx = yield* Transactor
      const app = application(uuid() as AccountId)
      const due = [1_300, 1_100, 1_200].map((expiresAt) => verification(app, { expiresAt }))
      const others = [
        verification(app, { expiresAt: 1_000, status: "verified" }),
        verification(app, { expiresAt: 1_000, status: "canceled" }),
        verification(app, { expiresAt: 1_500 }),
      ]
      yield* Effect.forEach([...due, ...others], repo.insert)
      const byExpiry = [due[1], due[2], due[0]]
      assert.deepStrictEqual(ids(yield* tx.withTransaction(repo.lockExpirable(1_400, 10))), ids(byExpiry))
      assert.deepStrictEqual(yield* tx.withTransaction(repo.lockExpirable(1_400, 2)), byExpiry.slice(0, 2))
      assert.deepStrictEqual(yield* tx.withTransaction(repo.lockExpirable(1_000, 10)), [])
      // Leave nothing expirable for the other sweep test.
      yield* Effect.forEach([...due, others[2]], (v) => repo.delete(v.id))
    }))

  if (options.concurrentTransactions) {
    it.effect("verifications: two concurrent sweeps lock disjoint rows (SKIP LOCKED)", () =>
      Effect.gen(function* () {
        const repo = yield* VerificationsRepo
        const tx = yield* Transactor
        const app = application(uuid() as AccountId)
        const due = [3_001, 3_002, 3_003, 3_004].map((expiresAt) => verification(app, { expiresAt }))
        yield* Effect.forEach(due, repo.insert)
        const locked = yield* Deferred.make<ReadonlyArray<Verification>>()
        const release = yield* Deferred.make<void>()
        const first = yield* Effect.fork(tx.withTransaction(Effect.gen(function* () {
          yield* Deferred.succeed(locked, yield* repo.lockExpirable(3_500, 2))
          yield* Deferred.await(release)
        })))
        const a = yield* Deferred.await(locked)
        const b = yield* tx.withTransaction(repo.lockExpirable(3_500, 10))
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(first)
        assert.deepStrictEqual(ids(a), ids(due.slice(0, 2)))
        assert.deepStrictEqual(ids(b), ids(due.slice(2)))
        yield* Effect.forEach(due, (v) => repo.delete(v.id))
      }))
  }

  it.effect("verifications: countSandboxStarts counts test and partner_test verifications of the application", () =>
    Effect.gen(function* () {
      const repo = yield* VerificationsRepo
      const app = application(uuid() as AccountId)
      const modes = ["test", "partner_test", "live", "partner", "test"] as const
      yield* Effect.forEach(modes, (mode) => repo.insert(verification(app, { mode })))
      yield* repo.insert(verification(application(app.accountId), { mode: "test" }))
      assert.strictEqual(yield* repo.countSandboxStarts(app.id), 3)
      assert.strictEqual(yield* repo.countSandboxStarts(uuid() as typeof app.id), 0)
    }))

  it.effect("verify sends: rolling counts by destination and IP, spend, guard stats, delete one send", () =>
    Effect.gen(function* () {
      const verifications = yield* VerificationsRepo
      const sends = yield* VerifySendsRepo
      const app = application(uuid() as AccountId)
      const other = "+966500000003" as SaudiMobile
      const v1 = verification(app, { status: "verified" })
      const v2 = verification(app, { to: other, clientIp: "198.51.100.1" })
      const v3 = verification(app, { clientIp: null })
      yield* Effect.forEach([v1, v2, v3], verifications.insert)
      yield* Effect.forEach([
        send(v1, 1_000),
        send(v1, 2_000),
        send(v2, 2_000),
        send(v3, 3_000),
        send(v3, 3_000),
        send(verification(application(app.accountId)), 3_000),
      ], sends.insert)
      assert.strictEqual(yield* sends.countToDestination(app.id, v1.to, 0), 4)
      assert.strictEqual(yield* sends.countToDestination(app.id, v1.to, 2_000), 3)
      assert.strictEqual(yield* sends.countToDestination(app.id, other, 2_001), 0)
      assert.strictEqual(yield* sends.countFromIp(app.id, "203.0.113.9", 0), 2)
      assert.strictEqual(yield* sends.countFromIp(app.id, "198.51.100.1", 0), 1)
      assert.strictEqual(yield* sends.spendSince(app.id, 2_000), 36)
      assert.strictEqual(yield* sends.spendSince(uuid() as typeof app.id, 0), 0)
      assert.deepStrictEqual(yield* sends.guardStats(app.id, 0), { sends: 5, verified: 2 })
      assert.deepStrictEqual(yield* sends.guardStats(app.id, 1_500), { sends: 4, verified: 1 })
      yield* sends.delete(v3.id, 3_000)
      assert.deepStrictEqual(yield* sends.guardStats(app.id, 0), { sends: 4, verified: 2 })
      yield* sends.delete(v3.id, 3_000)
      yield* sends.delete(v3.id, 3_000)
      assert.strictEqual(yield* sends.spendSince(app.id, 0), 27)
    }))

  it.effect("verify settings: none until put; put replaces", () =>
    Effect.gen(function* () {
      const repo = yield* VerifySettingsRepo
      const appId = application(uuid() as AccountId).id
      const settings = defaultSettings
      assert.isTrue(Option.isNone(yield* repo.get(appId)))
      yield* repo.put(appId, settings)
      assert.deepStrictEqual(yield* repo.get(appId), Option.some(settings))
      const changed = { ...settings, code_length: 8, daily_spend_cap_halalas: 5_000 }
      yield* repo.put(appId, changed)
      assert.deepStrictEqual(yield* repo.get(appId), Option.some(changed))
    }))

  it.effect("sandbox destinations: add is idempotent; has is per account", () =>
    Effect.gen(function* () {
      const repo = yield* SandboxDestinationsRepo
      const accountId = uuid() as AccountId
      const to = "+966500000000" as SaudiMobile
      assert.isFalse(yield* repo.has(accountId, to))
      yield* repo.add(accountId, to)
      yield* repo.add(accountId, to)
      assert.isTrue(yield* repo.has(accountId, to))
      assert.isFalse(yield* repo.has(uuid() as AccountId, to))
      assert.isFalse(yield* repo.has(accountId, "+966500000001" as SaudiMobile))
    }))
}
