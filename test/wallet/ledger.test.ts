/**
 * DECISIONS 12, "one ledger, one balance": credits (top-ups of every method), charges and refunds are ledger
 * rows, and the balance is kept in step with them in the same statement or transaction. For random sequences
 * of top-ups, charges (refused when the balance does not cover them) and refunds of accepted charges, on the
 * memory store and on PGlite: balance = credits - charges + refunds, and the balance never goes below 0.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Either, type Layer } from "effect"
import * as fc from "fast-check"
import { MemoryStore } from "../../adapters/memory/store.ts"
import type { Store } from "../../adapters/products.ts"
import { PgliteStoreLive } from "../../adapters/sql/store.ts"
import type { Account } from "../../core/accounts/model.ts"
import type { AccountId } from "../../core/shared/brands.ts"
import { charge, refund } from "../../core/wallet/charge.ts"
import { WalletRepo } from "../../ports/store/wallet.ts"

type Op =
  | { readonly kind: "topup"; readonly amount: number; readonly method: "link" | "bank_transfer" | "auto" | "console" }
  | { readonly kind: "charge"; readonly amount: number }
  | { readonly kind: "refund"; readonly pick: number }

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("topup" as const),
    amount: fc.integer({ min: 1, max: 2_000 }),
    method: fc.constantFrom("link" as const, "bank_transfer" as const, "auto" as const, "console" as const),
  }),
  fc.record({ kind: fc.constant("charge" as const), amount: fc.integer({ min: 1, max: 600 }) }),
  fc.record({ kind: fc.constant("refund" as const), pick: fc.nat() }),
)

const accountOf = (): Account => ({
  id: crypto.randomUUID() as AccountId,
  name: "Ledger",
  sandboxOnly: false,
  partner: false,
  status: "active",
  createdAt: 0,
})

/** Runs `ops` on one fresh account, checking the invariant after each; answers the model's balance. */
const runOps = (ops: ReadonlyArray<Op>) =>
  Effect.gen(function* () {
    const wallet = yield* WalletRepo
    const account = accountOf()
    let model = 0
    const unrefunded: Array<number> = []
    for (const [i, o] of ops.entries()) {
      const req = (amount: number) => ({ account, priceHalalas: amount, product: "verify", reference: `r${i}`, at: i })
      if (o.kind === "topup") {
        yield* wallet.topUp({
          id: crypto.randomUUID(),
          accountId: account.id,
          method: o.method,
          amountHalalas: o.amount,
          at: i,
        })
        model += o.amount
      } else if (o.kind === "charge") {
        const result = yield* Effect.either(charge(req(o.amount)))
        if (o.amount <= model) {
          expect(Either.isRight(result)).toBe(true)
          model -= o.amount
          unrefunded.push(o.amount)
        } else {
          expect(result).toMatchObject({ left: { _tag: "insufficient_credits", balance_halalas: model } })
        }
      } else if (unrefunded.length > 0) {
        const [amount] = unrefunded.splice(o.pick % unrefunded.length, 1)
        yield* refund(req(amount))
        model += amount
      }
      const balance = yield* wallet.balance(account.id)
      const { charges, credits, refunds } = yield* wallet.summary(account.id, 0)
      expect(balance).toBe(credits - charges + refunds)
      expect(balance).toBeGreaterThanOrEqual(0)
      expect(balance).toBe(model)
    }
  })

const property = (name: string, store: Layer.Layer<Store, unknown>, numRuns: number) =>
  layer(store, { excludeTestServices: true, timeout: "120 seconds" })(name, (it) => {
    it.effect.prop(
      "balance = credits - charges + refunds after every step of a random sequence, and never below 0",
      [fc.array(op, { maxLength: 40 })],
      ([ops]) => runOps(ops),
      { timeout: 120_000, fastCheck: { numRuns } },
    )
  })

describe("one ledger, one balance (DECISIONS 12): credit, charge, refund, top-up are ledger rows", () => {
  property("memory store", MemoryStore, 200)
  property("PGlite", PgliteStoreLive("memory://"), 15)
})
