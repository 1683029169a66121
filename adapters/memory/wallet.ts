/** The wallet's memory repositories: balances, the ledger, top-ups, settings, top-up links and proformas. */
import { Effect, Layer, Option } from "effect"
import { Wallet } from "../../core/limits.ts"
import {
  type Charged,
  type LedgerEntry,
  type Proforma,
  ProformasRepo,
  type Topup,
  type TopupLink,
  TopupLinksRepo,
  WalletRepo,
  type WalletSettings,
} from "../../ports/store/wallet.ts"
import { memoryTables, pushUnder, type Recorder, setIn, violation } from "./db.ts"

export const walletTables = () => ({
  wallets: new Map<string, number>(),
  ledger: new Map<string, Array<LedgerEntry>>(),
  topups: new Map<string, Array<Topup>>(),
  walletSettings: new Map<string, WalletSettings>(),
  topupLinks: new Map<string, TopupLink>(),
  proformas: new Map<string, Proforma>(),
  proformaCounters: new Map<number, number>(),
})

type Tables = ReturnType<typeof walletTables>

export const defaultWalletSettings: WalletSettings = {
  lowBalanceAlertHalalas: Wallet.lowBalanceAlertHalalas,
  autoTopup: { ...Wallet.autoTopup },
  card: null,
}

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

const settingsOf = (t: Tables, accountId: string): WalletSettings =>
  t.walletSettings.get(accountId) ?? defaultWalletSettings

const add = (t: Tables, record: Recorder, entry: LedgerEntry) => {
  const balance = move(t, record, entry.accountId, entry.amountHalalas)
  pushUnder(t.ledger, entry.accountId, copy(entry), record)
  return balance
}

/** An account's balance inside a read or write (0 when it has no wallet). */
export const balanceIn = (t: Tables, accountId: string): number => t.wallets.get(accountId) ?? 0

/** A charge (a negative entry) inside a write: none when the balance is short, as the SQL statement. */
export const chargeIn = (t: Tables, record: Recorder, entry: LedgerEntry): Option.Option<Charged> => {
  const balance = t.wallets.get(entry.accountId)
  if (balance === undefined || balance < -entry.amountHalalas) return Option.none()
  const after = add(t, record, entry)
  return Option.some({ balance: after, settings: settingsOf(t, entry.accountId) })
}

export const WalletRepoMemory = Layer.effect(
  WalletRepo,
  Effect.map(memoryTables(walletTables), (db) => {
    const entriesSince = (t: Tables, accountId: string, since: number) =>
      (t.ledger.get(accountId) ?? []).filter((e) => e.at >= since)
    return {
      balance: (accountId) => db.read((t) => t.wallets.get(accountId) ?? 0),
      add: (entry) => db.write((t, record) => add(t, record, entry)),
      topUp: (topup) =>
        db.write((t, record) => {
          if (topup.amountHalalas <= 0) violation(`a top-up of ${topup.amountHalalas}`)
          const balance = add(t, record, {
            accountId: topup.accountId,
            kind: "credit",
            amountHalalas: topup.amountHalalas,
            product: null,
            reference: topup.id,
            at: topup.at,
          })
          pushUnder(t.topups, topup.accountId, { ...topup }, record)
          return balance
        }),
      charge: (entry) => db.write((t, record) => chargeIn(t, record, entry)),
      summary: (accountId, since) =>
        db.read((t) => {
          const totals = { credit: 0, charge: 0, refund: 0 }
          for (const e of entriesSince(t, accountId, since)) totals[e.kind] += e.amountHalalas
          return { credits: totals.credit, charges: 0 - totals.charge, refunds: totals.refund }
        }),
      // The latest `at`; among equal times the last recorded, as `ORDER BY at DESC, seq DESC`.
      lastTopup: (accountId) =>
        db.read((t) => {
          let last: Topup | undefined
          for (const e of t.topups.get(accountId) ?? []) {
            if (last === undefined || e.at >= last.at) last = e
          }
          return Option.fromNullable(last === undefined ? undefined : { ...last })
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
      settings: (accountId) => db.read((t) => settingsOf(t, accountId)),
      // A memory transaction holds the store's one permit: nothing else writes meanwhile.
      settingsForUpdate: (accountId) => db.read((t) => settingsOf(t, accountId)),
      saveSettings: (accountId, settings) =>
        db.write((t, record) => setIn(t.walletSettings, accountId, structuredClone(settings), record)),
    }
  }),
)

export const TopupLinksRepoMemory = Layer.effect(
  TopupLinksRepo,
  Effect.map(memoryTables(walletTables), (db) => ({
    insert: (link) =>
      db.write((t, record) => {
        if (t.topupLinks.has(link.id)) violation(`top-up link ${link.id} exists`)
        setIn(t.topupLinks, link.id, { ...link }, record)
      }),
    getForUpdate: (id) => db.read((t) => Option.map(Option.fromNullable(t.topupLinks.get(id)), (l) => ({ ...l }))),
    markPaid: (id, at) =>
      db.write((t, record) => {
        const link = t.topupLinks.get(id)
        if (link !== undefined) setIn(t.topupLinks, id, { ...link, status: "paid", paidAt: at }, record)
      }),
  })),
)

export const ProformasRepoMemory = Layer.effect(
  ProformasRepo,
  Effect.map(memoryTables(walletTables), (db) => ({
    nextNumber: (year) =>
      db.write((t, record) => {
        const next = (t.proformaCounters.get(year) ?? 0) + 1
        setIn(t.proformaCounters, year, next, record)
        return next
      }),
    insert: (proforma) =>
      db.write((t, record) => {
        if (t.proformas.has(proforma.id)) violation(`proforma ${proforma.id} exists`)
        for (const p of t.proformas.values()) if (p.number === proforma.number) violation(`${p.number} exists`)
        setIn(t.proformas, proforma.id, structuredClone(proforma), record)
      }),
    getForUpdate: (id) =>
      db.read((t) => Option.map(Option.fromNullable(t.proformas.get(id)), (p) => structuredClone(p))),
    get: (id) => db.read((t) => Option.map(Option.fromNullable(t.proformas.get(id)), (p) => structuredClone(p))),
    listByAccount: (accountId, limit) =>
      db.read((t) =>
        [...t.proformas.values()].filter((p) => p.accountId === accountId)
          .sort((a, b) => b.issuedAt - a.issuedAt || (a.number < b.number ? 1 : a.number > b.number ? -1 : 0))
          .slice(0, limit).map((p) => structuredClone(p))
      ),
    markPaid: (id, at) =>
      db.write((t, record) => {
        const p = t.proformas.get(id)
        if (p !== undefined) setIn(t.proformas, id, { ...p, status: "paid", paidAt: at }, record)
      }),
  })),
)
