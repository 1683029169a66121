/**
 * The ceiling of the Email benchmark: the statements the Node host issues for one send (`POST /v1/email/messages`,
 * the simulated provider), straight through `pg` (plain, and with named prepared statements) or straight on
 * `@electric-sql/pglite`, with no HTTP and no Effect, at the same concurrency. bench/email.ts lists them and checks
 * them against the host's own trace.
 *
 * The checks between statements are the host's too (the access granted, the switch on, `to` and `from` plain
 * addresses by the core's own test, `from` on a verified domain of the application); a refused step stops the run.
 * What the ceiling leaves out: the DKIM key's unsealing (the host unseals it for every send; the simulated
 * provider does not sign) and the body's decoding.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { randomBytes, randomUUID } from "node:crypto"
import { Effect, Redacted } from "effect"
import { products } from "../../adapters/products.ts"
import { migrate } from "../../adapters/sql/migrate.ts"
import { isSendableAddress } from "../../core/email/address.ts"
import { type Db, openPgliteDb, pgDb, Sql as VerifySql } from "../verify-lib/ceiling.ts"
import { type Ceiling, ceilingOver, type CeilingRun, seedKeys } from "../lib/sends.ts"

export type { Ceiling, CeilingRun }
import { sendBody, senderDomain } from "./platform.ts"

const domainColumns =
  `id, application_id, domain, status, records, dkim_private_key_sealed, pending_until, verified_at, checked_at, created_at`
const messageColumns =
  `id, application_id, account_id, "from", "to", subject, reference, status, complained, test, domain_id, domain, provider_message_id, created_at, updated_at`

/** The statements, as the adapters write them (whitespace aside). */
export const Sql = {
  /** adapters/sql/credentials.ts: the rate window's hit and the key, its account and application. */
  presentation: VerifySql.presentation,
  /** adapters/sql/email.ts EmailAccessRepo.get: the account's access. */
  access: `SELECT status, requested_at, decided_at FROM email_access WHERE account_id = $1`,
  /** adapters/sql/email.ts EmailSwitchRepo.enabled: the application's switch. */
  switch: `SELECT enabled FROM email_switch WHERE application_id = $1`,
  /** adapters/sql/email.ts SenderDomainsRepo.list: the application's domains. */
  domains: `SELECT ${domainColumns} FROM sender_domains WHERE application_id = $1 ORDER BY created_at, id`,
  /** adapters/sql/email.ts EmailMessagesRepo.insert. */
  insertMessage: `INSERT INTO email_messages (${messageColumns}) VALUES (${
    Array.from({ length: 15 }, (_, i) => `$${i + 1}`).join(", ")
  })`,
  /** adapters/sql/email-simulator.ts SimulatedEmailRepo.append: the simulated provider's log (the send). */
  logSend:
    `INSERT INTO sim_email_sent (id, "from", "to", subject, text, html, sent_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
  /** adapters/sql/email.ts EmailMessagesRepo.setProviderId. */
  setProviderId: `UPDATE email_messages SET provider_message_id = $1 WHERE id = $2`,
} as const

/** One send's statements in the host's order (no transaction: each autocommits). */
export const sendStatements: ReadonlyArray<string> = [
  Sql.presentation,
  Sql.access,
  Sql.switch,
  Sql.domains,
  Sql.insertMessage,
  Sql.logSend,
  Sql.setProviderId,
]

/** The simulated provider's statements among them (they stand in for the provider's API). */
export const simulatorStatementCount = [Sql.logSend].length

interface Seed {
  readonly accountId: string
  readonly applicationId: string
  readonly keyHashes: ReadonlyArray<string>
}

/** The rows the console and the walk-through make: an account with Email granted, a verified domain, live keys. */
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
  await db.query(
    "",
    `INSERT INTO email_access (account_id, status, requested_at, decided_at) VALUES ($1, 'granted', $2, $2)`,
    [accountId, now],
  )
  await db.query(
    "",
    `INSERT INTO sender_domains (${domainColumns}) VALUES ($1, $2, $3, 'verified', '[]'::jsonb, $4, $5, $5, $5, $5)`,
    [randomUUID(), applicationId, senderDomain, randomBytes(1200).toString("base64"), now],
  )
  const keyHashes = await seedKeys(db, { accountId, applicationId, now }, keys)
  return { accountId, applicationId, keyHashes }
}

const windowStart = (now: number) => now - (now % 60_000)

/** One send: the host's statements in its order, with its checks between them. */
const send = async (db: Db, s: Seed, run: CeilingRun) => {
  const input = sendBody(run.nextTo++)
  const now = Date.now()
  const [principal] = await db.query("presentation", Sql.presentation, [
    s.keyHashes[run.nextKey++ % s.keyHashes.length],
    windowStart(now),
  ])
  if (principal.ap_id !== s.applicationId) throw new Error("ceiling: the key was not found")
  const [access] = await db.query("access", Sql.access, [principal.acc_id])
  if (access?.status !== "granted") throw new Error("ceiling: no access")
  const sw = await db.query("switch", Sql.switch, [s.applicationId])
  if (sw.length > 0 && sw[0].enabled !== true) throw new Error("ceiling: Email is off")
  if (!isSendableAddress(input.to)) throw new Error("ceiling: invalid destination")
  const at = input.from.lastIndexOf("@")
  const fromDomain = at > 0 && isSendableAddress(input.from) ? input.from.slice(at + 1).toLowerCase() : ""
  const held = (await db.query("domains", Sql.domains, [s.applicationId])).find((d) => d.domain === fromDomain)
  if (held === undefined || held.status !== "verified") throw new Error("ceiling: sender not verified")
  const id = randomUUID()
  await db.query("insertMessage", Sql.insertMessage, [
    id,
    s.applicationId,
    s.accountId,
    input.from,
    input.to,
    input.subject,
    input.reference,
    "sent",
    false,
    false,
    held.id,
    held.domain,
    null,
    now,
    now,
  ])
  await db.query("logSend", Sql.logSend, [id, input.from, input.to, input.subject, input.text, null, Date.now()])
  await db.query("setProviderId", Sql.setProviderId, [id, id])
}

/** `pg` on a fresh schema the project's migrations made; the pool is the project's (pg's default of 10). */
export const openPgCeiling = async (url: string, prepared: boolean, keys: number): Promise<Ceiling> => {
  await Effect.runPromise(
    Effect.provide(migrate(products), PgClient.layer({ url: Redacted.make(url) })).pipe(Effect.scoped),
  )
  const db = pgDb(url, { prepared, poolSize: 10 })
  const s = await seed(db, keys)
  return ceilingOver(prepared ? "pg, named prepared statements" : "pg", (run) => send(db, s, run), db.close)
}

/** `@electric-sql/pglite` in this process (bench/verify-lib/ceiling.ts `ceilingPglite`). */
export const openPgliteCeiling = async (keys: number, prepared = false): Promise<Ceiling> => {
  const { db, label } = await openPgliteDb(prepared)
  const s = await seed(db, keys)
  return ceilingOver(label, (run) => send(db, s, run), db.close)
}
