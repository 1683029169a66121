import { assert } from "@effect/vitest"
import { Deferred, Effect, Fiber, Option } from "effect"
import type { AccountId, EventId, Millis, SaudiMobile } from "../../../core/shared/brands.ts"
import type { Verification, VerifySettings } from "../../../core/verify/model.ts"
import { minuteOf } from "../../../core/verify/guard.ts"
import { defaultSettings } from "../../../core/verify/settings.ts"
import {
  ApplicationsRepo,
  OutboxRepo,
  SandboxDestinationsRepo,
  Transactor,
  VerificationsRepo,
  VerifySendsRepo,
  VerifySettingsRepo,
  WalletRepo,
} from "../../../ports/store/mod.ts"
import type { SendAttempt, SendOutcome } from "../../../ports/store/verify.ts"
import { application, type ContractOptions, type It, send, uuid, verification } from "../fixtures.ts"

const ids = (vs: ReadonlyArray<Verification>) => vs.map((v) => v.id)

const hour = 3_600_000

export const contract = (it: It, options: ContractOptions) => {
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

  /** A send of `v` at `at` on the settings `prepared`, its spend capped at `cap` and charged when `charge`. */
  const attemptOf = (
    v: Verification,
    at: number,
    prepared: Option.Option<VerifySettings>,
    over: Partial<SendAttempt> = {},
  ): SendAttempt => {
    const settings = Option.getOrElse(prepared, () => defaultSettings)
    return {
      send: send(v, at),
      verification: { _tag: "Insert", value: v },
      settings: prepared,
      since: (at - hour) as Millis,
      caps: { destination: settings.hourly_cap_per_destination, clientIp: settings.max_per_ip_per_hour },
      spend: { dayStart: 0 as Millis, capHalalas: null },
      charge: null,
      guardMinute: minuteOf(at),
      guardSince: (at - hour) as Millis,
      ...over,
    }
  }

  /** A priced send's day spend (capped at `cap`) and charge of the fixtures' price (9 halalas), for `attemptOf`. */
  const pricedFor = (v: Verification, at: number, cap: number | null): Partial<SendAttempt> => ({
    spend: { dayStart: 0 as Millis, capHalalas: cap },
    charge: {
      accountId: v.accountId,
      kind: "charge",
      amountHalalas: -9,
      product: "verify",
      reference: v.id,
      at: at as Millis,
    },
  })

  /** Credits `amount` halalas to an account's wallet. */
  const credit = (accountId: AccountId, amount: number) =>
    Effect.flatMap(
      WalletRepo,
      (wallet) =>
        wallet.add({ accountId, kind: "credit", amountHalalas: amount, product: null, reference: null, at: 1 }),
    )

  /** The first refusal of an outcome in the pinned order, or "sent". */
  const verdict = (o: SendOutcome) =>
    o._tag === "Stale"
      ? "stale"
      : !o.destination
      ? "rate_limited"
      : !o.clientIp
      ? "ip_rate_limited"
      : !o.spendAdmitted
      ? "spend_cap_reached"
      : o.paused
      ? "application_paused"
      : o.charged !== null && Option.isNone(o.charged)
      ? "insufficient_credits"
      : "sent"

  it.effect(
    "verify sends: judged and written in one step: the rolling caps count what was recorded in the last hour, " +
      "per destination and client IP; the day's spend is admitted up to the cap; a refused send writes nothing; " +
      "release and uncount take a send back from every count",
    () =>
      Effect.gen(function* () {
        const sends = yield* VerifySendsRepo
        const verifications = yield* VerificationsRepo
        const settings = yield* VerifySettingsRepo
        const app = application(uuid() as AccountId)
        const saved = { ...defaultSettings, hourly_cap_per_destination: 2, max_per_ip_per_hour: 3 }
        yield* settings.put(app.id, saved)
        const t = 10 * hour
        const slot = (at: number) => ({ applicationId: app.id, epoch: 0 as Millis, minute: minuteOf(at) })
        /** One send; checks that it was written exactly when it was sent, and answers its verdict. */
        const attempt = (v: Verification, at: number, cap: number | null = null, prepared = Option.some(saved)) =>
          Effect.gen(function* () {
            const outcome = yield* sends.send(
              attemptOf(v, at, prepared, { spend: { dayStart: 0 as Millis, capHalalas: cap } }),
            )
            const result = verdict(outcome)
            assert.strictEqual(Option.isSome(yield* verifications.get(v.id)), result === "sent")
            return result
          })
        const a = "+966500000011" as SaudiMobile
        const b = "+966500000012" as SaudiMobile
        const c = "+966500000013" as SaudiMobile
        const d = "+966500000014" as SaudiMobile
        const to = (dest: SaudiMobile, clientIp: string | null = "203.0.113.9") =>
          verification(app, { to: dest, clientIp })
        // Prepared on settings that are not the saved ones: nothing is judged or written; the saved ones come back.
        const stale = yield* sends.send(attemptOf(to(a), t, Option.none()))
        assert.deepStrictEqual(stale, { _tag: "Stale", settings: Option.some(saved) })
        assert.strictEqual(yield* attempt(to(a), t, null, Option.some({ ...saved, code_length: 4 })), "stale")
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
    "verify sends: a priced send takes the charge with it: with the wallet short nothing of it is written, " +
      "no spend counted; a paused application's send is refused and writes nothing",
    () =>
      Effect.gen(function* () {
        const sends = yield* VerifySendsRepo
        const verifications = yield* VerificationsRepo
        const wallet = yield* WalletRepo
        const apps = yield* ApplicationsRepo
        const app = application(uuid() as AccountId)
        const priced = (v: Verification, at: number, cap: number | null) =>
          sends.send(attemptOf(v, at, Option.none(), pricedFor(v, at, cap)))
        yield* credit(app.accountId, 10)
        const firstSend = verification(app)
        const first = yield* priced(firstSend, 1_000, null)
        assert.strictEqual(verdict(first), "sent")
        if (first._tag === "Judged") {
          assert.deepStrictEqual(Option.map(first.charged!, (c) => c.balance), Option.some(1))
          assert.deepStrictEqual(first.guard, { sends: 1, verified: 0 })
        }
        const short = verification(app)
        assert.strictEqual(verdict(yield* priced(short, 2_000, null)), "insufficient_credits")
        assert.isTrue(Option.isNone(yield* verifications.get(short.id)))
        assert.strictEqual(yield* wallet.balance(app.accountId), 1)
        assert.deepStrictEqual(yield* sends.guardStats(app.id, 0 as Millis, 0 as Millis), { sends: 1, verified: 0 })
        // The refused send counted no spend: with the wallet refilled, a cap of 18 admits a second 9.
        yield* credit(app.accountId, 20)
        assert.strictEqual(verdict(yield* priced(verification(app), 3_000, 17)), "spend_cap_reached")
        assert.strictEqual(verdict(yield* priced(verification(app), 3_000, 18)), "sent")
        assert.strictEqual(yield* wallet.balance(app.accountId), 12)
        // Paused (spend_cap_reached is still answered first): nothing is charged or written.
        yield* apps.insert({ ...app, paused: true })
        assert.strictEqual(verdict(yield* priced(verification(app), 4_000, 18)), "spend_cap_reached")
        const paused = verification(app)
        const outcome = yield* priced(paused, 4_000, null)
        assert.strictEqual(verdict(outcome), "application_paused")
        assert.isTrue(Option.isNone(yield* verifications.get(paused.id)))
        assert.strictEqual(yield* wallet.balance(app.accountId), 12)
        assert.deepStrictEqual(yield* sends.guardStats(app.id, 0 as Millis, 0 as Millis), { sends: 2, verified: 0 })
        assert.isTrue(Option.isSome(yield* verifications.get(firstSend.id)))
      }),
  )

  if (options.concurrentTransactions) {
    it.effect(
      "verify sends: a send that passed on its snapshot but loses the wallet under its lock is undone whole " +
        "(its place in the destination's hour too) and answered insufficient_credits",
      () =>
        Effect.gen(function* () {
          const sends = yield* VerifySendsRepo
          const verifications = yield* VerificationsRepo
          const wallet = yield* WalletRepo
          const tx = yield* Transactor
          const app = application(uuid() as AccountId)
          yield* credit(app.accountId, 9)
          const to = "+966500000021" as SaudiMobile
          // A transaction takes the wallet's 9 halalas and holds its row until released.
          const charged = yield* Deferred.make<void>()
          const release = yield* Deferred.make<void>()
          const holder = yield* Effect.fork(tx.withTransaction(Effect.gen(function* () {
            assert.isTrue(Option.isSome(
              yield* wallet.charge({
                accountId: app.accountId,
                kind: "charge",
                amountHalalas: -9,
                product: "verify",
                reference: "held",
                at: 1,
              }),
            ))
            yield* Deferred.succeed(charged, undefined)
            yield* Deferred.await(release)
          })))
          yield* Deferred.await(charged)
          // The send's snapshot still sees 9 halalas: it passes, claims the destination, then waits on the wallet.
          const v = verification(app, { to, clientIp: null })
          const sending = yield* Effect.fork(sends.send(attemptOf(v, 5_000, Option.none(), pricedFor(v, 5_000, null))))
          // Real time for the statement to reach the wallet's lock (the test's clock does not move by itself).
          yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 200)))
          yield* Deferred.succeed(release, undefined)
          yield* Fiber.join(holder)
          const outcome = yield* Fiber.join(sending)
          assert.strictEqual(verdict(outcome), "insufficient_credits")
          assert.isTrue(Option.isNone(yield* verifications.get(v.id)))
          assert.strictEqual(yield* wallet.balance(app.accountId), 0)
          // Its claim on the destination's hour was undone with it: a cap of one still admits a free send there.
          const next = verification(app, { to, clientIp: null })
          const free = yield* sends.send(attemptOf(next, 5_001, Option.none(), {
            caps: { destination: 1, clientIp: 1 },
            spend: null,
          }))
          assert.strictEqual(verdict(free), "sent")
        }),
    )
  }

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
        // Among the most recent (the platform's outbox contract appends events dated far ahead).
        assert.deepStrictEqual((yield* outbox.listRecent(50)).find((e) => e.id === event.id), event)
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
