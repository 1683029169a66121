/** The auto-attendant's conversations over SQL: chat_conversations (migrations/chat/0002), also its log. */
import { Effect, Layer, Option } from "effect"
import { type Outcome, outcomes } from "../../core/chat/conversation.ts"
import type { ApplicationId, Millis } from "../../core/shared/brands.ts"
import { type ChatConversation, ChatConversationsRepo, type LogQuery } from "../../ports/store/chat.ts"
import { nameText } from "./migrations/chat/0006_log_search.ts"
import { client, first, num, numOrNull, type Row } from "./rows.ts"
import { nameGrams, phoneGrams } from "./migrations/chat/0008_log_short_search.ts"
import { containsPattern, gramsOf, hasTrigram, textArray } from "./search.ts"

const toConversation = (row: Row): ChatConversation => ({
  id: row.id as string,
  applicationId: row.application_id as ApplicationId,
  phone: row.phone as string,
  customerName: (row.customer_name as string | null) ?? null,
  version: num(row.version),
  level: (row.level as string | null) ?? null,
  choices: JSON.parse(row.choices as string),
  outcome: row.outcome as Outcome,
  collected: JSON.parse(row.collected as string),
  startedAt: num(row.started_at),
  lastCustomerAt: num(row.last_customer_at),
  endedAt: numOrNull(row.ended_at),
})

/**
 * One page of the log: its statement and values. `after` past the end when none is given. `q` is found in the name
 * (and the number, when that is searched too) through an index either way: the trigram indexes (migrations/chat/0006)
 * when it has a trigram, else the grams' (chat/0008, its characters and pairs), each then tested as it stands.
 */
export const logStatement = (q: LogQuery): readonly [string, ReadonlyArray<unknown>] => {
  const params: Array<unknown> = [q.applicationId]
  const bind = (value: unknown) => `$${params.push(value)}`
  const where = [`application_id = $1`, `outcome IN (${(q.outcomes ?? outcomes).map(bind).join(", ")})`]
  // The LIKE also gives the planner its estimate (its statistics' sample tested against the pattern), which the
  // grams' containment alone would not: a gram it has no figure for is guessed at up to 0.5 % of the rows, at which
  // a newest-first scan that read the whole log when none matched looked cheaper.
  const part = (text: string, grams: string, needle: string) =>
    hasTrigram(needle)
      ? `${text} LIKE ${bind(containsPattern(needle))}`
      : `(${text} LIKE ${bind(containsPattern(needle))} AND ${grams} @> ${bind(textArray(gramsOf(needle)))}::text[])`
  const needle = q.q?.toLowerCase() ?? null
  if (needle !== null) {
    const name = part(nameText, nameGrams, needle)
    where.push(q.qPhone === null ? name : `(${name} OR ${part("phone", phoneGrams, q.qPhone)})`)
  }
  const after = q.after ?? { startedAt: Number.MAX_SAFE_INTEGER, id: "ffffffff-ffff-ffff-ffff-ffffffffffff" }
  where.push(`(started_at, id) < (${bind(after.startedAt)}, ${bind(after.id)}::uuid)`)
  const text = `SELECT * FROM chat_conversations WHERE ${where.join(" AND ")}
    ORDER BY started_at DESC, id DESC LIMIT ${bind(q.limit)}`
  return [text, params]
}

export const ChatConversationsRepoSql = Layer.effect(
  ChatConversationsRepo,
  Effect.gen(function* () {
    const sql = yield* client
    const select = (applicationId: ApplicationId, phone: string) =>
      sql`SELECT * FROM chat_conversations
        WHERE application_id = ${applicationId} AND phone = ${phone} AND outcome = 'ongoing'`.pipe(
        Effect.map((rows) => first(rows, toConversation)),
      )
    return {
      // A customer without a conversation has no row to lock: the lock is the application's and phone's.
      ongoing: (applicationId, phone, forUpdate = false) =>
        (forUpdate
          ? Effect.zipRight(
            sql`SELECT pg_advisory_xact_lock(hashtextextended(${`chat.conversation:${applicationId}:${phone}`}, 0))`,
            select(applicationId, phone),
          )
          : select(applicationId, phone)).pipe(Effect.orDie),
      save: (c) =>
        sql`INSERT INTO chat_conversations (id, application_id, phone, customer_name, version, level, choices,
            outcome, collected, started_at, last_customer_at, ended_at)
          VALUES (${c.id}, ${c.applicationId}, ${c.phone}, ${c.customerName}, ${c.version}, ${c.level},
            ${JSON.stringify(c.choices)}, ${c.outcome}, ${JSON.stringify(c.collected)}, ${c.startedAt},
            ${c.lastCustomerAt}, ${c.endedAt})
          ON CONFLICT (id) DO UPDATE SET customer_name = EXCLUDED.customer_name, level = EXCLUDED.level,
            choices = EXCLUDED.choices, outcome = EXCLUDED.outcome, collected = EXCLUDED.collected,
            last_customer_at = EXCLUDED.last_customer_at, ended_at = EXCLUDED.ended_at`
          .pipe(Effect.asVoid, Effect.orDie),
      silentSince: (before, limit) =>
        sql`SELECT * FROM chat_conversations WHERE outcome = 'ongoing' AND last_customer_at <= ${before}
          ORDER BY last_customer_at LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map(toConversation)),
          Effect.orDie,
        ),
      handedOverSince: (applicationId, since) =>
        sql`SELECT count(*) AS n FROM chat_conversations
          WHERE application_id = ${applicationId} AND outcome = 'team' AND ended_at >= ${since}`.pipe(
          Effect.map((rows) => num(rows[0]?.n ?? 0)),
          Effect.orDie,
        ),
      ongoingOf: (applicationId, limit) =>
        sql`SELECT * FROM chat_conversations WHERE outcome = 'ongoing' AND application_id = ${applicationId}
          LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map(toConversation)),
          Effect.orDie,
        ),
      page: (q) => {
        const [text, params] = logStatement(q)
        return sql.unsafe(text, params).pipe(Effect.map((rows) => rows.map(toConversation)), Effect.orDie)
      },
      earliestSilent: sql`SELECT min(last_customer_at) AS at FROM chat_conversations WHERE outcome = 'ongoing'`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]?.at), (at) => num(at) as Millis)),
        Effect.orDie,
      ),
      earliestStarted: sql`SELECT min(started_at) AS at FROM chat_conversations`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]?.at), (at) => num(at) as Millis)),
        Effect.orDie,
      ),
      prune: (before, limit) =>
        sql`DELETE FROM chat_conversations WHERE id IN (
          SELECT id FROM chat_conversations WHERE started_at < ${before} LIMIT ${limit}) RETURNING id`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie,
        ),
    }
  }),
)
