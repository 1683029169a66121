import { assert } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Wallet } from "../../../core/limits.ts"
import type { AccountId, Millis } from "../../../core/shared/brands.ts"
import {
  type LedgerEntry,
  type Proforma,
  ProformasRepo,
  type TopupLink,
  TopupLinksRepo,
  Transactor,
  WalletRepo,
  type WalletSettings,
} from "../../../ports/store/mod.ts"
import { type ContractOptions, isDefect, type It, uuid } from "../fixtures.ts"

const defaults: WalletSettings = {
  lowBalanceAlertHalalas: Wallet.lowBalanceAlertHalalas,
  autoTopup: { ...Wallet.autoTopup },
  card: null,
}
/** What a charge that went through answers on an account with the default settings. */
const charged = (balance: number) => Option.some({ balance, settings: defaults })

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

export const contract = (it: It, options: ContractOptions) => {
  it.effect("wallet: no row reads 0; add upserts; charge refuses to go below zero; ledger sums", () =>
    Effect.gen(function* () {
      const wallet = yield* WalletRepo
      const id = uuid() as AccountId
      assert.strictEqual(yield* wallet.balance(id), 0)
      assert.isTrue(Option.isNone(yield* wallet.charge(entry(id, "charge", -1))))
      assert.strictEqual(yield* wallet.add(entry(id, "credit", 100, { reference: "topup-1" })), 100)
      assert.deepStrictEqual(yield* wallet.charge(entry(id, "charge", -30, { at: 2_000 })), charged(70))
      assert.isTrue(Option.isNone(yield* wallet.charge(entry(id, "charge", -71, { at: 2_000 }))))
      assert.strictEqual(yield* wallet.balance(id), 70)
      assert.deepStrictEqual(
        yield* wallet.charge(entry(id, "charge", -70, { at: 3_000, product: "email" })),
        charged(0),
      )
      assert.strictEqual(yield* wallet.add(entry(id, "refund", 9, { at: 3_000 })), 9)
      assert.deepStrictEqual(yield* wallet.summary(id, 0), { credits: 100, charges: 100, refunds: 9 })
      assert.deepStrictEqual(yield* wallet.summary(id, 2_500), { credits: 0, charges: 70, refunds: 9 })
      assert.deepStrictEqual(yield* wallet.monthByProduct(id, 0), { verify: 21, email: 70 })
      assert.deepStrictEqual(yield* wallet.monthByProduct(id, 2_500), { verify: -9, email: 70 })
      assert.deepStrictEqual(yield* wallet.summary(uuid() as AccountId, 0), { credits: 0, charges: 0, refunds: 0 })
      assert.deepStrictEqual(yield* wallet.monthByProduct(uuid() as AccountId, 0), {})
    }))

  it.effect("wallet: a top-up is a ledger credit and a record; lastTopup is the latest, the last recorded among equal times", () =>
    Effect.gen(function* () {
      const wallet = yield* WalletRepo
      const id = uuid() as AccountId
      assert.isTrue(Option.isNone(yield* wallet.lastTopup(id)))
      const a = { id: uuid(), accountId: id, method: "console", amountHalalas: 10, at: 5_000 } as const
      const b = { id: uuid(), accountId: id, method: "link", amountHalalas: 20, at: 5_000 } as const
      const c = { id: uuid(), accountId: id, method: "auto", amountHalalas: 30, at: 4_000 } as const
      assert.strictEqual(yield* wallet.topUp(a), 10)
      assert.strictEqual(yield* wallet.topUp(b), 30)
      assert.strictEqual(yield* wallet.topUp(c), 60)
      yield* wallet.add(entry(id, "refund", 1, { at: 6_000 }))
      assert.deepStrictEqual(yield* wallet.lastTopup(id), Option.some(b))
      assert.deepStrictEqual(yield* wallet.summary(id, 0), { credits: 60, charges: 0, refunds: 1 })
      assert.strictEqual(yield* wallet.balance(id), 61)
    }))

  it.effect("wallet: settings read the defaults until saved (locked or not); a charge answers them with the balance", () =>
    Effect.gen(function* () {
      const wallet = yield* WalletRepo
      const tx = yield* Transactor
      const id = uuid() as AccountId
      assert.deepStrictEqual(yield* wallet.settings(id), defaults)
      assert.deepStrictEqual(yield* tx.withTransaction(wallet.settingsForUpdate(id)), defaults)
      assert.deepStrictEqual(yield* wallet.settings(id), defaults)
      const saved: WalletSettings = {
        lowBalanceAlertHalalas: 2_500,
        autoTopup: { enabled: true, thresholdHalalas: 700, amountHalalas: 5_000 },
        card: { brand: "visa", last4: "4242", token: "tok-1" },
      }
      yield* wallet.saveSettings(id, saved)
      assert.deepStrictEqual(yield* wallet.settings(id), saved)
      yield* wallet.add(entry(id, "credit", 100))
      assert.deepStrictEqual(
        yield* wallet.charge(entry(id, "charge", -9)),
        Option.some({ balance: 91, settings: saved }),
      )
      const cleared = { ...saved, card: null, autoTopup: { ...saved.autoTopup, enabled: false } }
      yield* wallet.saveSettings(id, cleared)
      assert.deepStrictEqual(yield* wallet.settings(id), cleared)
    }))

  it.effect("top-up links: inserted, read back, marked paid", () =>
    Effect.gen(function* () {
      const links = yield* TopupLinksRepo
      const link: TopupLink = {
        id: uuid(),
        accountId: uuid() as AccountId,
        url: "https://pay.example/x",
        status: "open",
        amountHalalas: 1_000,
        vatHalalas: 150,
        totalHalalas: 1_150,
        expiresAt: 90_000,
        createdAt: 1_000,
        paidAt: null,
      }
      yield* links.insert(link)
      assert.deepStrictEqual(yield* links.getForUpdate(link.id), Option.some(link))
      yield* links.markPaid(link.id, 2_000)
      assert.deepStrictEqual(
        yield* links.getForUpdate(link.id),
        Option.some({ ...link, status: "paid", paidAt: 2_000 }),
      )
      assert.isTrue(Option.isNone(yield* links.getForUpdate(uuid())))
    }))

  const proforma = (year: number, n: number): Proforma => ({
    id: uuid(),
    accountId: uuid() as AccountId,
    number: `PF-${year}-${String(n).padStart(6, "0")}`,
    status: "open",
    amountHalalas: 1_003,
    vatHalalas: 150,
    totalHalalas: 1_153,
    buyer: { name: "Shop", vatNumber: "300000000000003", address: null },
    iban: "SA00",
    issuedAt: 1_000,
    expiresAt: 2_000,
    paidAt: null,
  })

  it.effect("proformas: numbers per year from 1, a rolled-back one given back; inserted, read, paid", () =>
    Effect.gen(function* () {
      const repo = yield* ProformasRepo
      const tx = yield* Transactor
      // A year of its own, so runs sharing one database do not meet.
      const year = 3000 + Math.floor(Math.random() * 6000)
      assert.strictEqual(yield* tx.withTransaction(repo.nextNumber(year)), 1)
      assert.strictEqual(yield* tx.withTransaction(repo.nextNumber(year)), 2)
      const rolledBack = yield* Effect.exit(
        tx.withTransaction(Effect.zipRight(repo.nextNumber(year), Effect.fail("no"))),
      )
      assert.isTrue(rolledBack._tag === "Failure")
      assert.strictEqual(yield* tx.withTransaction(repo.nextNumber(year)), 3)
      const p = proforma(year, 3)
      yield* repo.insert(p)
      assert.deepStrictEqual(yield* repo.getForUpdate(p.id), Option.some(p))
      assert.isTrue(isDefect(yield* Effect.exit(repo.insert({ ...proforma(year, 3) }))))
      yield* repo.markPaid(p.id, 1_500)
      assert.deepStrictEqual(yield* repo.getForUpdate(p.id), Option.some({ ...p, status: "paid", paidAt: 1_500 }))
    }))

  it.effect("proformas: an account's listed newest first (by issue, then number), at most `limit`, no other's", () =>
    Effect.gen(function* () {
      const repo = yield* ProformasRepo
      const year = 3000 + Math.floor(Math.random() * 6000)
      const accountId = uuid() as AccountId
      const mine = [
        { ...proforma(year, 1), accountId, issuedAt: 1_000 as Millis },
        { ...proforma(year, 2), accountId, issuedAt: 3_000 as Millis },
        { ...proforma(year, 3), accountId, issuedAt: 3_000 as Millis },
        { ...proforma(year, 4), accountId, issuedAt: 2_000 as Millis },
      ]
      for (const p of mine) yield* repo.insert(p)
      yield* repo.insert(proforma(year, 5))
      assert.deepStrictEqual(
        (yield* repo.listByAccount(accountId, 10)).map((p) => p.number),
        [mine[2], mine[1], mine[3], mine[0]].map((p) => p.number),
      )
      assert.deepStrictEqual(
        yield* repo.listByAccount(accountId, 2),
        [mine[2], mine[1]],
      )
      assert.deepStrictEqual(yield* repo.listByAccount(uuid() as AccountId, 10), [])
    }))

  // On every store: the memory store and PGlite serialize transactions, PostgreSQL runs them side by side.
  it.effect(
    "proformas: 50 concurrent transactions each take a number: 1 to 50, no gap, no repeat",
    () =>
      Effect.gen(function* () {
        const repo = yield* ProformasRepo
        const tx = yield* Transactor
        const year = 3000 + Math.floor(Math.random() * 6000)
        const numbers = yield* Effect.all(
          Array.from({ length: 50 }, () =>
            tx.withTransaction(Effect.gen(function* () {
              const n = yield* repo.nextNumber(year)
              yield* repo.insert(proforma(year, n))
              return n
            }))),
          { concurrency: "unbounded" },
        )
        assert.deepStrictEqual([...numbers].sort((a, b) => a - b), Array.from({ length: 50 }, (_, i) => i + 1))
      }),
  )

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
        results.filter(Option.isSome).map((r) => r.value.balance).sort((a, b) => a - b),
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      )
      assert.strictEqual(yield* wallet.balance(id), 0)
      assert.deepStrictEqual(yield* wallet.summary(id, 0), { credits: 10, charges: 10, refunds: 0 })
    }))
}
