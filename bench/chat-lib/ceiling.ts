/**
 * The ceiling of the Chat benchmark: the statements the Node host issues for each message of one conversation
 * (bench/chat-lib/platform.ts `script`: a first message answered with the greeting, a tap into the nested menu, the
 * tap that hands over to the team), straight through `pg` (plain, and with named prepared statements) or straight
 * on `@electric-sql/pglite`, with no HTTP and no Effect, at the same concurrency. The engine's step between them is
 * the core's own pure function (core/chat/conversation.ts), as in the host.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { randomUUID } from "node:crypto"
import { Effect, Redacted } from "effect"
import { migrate } from "../../adapters/sql/migrate.ts"
import { products } from "../../adapters/products.ts"
import { type Conversation, messageText, step } from "../../core/chat/conversation.ts"
import type { Millis } from "../../core/shared/brands.ts"
import { type Db, openPgliteDb, pgDb } from "../verify-lib/ceiling.ts"
import { type Ceiling, ceilingOver, type CeilingRun } from "../lib/sends.ts"
import { measureSlice, ownCpuSeconds, type Slice } from "../verify-lib/support.ts"
import { benchMenu, customerNumber, script } from "./platform.ts"

export type { Ceiling, CeilingRun }

/** The host's statements, as the adapters write them (whitespace aside), in the order it issues them. */
export const Sql = {
  application:
    `SELECT id, account_id, name, status, external_id, paused, unpaused_at, approved_at, created_at FROM applications WHERE id = $1`,
  attendant: `SELECT a.application_id, a.enabled, a.mode, a.language, a.live_version, a.live_published_at, a.live_menu
    FROM (SELECT pg_advisory_xact_lock(hashtextextended($1, 0))) l
    LEFT JOIN chat_attendants a ON a.application_id = $2`,
  ongoing: `SELECT * FROM chat_conversations WHERE application_id = $1 AND phone = $2 AND outcome = 'ongoing'`,
  save: `INSERT INTO chat_conversations (id, application_id, phone, customer_name, version, level, choices,
      outcome, collected, started_at, last_customer_at, ended_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
    ON CONFLICT (id) DO UPDATE SET customer_name = EXCLUDED.customer_name, level = EXCLUDED.level,
      choices = EXCLUDED.choices, outcome = EXCLUDED.outcome, collected = EXCLUDED.collected,
      last_customer_at = EXCLUDED.last_customer_at, ended_at = EXCLUDED.ended_at`,
  queue:
    `INSERT INTO chat_replies ("id","application_id","phone","conversation_id","message","lang","created_at","due_at","attempts","claimed_until") VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)
    RETURNING (SELECT count(*) FROM chat_replies h WHERE h.application_id = $11 AND h.phone = $12) AS queued_before`,
  logSend: `INSERT INTO sim_chat_sent (id, application_id, "to", template, lang, text, sent_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7)`,
  sent: `DELETE FROM chat_replies WHERE id = $1`,
} as const

/**
 * One message's statements: a step that replies (each of the script's: the hand-over sends its notice) has 9 (BEGIN
 * and COMMIT with them), one that does not 6. The reply is queued claimed (the customer had nothing queued), so no
 * claim follows the commit.
 */
export const messageStatements = (replies: boolean): ReadonlyArray<string> => [
  Sql.application,
  "BEGIN",
  Sql.attendant,
  Sql.ongoing,
  Sql.save,
  ...(replies ? [Sql.queue] : []),
  "COMMIT",
  ...(replies ? [Sql.logSend, Sql.sent] : []),
]

interface Seed {
  readonly applicationId: string
}

const seed = async (db: Db): Promise<Seed> => {
  const now = Date.now()
  const accountId = randomUUID()
  const applicationId = randomUUID()
  await db.query(
    "",
    `INSERT INTO accounts (id, name, sandbox_only, partner, status, created_at) VALUES ($1, 'Ceiling merchant', false, false, 'active', $2)`,
    [accountId, now],
  )
  await db.query(
    "",
    `INSERT INTO applications (id, account_id, name, status, external_id, paused, created_at) VALUES ($1, $2, 'Ceiling shop', 'active', NULL, false, $3)`,
    [applicationId, accountId, now],
  )
  const menu = JSON.stringify(benchMenu)
  await db.query(
    "",
    `INSERT INTO chat_attendants (application_id, enabled, mode, language, draft_menu, draft_saved_at, live_version, live_published_at, live_menu) VALUES ($1, true, 'always', 'ar', $2, $3, 1, $3, $2)`,
    [applicationId, menu, now],
  )
  await db.query(
    "",
    `INSERT INTO chat_attendant_versions (application_id, version, menu, published_at) VALUES ($1, 1, $2, $3)`,
    [applicationId, menu, now],
  )
  return { applicationId }
}

const conversationOf = (row: Record<string, any>): Conversation => ({
  id: row.id,
  phone: row.phone,
  customerName: row.customer_name ?? null,
  version: Number(row.version),
  level: row.level ?? null,
  choices: JSON.parse(row.choices),
  outcome: row.outcome,
  collected: JSON.parse(row.collected),
  startedAt: Number(row.started_at) as Millis,
  lastCustomerAt: Number(row.last_customer_at) as Millis,
  endedAt: row.ended_at === null ? null : Number(row.ended_at) as Millis,
})

/** One message of a customer: the host's statements in its order, the engine's step between them. */
const message = async (db: Db, s: Seed, from: string, m: (typeof script)[number]) => {
  const now = Date.now() as Millis
  const [app] = await db.query("application", Sql.application, [s.applicationId])
  if (app === undefined) throw new Error("ceiling: no application")
  const newId = randomUUID()
  const messages = await db.transaction(async (q) => {
    const [a] = await q("attendant", Sql.attendant, [`chat.conversation:${s.applicationId}:${from}`, s.applicationId])
    const [held] = await q("ongoing", Sql.ongoing, [s.applicationId, from])
    const menu = JSON.parse(a.live_menu)
    const done = step(
      held === undefined ? null : conversationOf(held),
      {
        _tag: "Inbound",
        ...(m.text === undefined ? {} : { text: m.text }),
        ...(m.choice_id === undefined ? {} : { choiceId: m.choice_id }),
      },
      {
        now,
        enabled: a.enabled,
        mode: a.mode,
        teamFree: false,
        live: { version: a.live_version, menu },
        menu,
      },
      from,
      newId,
    )
    const c = done.conversation
    if (c === null) throw new Error("ceiling: no conversation")
    await q("save", Sql.save, [
      c.id,
      s.applicationId,
      c.phone,
      c.customerName,
      c.version,
      c.level,
      JSON.stringify(c.choices),
      c.outcome,
      JSON.stringify(c.collected),
      c.startedAt,
      c.lastCustomerAt,
      c.endedAt,
    ])
    const ids = done.messages.map(() => randomUUID())
    for (const [i, out] of done.messages.entries()) {
      const [queued] = await q("queue", Sql.queue, [
        ids[i],
        s.applicationId,
        from,
        c.id,
        JSON.stringify(out),
        "ar",
        now,
        now,
        0,
        now + 60_000,
        s.applicationId,
        from,
      ])
      if (Number(queued.queued_before) !== 0) throw new Error("ceiling: a reply was queued before")
    }
    return done.messages.map((out, i) => ({ id: ids[i], out }))
  })
  // The step's replies in order, queued claimed: sent, then deleted.
  for (const { id, out } of messages) {
    const at = Date.now()
    await db.query("logSend", Sql.logSend, [id, s.applicationId, from, "attendant", "ar", messageText(out), at])
    await db.query("sent", Sql.sent, [id])
  }
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * A ceiling whose clients each play the conversation script with a new customer each time, as the platform's
 * clients do; every message is one measured unit (ceilingOver's loop, which knows no conversation, otherwise).
 */
const conversations = (label: string, db: Db, s: Seed): Ceiling => {
  const base = ceilingOver(label, () => Promise.resolve(), db.close)
  const run = base.run
  return {
    run,
    close: base.close,
    slice: async (opts) => {
      const client = async (slice: Slice) => {
        while (!slice.stopping) {
          const from = customerNumber(5_000_000 + run.nextTo++)
          for (const m of script) {
            await yieldToLoop()
            const t0 = performance.now()
            await message(db, s, from, m)
            if (slice.measuring) {
              run.latency.add(performance.now() - t0)
              slice.verifications++
            }
            if (slice.stopping) break
          }
        }
      }
      const [cpu] = await measureSlice(opts, client, run, [ownCpuSeconds])
      run.cpuSeconds += cpu
    },
  }
}

export const openPgCeiling = async (url: string, prepared: boolean): Promise<Ceiling> => {
  await Effect.runPromise(
    Effect.provide(migrate(products), PgClient.layer({ url: Redacted.make(url) })).pipe(Effect.scoped),
  )
  const db = pgDb(url, { prepared, poolSize: 10 })
  const s = await seed(db)
  return conversations(prepared ? "pg, named prepared statements" : "pg", db, s)
}

export const openPgliteCeiling = async (prepared: boolean): Promise<Ceiling> => {
  const { db, label } = await openPgliteDb(prepared)
  return conversations(label, db, await seed(db))
}
