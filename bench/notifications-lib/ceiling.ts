/**
 * The ceiling of the Notifications benchmark: the statements the Node host issues for one template send
 * (`POST /v1/chatmsg/messages`, a utility template, the simulated chat network), straight through `pg` (plain,
 * and with named prepared statements) or straight on `@electric-sql/pglite`, with no HTTP and no Effect, at the
 * same concurrency. bench/notifications.ts lists them and checks them against the host's own trace.
 *
 * The work between statements is the host's too: the template copies parsed from their JSON, the chosen copy's
 * parameters checked and its text rendered by the core's own pure functions (core/notifications/params.ts,
 * template.ts); a refused step stops the run.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { randomUUID } from "node:crypto"
import { Effect, Redacted } from "effect"
import { migrate } from "../../adapters/sql/migrate.ts"
import { products } from "../../adapters/products.ts"
import { walletChargeSql } from "../../adapters/sql/wallet.ts"
import { Prices } from "../../core/limits.ts"
import type { NetworkTemplate } from "../../core/notifications/model.ts"
import { paramProblems } from "../../core/notifications/params.ts"
import { render } from "../../core/notifications/template.ts"
import type { AccountId, Millis } from "../../core/shared/brands.ts"
import type { ChargeParameter } from "../../ports/store/wallet.ts"
import { type Db, openPgliteDb, pgDb, Sql as VerifySql } from "../verify-lib/ceiling.ts"
import { type Ceiling, ceilingOver, type CeilingRun, seedKeys } from "../lib/sends.ts"
import { destination } from "../verify-lib/support.ts"

export type { Ceiling, CeilingRun }

// ---------------------------------------------------------------------------------------------------------------
// The statements, as the adapters write them (whitespace aside)

/** The wallet's own charge (adapters/sql/wallet.ts `chargeText`), built from the same parts through its port. */
const chargeOrder: ReadonlyArray<ChargeParameter> = [
  "amount",
  "account",
  "kind",
  "entryAmount",
  "product",
  "reference",
  "at",
]
const chargeText = `WITH ${walletChargeSql.ctes((name) => `$${chargeOrder.indexOf(name) + 1}`, "true")}
  SELECT ${walletChargeSql.columns} FROM charged c LEFT JOIN wallet_settings s ON s.account_id = c.account_id`

const messageColumns =
  `id, application_id, account_id, "to", template, lang, category, reference, price_halalas, status, error, provider_message_id, created_at, occurred_at`

export const Sql = {
  /** adapters/sql/credentials.ts: the rate window's hit and the key, its account and application. */
  presentation: VerifySql.presentation,
  /** adapters/sql/notifications.ts ChatChannelsRepo.enabled. */
  channel: `SELECT enabled FROM chat_channels WHERE application_id = $1`,
  /** adapters/sql/chat-simulator.ts number, readable, templates (the simulated network's reads). */
  number: `SELECT number, connected FROM sim_chat_numbers WHERE application_id = $1`,
  readable: `SELECT 1 FROM sim_chat_unreadable WHERE application_id = $1`,
  templates:
    `SELECT template FROM sim_chat_templates WHERE application_id = $1 ORDER BY name COLLATE "C", lang COLLATE "C"`,
  /** adapters/sql/wallet.ts: the charge with its ledger row (in the send's transaction). */
  charge: chargeText,
  /** adapters/sql/notifications.ts ChatMessagesRepo.insert (in the send's transaction). */
  insertMessage:
    `INSERT INTO chat_messages (${messageColumns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12, $13, $14)`,
  /** adapters/sql/chat-simulator.ts logSend: the simulated network's log (the network's send). */
  logSend:
    `INSERT INTO sim_chat_sent (id, application_id, "to", template, lang, text, sent_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
  /** adapters/sql/notifications.ts ChatMessagesRepo.setProviderId. */
  setProviderId: `UPDATE chat_messages SET provider_message_id = $1 WHERE id = $2`,
  /** The consent read (ChatConsentRepo.get): marketing templates only, so not in this benchmark's sends. */
  consent: `SELECT opted_out, source, updated_at FROM chat_consent WHERE application_id = $1 AND "to" = $2`,
} as const

/** One send's statements in the host's order (BEGIN and COMMIT around the charge and the insert). */
export const sendStatements: ReadonlyArray<string> = [
  Sql.presentation,
  Sql.channel,
  Sql.number,
  Sql.readable,
  Sql.templates,
  "BEGIN",
  Sql.charge,
  Sql.insertMessage,
  "COMMIT",
  Sql.logSend,
  Sql.setProviderId,
]

/** The simulated network's statements among them (they stand in for the chat network's API). */
export const simulatorStatementCount = [Sql.number, Sql.readable, Sql.templates, Sql.logSend].length

// ---------------------------------------------------------------------------------------------------------------
// Seed rows: those the console makes

export const templateName = "order_update"
export const templateCopy = { category: "utility", body: "Order {{order_id}} is on its way" } as const

const template: NetworkTemplate = {
  name: templateName,
  lang: "ar",
  category: "utility",
  status: "approved",
  reason: null,
  body: templateCopy.body,
  header: null,
  footer: null,
  buttons: [],
}

interface Seed {
  readonly accountId: string
  readonly applicationId: string
  readonly keyHashes: ReadonlyArray<string>
}

const seed = async (db: Db, keys: number): Promise<Seed> => {
  const now = Date.now()
  const accountId = randomUUID()
  const applicationId = randomUUID()
  await db.query(
    "",
    `INSERT INTO accounts (id, name, sandbox_only, partner, status, created_at) VALUES ($1, $2, false, false, 'active', $3)`,
    [accountId, "Ceiling merchant", now],
  )
  await db.query(
    "",
    `INSERT INTO applications (id, account_id, name, status, external_id, paused, created_at) VALUES ($1, $2, $3, 'active', NULL, false, $4)`,
    [applicationId, accountId, "Ceiling shop", now],
  )
  await db.query("", `INSERT INTO wallets (account_id, balance_halalas) VALUES ($1, 10000000000)`, [accountId])
  await db.query("", `INSERT INTO sim_chat_numbers (application_id, number, connected) VALUES ($1, $2, true)`, [
    applicationId,
    "+966555000111",
  ])
  await db.query(
    "",
    `INSERT INTO sim_chat_templates (application_id, name, lang, template) VALUES ($1, $2, $3, $4::jsonb)`,
    [applicationId, template.name, template.lang, JSON.stringify(template)],
  )
  const keyHashes = await seedKeys(db, { accountId, applicationId, now }, keys)
  return { accountId, applicationId, keyHashes }
}

// ---------------------------------------------------------------------------------------------------------------
// The loop

const windowStart = (now: number) => now - (now % 60_000)
const price = Prices.chatmsgHalalas.utility
const copyOf = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v) as NetworkTemplate

/** Statements a diagnostic ceiling may leave out (`--ceiling-omit`), to price each against the whole send. */
export const omissible = ["channel", "readable", "logSend", "setProviderId"] as const
export type Omissible = typeof omissible[number]

/** One send: the host's statements in its order, with its checks between them (less any of `omit`). */
const send = async (db: Db, s: Seed, run: CeilingRun, omit: ReadonlySet<Omissible>) => {
  const to = destination(run.nextTo++)
  const params = { order_id: `A-${run.nextTo}` }
  const now = Date.now()
  const [principal] = await db.query("presentation", Sql.presentation, [
    s.keyHashes[run.nextKey++ % s.keyHashes.length],
    windowStart(now),
  ])
  if (principal.ap_id !== s.applicationId) throw new Error("ceiling: the key was not found")
  const channel = omit.has("channel") ? [] : await db.query("channel", Sql.channel, [s.applicationId])
  if (channel.length > 0 && channel[0].enabled !== true) throw new Error("ceiling: the channel is off")
  const [number] = await db.query("number", Sql.number, [s.applicationId])
  if (number?.connected !== true) throw new Error("ceiling: no connected number")
  if (!omit.has("readable") && (await db.query("readable", Sql.readable, [s.applicationId])).length > 0) {
    throw new Error("ceiling: the network does not answer")
  }
  const copies = (await db.query("templates", Sql.templates, [s.applicationId])).map((r) => copyOf(r.template))
  const chosen = copies.find((t) => t.name === templateName)
  if (chosen === undefined || chosen.status !== "approved") throw new Error("ceiling: no approved template")
  if (Object.keys(paramProblems(chosen, params, undefined)).length > 0) throw new Error("ceiling: invalid params")
  const id = randomUUID()
  const at = now as Millis
  await db.transaction(async (q) => {
    const values = walletChargeSql.values({
      accountId: s.accountId as AccountId,
      kind: "charge",
      amountHalalas: -price,
      product: "notifications",
      reference: id,
      at,
    })
    const [charged] = await q("charge", Sql.charge, chargeOrder.map((name) => values[name]))
    if (charged === undefined) throw new Error("ceiling: the charge was refused")
    await q("insertMessage", Sql.insertMessage, [
      id,
      s.applicationId,
      s.accountId,
      to,
      chosen.name,
      chosen.lang,
      chosen.category,
      null,
      price,
      "accepted",
      null,
      null,
      now,
      now,
    ])
  })
  if (!omit.has("logSend")) {
    await db.query("logSend", Sql.logSend, [
      id,
      s.applicationId,
      to,
      chosen.name,
      chosen.lang,
      render(chosen, params),
      Date.now(),
    ])
  }
  if (!omit.has("setProviderId")) await db.query("setProviderId", Sql.setProviderId, [id, id])
}

const labelled = (label: string, omit: ReadonlySet<Omissible>) =>
  omit.size === 0 ? label : `${label}, without ${[...omit].join(", ")}`

/** `pg` on a fresh schema the project's migrations made; the pool is the project's (pg's default of 10). */
export const openPgCeiling = async (
  url: string,
  prepared: boolean,
  keys: number,
  omit: ReadonlySet<Omissible> = new Set(),
): Promise<Ceiling> => {
  await Effect.runPromise(
    Effect.provide(migrate(products), PgClient.layer({ url: Redacted.make(url) })).pipe(Effect.scoped),
  )
  const db = pgDb(url, { prepared, poolSize: 10 })
  const s = await seed(db, keys)
  return ceilingOver(
    labelled(prepared ? "pg, named prepared statements" : "pg", omit),
    (run) => send(db, s, run, omit),
    db.close,
  )
}

/** `@electric-sql/pglite` in this process (bench/verify-lib/ceiling.ts `ceilingPglite`). */
export const openPgliteCeiling = async (
  keys: number,
  omit: ReadonlySet<Omissible> = new Set(),
  prepared = false,
): Promise<Ceiling> => {
  const { db, label } = await openPgliteDb(prepared)
  const s = await seed(db, keys)
  return ceilingOver(labelled(label, omit), (run) => send(db, s, run, omit), db.close)
}

/** The project's int8 parser: a number when it is safe, else a bigint. */
export const int8 = (v: string) => {
  const n = BigInt(v)
  return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n
}
