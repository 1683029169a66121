import { assert } from "@effect/vitest"
import { Deferred, Effect, Fiber, Option } from "effect"
import type { AccountId, EventId, Millis, SaudiMobile } from "../../core/shared/brands.ts"
import type { Verification } from "../../core/verify/model.ts"
import { defaultSettings } from "../../core/verify/settings.ts"
import {
  OutboxRepo,
  SandboxDestinationsRepo,
  Transactor,
  VerificationsRepo,
  VerifySendsRepo,
  VerifySettingsRepo,
  WalletRepo,
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

  it.effect(
    "verify sends: the rolling caps count what was recorded in the last hour, per destination and client IP; " +
      "the day's spend is admitted up to the cap; release and uncount take a send back from every count",
    () =>
      Effect.gen(function* () {
        const sends = yield* VerifySendsRepo
        const settings = yield* VerifySettingsRepo
        const tx = yield* Transactor
        const app = application(uuid() as AccountId)
        yield* settings.put(app.id, { ...defaultSettings, hourly_cap_per_destination: 2, max_per_ip_per_hour: 3 })
        const hour = 3_600_000
        const t = 10 * hour
        const slot = (at: number) => ({
          applicationId: app.id,
          epoch: 0 as Millis,
          minute: (Math.floor(at / 60_000) * 60_000) as Millis,
        })
        /** One send in its own transaction, rolled back when a gate refuses it; answers which gate did. */
        const attempt = (v: Verification, at: number, cap: number | null = null) =>
          tx.withTransaction(Effect.gen(function* () {
            const claimed = yield* sends.claimCaps({
              applicationId: app.id,
              to: v.to,
              clientIp: v.clientIp,
              now: at as Millis,
              since: (at - hour) as Millis,
              defaults: defaultSettings,
            })
            if (!claimed.destination) return yield* Effect.fail("rate_limited")
            if (!claimed.clientIp) return yield* Effect.fail("ip_rate_limited")
            assert.strictEqual(Option.getOrThrow(claimed.settings).hourly_cap_per_destination, 2)
            const recorded = yield* sends.record({
              send: send(v, at),
              verification: { _tag: "Insert", value: v },
              spend: { dayStart: 0 as Millis, capHalalas: cap },
              guard: slot(at),
              guardSince: (at - hour) as Millis,
              charge: null,
            })
            if (!recorded.spendAdmitted) return yield* Effect.fail("spend_cap_reached")
            return recorded.guard
          })).pipe(Effect.flip, Effect.orElseSucceed(() => "sent"))
        const a = "+966500000011" as SaudiMobile
        const b = "+966500000012" as SaudiMobile
        const c = "+966500000013" as SaudiMobile
        const d = "+966500000014" as SaudiMobile
        const to = (dest: SaudiMobile, clientIp: string | null = "203.0.113.9") =>
          verification(app, { to: dest, clientIp })
        assert.strictEqual(yield* attempt(to(a), t), "sent")
        assert.strictEqual(yield* attempt(to(a), t + 1), "sent")
        assert.strictEqual(yield* attempt(to(a), t + 2), "rate_limited")
        assert.strictEqual(yield* attempt(to(b), t + 3), "sent")
        assert.strictEqual(yield* attempt(to(c), t + 4), "ip_rate_limited")
        // The first send leaves the rolling hour only once it is more than an hour old.
        assert.strictEqual(yield* attempt(to(a, null), t + hour), "rate_limited")
        assert.strictEqual(yield* attempt(to(a, null), t + hour + 1), "sent")
        // Four priced sends (36 halalas) so far: a fifth passes a cap of 40, fits one of 45.
        assert.strictEqual(yield* attempt(to(d, null), t + hour + 2, 40), "spend_cap_reached")
        const last = to(d, null)
        assert.strictEqual(yield* attempt(last, t + hour + 2, 45), "sent")
        assert.strictEqual(yield* attempt(to(c, null), t + hour + 3, 45), "spend_cap_reached")
        // The guard counts the sends of the minutes that began within the hour (the first minute has left).
        assert.deepStrictEqual(yield* sends.guardStats(app.id, 0 as Millis, (t + hour - 60_000) as Millis), {
          sends: 2,
          verified: 0,
        })
        assert.deepStrictEqual(yield* sends.guardStats(app.id, 0 as Millis, t as Millis), { sends: 5, verified: 0 })
        // An unpause begins a new epoch: the sends before it are not counted in it.
        const unpausedAt = (t + hour + 10) as Millis
        assert.deepStrictEqual(yield* sends.guardStats(app.id, unpausedAt, t as Millis), { sends: 0, verified: 0 })
        // Withdrawn, the last send counts toward no spend, cap or guard.
        yield* sends.release(send(last, t + hour + 2))
        yield* sends.uncount(send(last, t + hour + 2), { dayStart: 0 as Millis, guard: slot(t + hour + 2) })
        assert.deepStrictEqual(yield* sends.guardStats(app.id, 0 as Millis, t as Millis), { sends: 4, verified: 0 })
        assert.strictEqual(yield* attempt(to(c, null), t + hour + 3, 45), "sent")
        assert.strictEqual(yield* attempt(to(d, null), t + hour + 4), "sent")
      }),
  )

  it.effect(
    "verify sends: a priced record takes the charge in the same step, first: with the wallet short nothing else is judged",
    () =>
      Effect.gen(function* () {
        const sends = yield* VerifySendsRepo
        const wallet = yield* WalletRepo
        const tx = yield* Transactor
        const app = application(uuid() as AccountId)
        yield* wallet.add({
          accountId: app.accountId,
          kind: "credit",
          amountHalalas: 10,
          product: null,
          reference: null,
          at: 1,
        })
        const priced = (v: Verification, at: number) =>
          tx.withTransaction(
            sends.record({
              send: send(v, at),
              verification: { _tag: "Insert", value: v },
              spend: { dayStart: 0 as Millis, capHalalas: null },
              guard: { applicationId: app.id, epoch: 0 as Millis, minute: 0 as Millis },
              guardSince: 0 as Millis,
              charge: {
                accountId: app.accountId,
                kind: "charge",
                amountHalalas: -9,
                product: "verify",
                reference: v.id,
                at: at as Millis,
              },
            }).pipe(Effect.tap((r) => (Option.isSome(r.charged ?? Option.none()) ? Effect.void : Effect.fail(r)))),
          ).pipe(Effect.either)
        const first = yield* priced(verification(app), 1_000)
        assert.isTrue(first._tag === "Right")
        if (first._tag === "Right") {
          assert.deepStrictEqual(Option.map(first.right.charged!, (c) => c.balance), Option.some(1))
          assert.deepStrictEqual(first.right.guard, { sends: 1, verified: 0 })
        }
        const second = yield* priced(verification(app), 2_000)
        assert.isTrue(second._tag === "Left")
        if (second._tag === "Left") {
          assert.isTrue(Option.isNone((second.left as { charged: Option.Option<unknown> }).charged))
        }
        assert.strictEqual(yield* wallet.balance(app.accountId), 1)
        assert.isTrue(yield* sends.spendAdmits(app.id, 0 as Millis, 9, 18))
        assert.isFalse(yield* sends.spendAdmits(app.id, 0 as Millis, 9, 17))
        assert.deepStrictEqual(yield* sends.guardStats(app.id, 0 as Millis, 0 as Millis), { sends: 1, verified: 0 })
      }),
  )

  it.effect(
    "verifications: a transition is a compare-and-set: it applies (with its events) only while the row holds the state it was decided on",
    () =>
      Effect.gen(function* () {
        const repo = yield* VerificationsRepo
        const sends = yield* VerifySendsRepo
        const outbox = yield* OutboxRepo
        const app = application(uuid() as AccountId)
        const v = verification(app, { status: "pending", attempts: 0 })
        yield* repo.insert(v)
        const wrong = { ...v, attempts: 1, updatedAt: v.updatedAt + 1 }
        assert.isTrue(yield* repo.transition(v, wrong, [], null))
        assert.deepStrictEqual(yield* repo.get(v.id), Option.some(wrong))
        // Decided on the old state: refused, nothing written.
        const stale = { ...v, status: "verified" as const, attempts: 1, verifiedAt: v.updatedAt + 2 }
        assert.isFalse(yield* repo.transition(v, stale, [], null))
        assert.deepStrictEqual(yield* repo.get(v.id), Option.some(wrong))
        const verified = { ...wrong, status: "verified" as const, attempts: 2, verifiedAt: wrong.updatedAt + 5 }
        const event = {
          id: uuid() as EventId,
          event: "verification.verified",
          data: { id: v.id, status: "verified" },
          applicationId: app.id,
          accountId: app.accountId,
          externalId: null,
          createdAt: verified.verifiedAt as Millis,
        }
        const minute = (Math.floor(v.createdAt / 60_000) * 60_000) as Millis
        yield* sends.insert(send(v, v.createdAt))
        assert.isTrue(
          yield* repo.transition(wrong, verified, [event], {
            applicationId: app.id,
            epoch: 0 as Millis,
            minute,
            count: 1,
          }),
        )
        assert.deepStrictEqual(yield* repo.get(v.id), Option.some(verified))
        assert.deepStrictEqual((yield* outbox.listRecent(1))[0], event)
        assert.strictEqual((yield* sends.guardStats(app.id, 0 as Millis, minute)).verified, 1)
        // A transition to a verification that is gone answers false.
        yield* repo.delete(v.id)
        assert.isFalse(yield* repo.transition(verified, { ...verified, status: "canceled" }, [], null))
      }),
  )

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
