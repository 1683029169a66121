import { Effect, Layer, Option } from "effect"
import { type LedgerEntry, WalletRepo } from "../../ports/store/wallet.ts"
import { memoryTables, pushUnder, type Recorder, violation } from "./db.ts"

export const walletTables = () => ({
  wallets: new Map<string, number>(),
  ledger: new Map<string, Array<LedgerEntry>>(),
})

type Tables = ReturnType<typeof walletTables>

/**
 * Moves a balance by `delta`. The inverse subtracts the delta again rather than restoring the old
 * value, so a write made outside the transaction in between (a top-up) survives a rollback.
 */
const move = (t: Tables, record: Recorder, accountId: string, delta: number): number => {
  const created = !t.wallets.has(accountId)
  const balance = (t.wallets.get(accountId) ?? 0) + delta
  if (balance < 0) violation(`wallet ${accountId} would go below zero`)
  t.wallets.set(accountId, balance)
  record(() => {
    const restored = (t.wallets.get(accountId) ?? 0) - delta
    if (created && restored === 0) t.wallets.delete(accountId)
    else t.wallets.set(accountId, restored)
  })
  return balance
}

const copy = (e: LedgerEntry): LedgerEntry => ({
  accountId: e.accountId,
  kind: e.kind,
  amountHalalas: e.amountHalalas,
  product: e.product,
  reference: e.reference,
  at: e.at,
})

export const WalletRepoMemory = Layer.effect(
  WalletRepo,
  Effect.map(memoryTables(walletTables), (db) => {
    const entriesSince = (t: Tables, accountId: string, since: number) =>
      (t.ledger.get(accountId) ?? []).filter((e) => e.at >= since)
    return {
      balance: (accountId) => db.read((t) => t.wallets.get(accountId) ?? 0),
      add: (entry) =>
        db.write((t, record) => {
          const balance = move(t, record, entry.accountId, entry.amountHalalas)
          pushUnder(t.ledger, entry.accountId, copy(entry), record)
          return balance
        }),
      charge: (entry) =>
        db.write((t, record) => {
          const balance = t.wallets.get(entry.accountId)
          if (balance === undefined || balance < -entry.amountHalalas) return Option.none()
          const after = move(t, record, entry.accountId, entry.amountHalalas)
          pushUnder(t.ledger, entry.accountId, copy(entry), record)
          return Option.some(after)
        }),
      summary: (accountId, since) =>
        db.read((t) => {
          const totals = { credit: 0, charge: 0, refund: 0 }
          for (const e of entriesSince(t, accountId, since)) totals[e.kind] += e.amountHalalas
          return { credits: totals.credit, charges: 0 - totals.charge, refunds: totals.refund }
        }),
      // The latest `at`; among equal times the last appended, as `ORDER BY at DESC, id DESC`.
      lastCredit: (accountId) =>
        db.read((t) => {
          let last: LedgerEntry | undefined
          for (const e of t.ledger.get(accountId) ?? []) {
            if (e.kind === "credit" && (last === undefined || e.at >= last.at)) last = e
          }
          return Option.fromNullable(last)
        }),
      monthByProduct: (accountId, since) =>
        db.read((t) => {
          const spent: Record<string, number> = {}
          for (const e of entriesSince(t, accountId, since)) {
            if (e.kind === "credit" || e.product === null) continue
            spent[e.product] = (spent[e.product] ?? 0) - e.amountHalalas
          }
          return spent
        }),
    }
  }),
)
