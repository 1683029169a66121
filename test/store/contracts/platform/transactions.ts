import { assert } from "@effect/vitest"
import { Deferred, Effect, Fiber, Option } from "effect"
import type { AccountId } from "../../../../core/shared/brands.ts"
import { type LedgerEntry, Transactor, VerificationsRepo, WalletRepo } from "../../../../ports/store/mod.ts"
import { application, isDefect, type It, uuid, verification } from "../../fixtures.ts"

const credit = (accountId: AccountId, amountHalalas: number): LedgerEntry => ({
  accountId,
  kind: "credit",
  amountHalalas,
  product: null,
  reference: null,
  at: 1_000,
})

/** Two repositories written in one transaction: a wallet credit and a verification. */
const setup = Effect.gen(function* () {
  const tx = yield* Transactor
  const wallet = yield* WalletRepo
  const verifications = yield* VerificationsRepo
  const accountId = uuid() as AccountId
  const v = verification(application(accountId))
  const write = (amount: number) => Effect.zipRight(wallet.add(credit(accountId, amount)), verifications.insert(v))
  const state = Effect.all({
    balance: wallet.balance(accountId),
    verification: Effect.map(verifications.get(v.id), Option.isSome),
  })
  return { tx, wallet, verifications, accountId, v, write, state }
})

export const transactionsContract = (it: It) => {
  it.effect("transactions: commit across two repositories", () =>
    Effect.gen(function* () {
      const { state, tx, write } = yield* setup
      assert.strictEqual(yield* tx.withTransaction(Effect.as(write(50), "done")), "done")
      assert.deepStrictEqual(yield* state, { balance: 50, verification: true })
    }))

  it.effect("transactions: a failure rolls back both repositories and surfaces unchanged", () =>
    Effect.gen(function* () {
      const { state, tx, write } = yield* setup
      const error = yield* Effect.flip(tx.withTransaction(Effect.zipRight(write(50), Effect.fail("refused" as const))))
      assert.strictEqual(error, "refused")
      assert.deepStrictEqual(yield* state, { balance: 0, verification: false })
    }))

  it.effect("transactions: a defect rolls back", () =>
    Effect.gen(function* () {
      const { state, tx, write } = yield* setup
      assert.isTrue(
        isDefect(yield* Effect.exit(tx.withTransaction(Effect.zipRight(write(50), Effect.dieMessage("boom"))))),
      )
      assert.deepStrictEqual(yield* state, { balance: 0, verification: false })
    }))

  it.effect("transactions: an interrupted transaction rolls back", () =>
    Effect.gen(function* () {
      const { state, tx, write } = yield* setup
      const written = yield* Deferred.make<void>()
      const fiber = yield* Effect.fork(tx.withTransaction(
        write(50).pipe(Effect.zipRight(Deferred.succeed(written, undefined)), Effect.zipRight(Effect.never)),
      ))
      yield* Deferred.await(written)
      yield* Fiber.interrupt(fiber)
      assert.deepStrictEqual(yield* state, { balance: 0, verification: false })
    }))

  it.effect("transactions: nested calls join the outer one; a caught inner failure undoes only the inner part", () =>
    Effect.gen(function* () {
      const { accountId, state, tx, wallet, write } = yield* setup
      yield* tx.withTransaction(Effect.gen(function* () {
        yield* write(50)
        yield* tx.withTransaction(wallet.add(credit(accountId, 7)))
        const inner = yield* Effect.flip(tx.withTransaction(
          Effect.zipRight(wallet.add(credit(accountId, 1_000)), Effect.fail("inner" as const)),
        ))
        assert.strictEqual(inner, "inner")
        assert.strictEqual(yield* wallet.balance(accountId), 57)
      }))
      assert.deepStrictEqual(yield* state, { balance: 57, verification: true })
      assert.deepStrictEqual(yield* wallet.summary(accountId, 0), { credits: 57, charges: 0, refunds: 0 })
    }))

  it.effect("transactions: an outer failure undoes what nested transactions wrote", () =>
    Effect.gen(function* () {
      const { state, tx, write } = yield* setup
      const exit = yield* Effect.exit(tx.withTransaction(
        Effect.zipRight(tx.withTransaction(write(50)), Effect.fail("late" as const)),
      ))
      assert.isTrue(exit._tag === "Failure")
      assert.deepStrictEqual(yield* state, { balance: 0, verification: false })
    }))

  it.effect("transactions: a charge rolled back leaves balance and ledger as they were", () =>
    Effect.gen(function* () {
      const { accountId, tx, wallet } = yield* setup
      yield* wallet.add(credit(accountId, 20))
      const charge = { ...credit(accountId, -9), kind: "charge" as const, product: "verify" }
      yield* Effect.exit(tx.withTransaction(Effect.zipRight(wallet.charge(charge), Effect.fail("send failed"))))
      assert.strictEqual(yield* wallet.balance(accountId), 20)
      assert.deepStrictEqual(yield* wallet.summary(accountId, 0), { credits: 20, charges: 0, refunds: 0 })
    }))
}
