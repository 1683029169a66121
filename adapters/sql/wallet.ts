/**
 * The prepaid wallet: one balance row per account kept in step with an append-only ledger (each write of
 * the balance writes its ledger row in the same statement or transaction), each top-up's method, the
 * account's settings and card, top-up links and proformas.
 */
import { Effect, Layer, Option } from "effect"
import { Wallet } from "../../core/limits.ts"
import type { AccountId } from "../../core/shared/brands.ts"
import {
  type Buyer,
  type Charged,
  type ChargeParameter,
  type LedgerEntry,
  type LinkStatus,
  type Proforma,
  ProformasRepo,
  type Topup,
  type TopupLink,
  TopupLinksRepo,
  type TopupMethod,
  WalletChargeSql,
  WalletRepo,
  type WalletSettings,
} from "../../ports/store/wallet.ts"
import { atomically, client, first, json, num, numOrNull, type Row, toJson } from "./rows.ts"

/** Settings from a `wallet_settings` row (or the defaults where there is none: a LEFT JOIN's nulls). */
const toSettings = (row: Row | undefined): WalletSettings =>
  row === undefined || row.low_balance_alert_halalas === null || row.low_balance_alert_halalas === undefined
    ? {
      lowBalanceAlertHalalas: Wallet.lowBalanceAlertHalalas,
      autoTopup: { ...Wallet.autoTopup },
      card: null,
    }
    : {
      lowBalanceAlertHalalas: num(row.low_balance_alert_halalas),
      autoTopup: {
        enabled: row.auto_topup_enabled === true,
        thresholdHalalas: num(row.auto_topup_threshold_halalas),
        amountHalalas: num(row.auto_topup_amount_halalas),
      },
      card: row.card_token === null || row.card_token === undefined
        ? null
        : { brand: row.card_brand, last4: row.card_last4, token: row.card_token },
    }

const toTopup = (row: Row): Topup => ({
  id: row.id,
  accountId: row.account_id as AccountId,
  method: row.method as TopupMethod,
  amountHalalas: num(row.amount_halalas),
  at: num(row.at),
})

/**
 * A charge as two CTEs (`charged`, `entry`) of a statement: the balance taken only when it holds the amount, and
 * its ledger row only then. `p` names the statement's parameters (`ChargeParameter`); `onlyIf`, a further
 * condition of the charge. The wallet's own charge is this statement alone; Verify's send takes it inside its own
 * statement, through the port (`WalletChargeSql`).
 */
const chargeCtes = (p: (name: ChargeParameter) => string, onlyIf = "true") => {
  const amount = `${p("amount")}::bigint`
  const row = [`${p("kind")}::text`, `${p("entryAmount")}::bigint`, `${p("product")}::text`, `${p("reference")}::text`]
  return `charged AS (
    UPDATE wallets SET balance_halalas = balance_halalas - ${amount}
    WHERE account_id = ${p("account")}::uuid AND balance_halalas >= ${amount} AND ${onlyIf}
    RETURNING account_id, balance_halalas
  ), entry AS (
    INSERT INTO ledger (account_id, kind, amount_halalas, product, reference, at)
    SELECT account_id, ${row.join(", ")}, ${p("at")}::bigint FROM charged
  )`
}

const chargeValues = (e: LedgerEntry): Record<ChargeParameter, unknown> => ({
  amount: -e.amountHalalas,
  account: e.accountId,
  kind: e.kind,
  entryAmount: e.amountHalalas,
  product: e.product,
  reference: e.reference,
  at: e.at,
})

/** The wallet's own charge binds them as `$1..$7`, in this order. */
const chargeOrder = Object.keys(chargeValues({} as LedgerEntry)) as ReadonlyArray<ChargeParameter>

/** What a charge answers (with `charged c LEFT JOIN wallet_settings s`): the balance after it and the settings. */
const chargedColumns = `c.balance_halalas, s.low_balance_alert_halalas, s.auto_topup_enabled,
  s.auto_topup_threshold_halalas, s.auto_topup_amount_halalas, s.card_brand, s.card_last4, s.card_token`

const toCharged = (row: Row): Charged => ({ balance: num(row.balance_halalas), settings: toSettings(row) })

const chargeText = `WITH ${chargeCtes((name) => `$${chargeOrder.indexOf(name) + 1}`)}
  SELECT ${chargedColumns} FROM charged c LEFT JOIN wallet_settings s ON s.account_id = c.account_id`

const chargeParams = (e: LedgerEntry): Array<unknown> => {
  const values = chargeValues(e)
  return chargeOrder.map((name) => values[name])
}

/** The wallet's charge as a part of another statement (the port's comment says how it is used). */
export const walletChargeSql: WalletChargeSql["Type"] = {
  covers: (p) => {
    const [amount, account] = [`${p("amount")}::bigint`, `${p("account")}::uuid`]
    return `coalesce((SELECT balance_halalas >= ${amount} FROM wallets WHERE account_id = ${account}), false)`
  },
  ctes: chargeCtes,
  joins: ` LEFT JOIN charged c ON true LEFT JOIN wallet_settings s ON s.account_id = c.account_id`,
  columns: chargedColumns,
  values: chargeValues,
  charged: toCharged,
}

export const WalletChargeSqlLive = Layer.succeed(WalletChargeSql, walletChargeSql)

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
    // One statement (it is on every send's path, the last before its commit): the ledger row is written only
    // when the UPDATE took the amount, and a single statement needs no transaction of its own. The account's
    // settings come back with the balance, for `balance.low` and the auto top-up. A constant text run with
    // `unsafe`: nothing is compiled per send.
    const charge = (e: LedgerEntry) =>
      sql.unsafe(chargeText, chargeParams(e)).pipe(
        Effect.map((rows) => (rows.length === 0 ? Option.none() : Option.some(toCharged(rows[0])))),
      )

    const topUp = (t: Topup) =>
      Effect.zipLeft(
        add({
          accountId: t.accountId,
          kind: "credit",
          amountHalalas: t.amountHalalas,
          product: null,
          reference: t.id,
          at: t.at,
        }),
        sql`INSERT INTO wallet_topups (id, account_id, method, amount_halalas, at)
          VALUES (${t.id}, ${t.accountId}, ${t.method}, ${t.amountHalalas}, ${t.at})`,
      )

    return {
      balance: (accountId) =>
        sql`SELECT balance_halalas FROM wallets WHERE account_id = ${accountId}`.pipe(
          Effect.map((rows) => (rows.length === 0 ? 0 : num(rows[0].balance_halalas))),
          Effect.orDie,
        ),
      add: (entry) => atomically(sql, add(entry)).pipe(Effect.orDie),
      topUp: (topup) => atomically(sql, topUp(topup)).pipe(Effect.orDie),
      charge: (entry) => charge(entry).pipe(Effect.orDie),
      summary: (accountId, since) =>
        sql`SELECT kind, sum(amount_halalas) AS total FROM ledger
          WHERE account_id = ${accountId} AND at >= ${since} GROUP BY kind`.pipe(
          Effect.map((rows) => {
            const total = (kind: LedgerEntry["kind"]) => num(rows.find((row) => row.kind === kind)?.total ?? 0)
            return { credits: total("credit"), charges: 0 - total("charge"), refunds: total("refund") }
          }),
          Effect.orDie,
        ),
      lastTopup: (accountId) =>
        sql`SELECT id, account_id, method, amount_halalas, at FROM wallet_topups
          WHERE account_id = ${accountId} ORDER BY at DESC, seq DESC LIMIT 1`.pipe(
          Effect.map((rows) => first(rows, toTopup)),
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
      settings: (accountId) =>
        sql`SELECT * FROM wallet_settings WHERE account_id = ${accountId}`.pipe(
          Effect.map((rows) => toSettings(rows[0])),
          Effect.orDie,
        ),
      // The defaults' row is made first, so that there is a row to lock even for an account that set nothing.
      settingsForUpdate: (accountId) =>
        sql`INSERT INTO wallet_settings (account_id, low_balance_alert_halalas, auto_topup_enabled,
            auto_topup_threshold_halalas, auto_topup_amount_halalas)
          VALUES (${accountId}, ${Wallet.lowBalanceAlertHalalas}, ${Wallet.autoTopup.enabled},
            ${Wallet.autoTopup.thresholdHalalas}, ${Wallet.autoTopup.amountHalalas})
          ON CONFLICT (account_id) DO NOTHING`.pipe(
          Effect.zipRight(sql`SELECT * FROM wallet_settings WHERE account_id = ${accountId} FOR UPDATE`),
          Effect.map((rows) => toSettings(rows[0])),
          Effect.orDie,
        ),
      saveSettings: (accountId, s) =>
        sql`INSERT INTO wallet_settings (account_id, low_balance_alert_halalas, auto_topup_enabled,
            auto_topup_threshold_halalas, auto_topup_amount_halalas, card_brand, card_last4, card_token)
          VALUES (${accountId}, ${s.lowBalanceAlertHalalas}, ${s.autoTopup.enabled}, ${s.autoTopup.thresholdHalalas},
            ${s.autoTopup.amountHalalas}, ${s.card?.brand ?? null}, ${s.card?.last4 ?? null}, ${s.card?.token ?? null})
          ON CONFLICT (account_id) DO UPDATE SET low_balance_alert_halalas = EXCLUDED.low_balance_alert_halalas,
            auto_topup_enabled = EXCLUDED.auto_topup_enabled,
            auto_topup_threshold_halalas = EXCLUDED.auto_topup_threshold_halalas,
            auto_topup_amount_halalas = EXCLUDED.auto_topup_amount_halalas, card_brand = EXCLUDED.card_brand,
            card_last4 = EXCLUDED.card_last4, card_token = EXCLUDED.card_token`.pipe(Effect.asVoid, Effect.orDie),
    }
  }),
)

const toLink = (row: Row): TopupLink => ({
  id: row.id,
  accountId: row.account_id as AccountId,
  url: row.url,
  status: row.status as LinkStatus,
  amountHalalas: num(row.amount_halalas),
  vatHalalas: num(row.vat_halalas),
  totalHalalas: num(row.total_halalas),
  expiresAt: num(row.expires_at),
  createdAt: num(row.created_at),
  paidAt: numOrNull(row.paid_at),
})

export const TopupLinksRepoSql = Layer.effect(
  TopupLinksRepo,
  Effect.map(client, (sql) => ({
    insert: (l) =>
      sql`INSERT INTO topup_links (id, account_id, url, status, amount_halalas, vat_halalas, total_halalas,
          expires_at, created_at, paid_at)
        VALUES (${l.id}, ${l.accountId}, ${l.url}, ${l.status}, ${l.amountHalalas}, ${l.vatHalalas},
          ${l.totalHalalas}, ${l.expiresAt}, ${l.createdAt}, ${l.paidAt})`.pipe(Effect.asVoid, Effect.orDie),
    getForUpdate: (id) =>
      sql`SELECT * FROM topup_links WHERE id = ${id} FOR UPDATE`.pipe(
        Effect.map((rows) => first(rows, toLink)),
        Effect.orDie,
      ),
    markPaid: (id, at) =>
      sql`UPDATE topup_links SET status = 'paid', paid_at = ${at} WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
  })),
)

const toProforma = (row: Row): Proforma => ({
  id: row.id,
  accountId: row.account_id as AccountId,
  number: row.number,
  status: row.status as LinkStatus,
  amountHalalas: num(row.amount_halalas),
  vatHalalas: num(row.vat_halalas),
  totalHalalas: num(row.total_halalas),
  buyer: json<Buyer>(row.buyer),
  iban: row.iban,
  issuedAt: num(row.issued_at),
  expiresAt: num(row.expires_at),
  paidAt: numOrNull(row.paid_at),
})

export const ProformasRepoSql = Layer.effect(
  ProformasRepo,
  Effect.map(client, (sql) => ({
    // The counter row's lock is held until the caller's transaction ends: the next proforma of the year
    // waits for this one to commit (or roll back and give its number back).
    nextNumber: (year) =>
      sql`INSERT INTO proforma_counters (year, last) VALUES (${year}, 1)
        ON CONFLICT (year) DO UPDATE SET last = proforma_counters.last + 1 RETURNING last`.pipe(
        Effect.map((rows) => num(rows[0].last)),
        Effect.orDie,
      ),
    insert: (p) =>
      sql`INSERT INTO proformas (id, account_id, number, status, amount_halalas, vat_halalas, total_halalas, buyer,
          iban, issued_at, expires_at, paid_at)
        VALUES (${p.id}, ${p.accountId}, ${p.number}, ${p.status}, ${p.amountHalalas}, ${p.vatHalalas},
          ${p.totalHalalas}, ${toJson(p.buyer)}::jsonb, ${p.iban}, ${p.issuedAt}, ${p.expiresAt}, ${p.paidAt})`.pipe(
        Effect.asVoid,
        Effect.orDie,
      ),
    getForUpdate: (id) =>
      sql`SELECT * FROM proformas WHERE id = ${id} FOR UPDATE`.pipe(
        Effect.map((rows) => first(rows, toProforma)),
        Effect.orDie,
      ),
    get: (id) =>
      sql`SELECT * FROM proformas WHERE id = ${id}`.pipe(Effect.map((rows) => first(rows, toProforma)), Effect.orDie),
    listByAccount: (accountId, limit) =>
      sql`SELECT * FROM proformas WHERE account_id = ${accountId}
        ORDER BY issued_at DESC, number DESC LIMIT ${limit}`.pipe(
        Effect.map((rows) => rows.map(toProforma)),
        Effect.orDie,
      ),
    markPaid: (id, at) =>
      sql`UPDATE proformas SET status = 'paid', paid_at = ${at} WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
  })),
)
