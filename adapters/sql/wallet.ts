/** The prepaid wallet: one balance row per account and an append-only ledger. */
import { Effect, Layer, Option } from "effect"
import type { AccountId } from "../../core/shared/brands.ts"
import { type LedgerEntry, type LedgerKind, WalletRepo } from "../../ports/store/wallet.ts"
import { atomically, client, first, num, type Row } from "./rows.ts"

const toEntry = (row: Row): LedgerEntry => ({
  accountId: row.account_id as AccountId,
  kind: row.kind as LedgerKind,
  amountHalalas: num(row.amount_halalas),
  product: row.product ?? null,
  reference: row.reference ?? null,
  at: num(row.at),
})

export const WalletRepoSql = Layer.effect(
  WalletRepo,
  Effect.gen(function* () {
    const sql = yield* client

    const appendLedger = (e: LedgerEntry) =>
      sql`INSERT INTO ledger (account_id, kind, amount_halalas, product, reference, at)
        VALUES (${e.accountId}, ${e.kind}, ${e.amountHalalas}, ${e.product}, ${e.reference}, ${e.at})`

    const add = (e: LedgerEntry) =>
      sql`INSERT INTO wallets (account_id, balance_halalas) VALUES (${e.accountId}, ${e.amountHalalas})
        ON CONFLICT (account_id) DO UPDATE SET balance_halalas = wallets.balance_halalas + EXCLUDED.balance_halalas
        RETURNING balance_halalas`.pipe(
        Effect.tap(() => appendLedger(e)),
        Effect.map((rows) => num(rows[0].balance_halalas)),
      )

    // The row lock of the UPDATE serializes concurrent charges; the condition is re-read under it.
    // One statement (it is on every send's path, inside the locked section): the ledger row is written
    // only when the UPDATE took the amount, and a single statement needs no transaction of its own.
    const charge = (e: LedgerEntry) => {
      const amount = -e.amountHalalas
      return sql`WITH charged AS (
          UPDATE wallets SET balance_halalas = balance_halalas - ${amount}
          WHERE account_id = ${e.accountId} AND balance_halalas >= ${amount}
          RETURNING account_id, balance_halalas
        ), entry AS (
          INSERT INTO ledger (account_id, kind, amount_halalas, product, reference, at)
          SELECT account_id, ${e.kind}::text, ${e.amountHalalas}::bigint, ${e.product}::text, ${e.reference}::text,
            ${e.at}::bigint FROM charged
        )
        SELECT balance_halalas FROM charged`.pipe(
        Effect.map((rows) => (rows.length === 0 ? Option.none<number>() : Option.some(num(rows[0].balance_halalas)))),
      )
    }

    return {
      balance: (accountId) =>
        sql`SELECT balance_halalas FROM wallets WHERE account_id = ${accountId}`.pipe(
          Effect.map((rows) => (rows.length === 0 ? 0 : num(rows[0].balance_halalas))),
          Effect.orDie,
        ),
      add: (entry) => atomically(sql, add(entry)).pipe(Effect.orDie),
      charge: (entry) => charge(entry).pipe(Effect.orDie),
      summary: (accountId, since) =>
        sql`SELECT kind, sum(amount_halalas) AS total FROM ledger
          WHERE account_id = ${accountId} AND at >= ${since} GROUP BY kind`.pipe(
          Effect.map((rows) => {
            const total = (kind: LedgerKind) => num(rows.find((row) => row.kind === kind)?.total ?? 0)
            return { credits: total("credit"), charges: 0 - total("charge"), refunds: total("refund") }
          }),
          Effect.orDie,
        ),
      lastCredit: (accountId) =>
        sql`SELECT account_id, kind, amount_halalas, product, reference, at FROM ledger
          WHERE account_id = ${accountId} AND kind = 'credit' ORDER BY at DESC, id DESC LIMIT 1`.pipe(
          Effect.map((rows) => first(rows, toEntry)),
          Effect.orDie,
        ),
      // Net spend per product: charges less their refunds, as positive numbers.
      monthByProduct: (accountId, since) =>
        sql`SELECT product, -sum(amount_halalas) AS spent FROM ledger
          WHERE account_id = ${accountId} AND at >= ${since} AND kind IN ('charge', 'refund') AND product IS NOT NULL
          GROUP BY product ORDER BY product`.pipe(
          Effect.map((rows) => Object.fromEntries(rows.map((row) => [row.product as string, num(row.spent)]))),
          Effect.orDie,
        ),
    }
  }),
)
