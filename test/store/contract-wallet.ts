import { assert } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { AccountId } from "../../core/shared/brands.ts"
import { type LedgerEntry, Transactor, WalletRepo } from "../../ports/store/mod.ts"
import { isDefect, type It, uuid } from "./fixtures.ts"

const entry = (
  accountId: AccountId,
  kind: LedgerEntry["kind"],
  amountHalalas: number,
  over: Partial<LedgerEntry> = {},
): LedgerEntry => ({
  accountId,
  kind,
  amountHalalas,
  product: kind === "credit" ? null : "verify",
  reference: null,
  at: 1_000,
  ...over,
})

export const walletContract = (it: It) => {
  it.effect("wallet: no row reads 0; add upserts; charge refuses to go below zero; ledger sums", () =>
    Effect.gen(function* () {
      const wallet = yield* WalletRepo
      const id = uuid() as AccountId
      assert.strictEqual(yield* wallet.balance(id), 0)
      assert.isTrue(Option.isNone(yield* wallet.charge(entry(id, "charge", -1))))
      assert.strictEqual(yield* wallet.add(entry(id, "credit", 100, { reference: "topup-1" })), 100)
      assert.deepStrictEqual(yield* wallet.charge(entry(id, "charge", -30, { at: 2_000 })), Option.some(70))
      assert.isTrue(Option.isNone(yield* wallet.charge(entry(id, "charge", -71, { at: 2_000 }))))
      assert.strictEqual(yield* wallet.balance(id), 70)
      assert.deepStrictEqual(
        yield* wallet.charge(entry(id, "charge", -70, { at: 3_000, product: "email" })),
        Option.some(0),
      )
      assert.strictEqual(yield* wallet.add(entry(id, "refund", 9, { at: 3_000 })), 9)
      assert.deepStrictEqual(yield* wallet.summary(id, 0), { credits: 100, charges: 100, refunds: 9 })
      assert.deepStrictEqual(yield* wallet.summary(id, 2_500), { credits: 0, charges: 70, refunds: 9 })
      assert.deepStrictEqual(yield* wallet.monthByProduct(id, 0), { verify: 21, email: 70 })
      assert.deepStrictEqual(yield* wallet.monthByProduct(id, 2_500), { verify: -9, email: 70 })
      assert.deepStrictEqual(yield* wallet.summary(uuid() as AccountId, 0), { credits: 0, charges: 0, refunds: 0 })
      assert.deepStrictEqual(yield* wallet.monthByProduct(uuid() as AccountId, 0), {})
    }))

  it.effect("wallet: lastCredit is the latest credit, the last appended among equal times", () =>
    Effect.gen(function* () {
      const wallet = yield* WalletRepo
      const id = uuid() as AccountId
      assert.isTrue(Option.isNone(yield* wallet.lastCredit(id)))
      yield* wallet.add(entry(id, "credit", 10, { at: 5_000, reference: "a" }))
      yield* wallet.add(entry(id, "credit", 20, { at: 5_000, reference: "b" }))
      yield* wallet.add(entry(id, "credit", 30, { at: 4_000, reference: "c" }))
      yield* wallet.add(entry(id, "refund", 1, { at: 6_000 }))
      assert.deepStrictEqual(
        yield* wallet.lastCredit(id),
        Option.some(entry(id, "credit", 20, { at: 5_000, reference: "b" })),
      )
    }))

  it.effect("wallet: a credit that would leave a negative balance is a defect and changes nothing", () =>
    Effect.gen(function* () {
      const wallet = yield* WalletRepo
      const id = uuid() as AccountId
      yield* wallet.add(entry(id, "credit", 5))
      assert.isTrue(isDefect(yield* Effect.exit(wallet.add(entry(id, "credit", -6)))))
      assert.strictEqual(yield* wallet.balance(id), 5)
      assert.deepStrictEqual(yield* wallet.summary(id, 0), { credits: 5, charges: 0, refunds: 0 })
    }))

  it.effect("wallet: 20 concurrent charges, each in its own transaction, on a wallet holding 10: exactly 10 pass", () =>
    Effect.gen(function* () {
      const wallet = yield* WalletRepo
      const tx = yield* Transactor
      const id = uuid() as AccountId
      yield* wallet.add(entry(id, "credit", 10))
      const results = yield* Effect.all(
        Array.from({ length: 20 }, () => tx.withTransaction(wallet.charge(entry(id, "charge", -1)))),
        { concurrency: "unbounded" },
      )
      assert.strictEqual(results.filter(Option.isSome).length, 10)
      assert.deepStrictEqual(
        results.filter(Option.isSome).map((r) => r.value).sort((a, b) => a - b),
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      )
      assert.strictEqual(yield* wallet.balance(id), 0)
      assert.deepStrictEqual(yield* wallet.summary(id, 0), { credits: 10, charges: 10, refunds: 0 })
    }))
}
