/** The auto-attendant's replies waiting to leave, over SQL: chat_replies (migrations/chat/0005). */
import { Effect, Layer, Option } from "effect"
import type { ApplicationId, Millis, SaudiMobile } from "../../core/shared/brands.ts"
import { ChatRepliesRepo, type ChatReply } from "../../ports/store/chat-replies.ts"
import { client, first, num, type Row } from "./rows.ts"

const toReply = (row: Row): ChatReply => ({
  id: row.id as string,
  applicationId: row.application_id as ApplicationId,
  phone: row.phone as SaudiMobile,
  conversationId: row.conversation_id as string,
  message: JSON.parse(row.message as string),
  lang: row.lang as string,
  createdAt: num(row.created_at) as Millis,
  dueAt: num(row.due_at) as Millis,
  attempts: num(row.attempts),
})

export const ChatRepliesRepoSql = Layer.effect(
  ChatRepliesRepo,
  Effect.gen(function* () {
    const sql = yield* client
    // Each customer's first reply: the only one that may leave (a later one waits for it).
    const heads = sql.literal(`SELECT DISTINCT ON (application_id, phone) application_id, phone, due_at, claimed_until
      FROM chat_replies ORDER BY application_id, phone, seq`)
    return {
      // One statement: `seq` follows the order of the VALUES list. Claimed: RETURNING's count reads the statement's
      // snapshot, which holds none of its own rows (what was queued before them); the customer's lock, held by the
      // caller's transaction, keeps any other step from queueing beside them, and in the rare case something was
      // queued before, the claim is released (a second statement).
      append: (replies, claimUntil) => {
        if (replies.length === 0) return Effect.succeed(false)
        const rows = replies.map((r) => ({
          id: r.id,
          application_id: r.applicationId,
          phone: r.phone,
          conversation_id: r.conversationId,
          message: JSON.stringify(r.message),
          lang: r.lang,
          created_at: r.createdAt,
          due_at: r.dueAt,
          attempts: r.attempts,
        }))
        if (claimUntil === undefined) {
          return sql`INSERT INTO chat_replies ${sql.insert(rows)}`.pipe(Effect.as(false), Effect.orDie)
        }
        const [{ applicationId, phone }] = replies
        return sql`INSERT INTO chat_replies ${sql.insert(rows.map((r) => ({ ...r, claimed_until: claimUntil })))}
          RETURNING (SELECT count(*) FROM chat_replies h WHERE h.application_id = ${applicationId}
            AND h.phone = ${phone}) AS queued_before`.pipe(
          Effect.flatMap((out) =>
            num(out[0]?.queued_before) === 0 ? Effect.succeed(true) : sql`UPDATE chat_replies SET claimed_until = NULL
              WHERE ${sql.in("id", replies.map((r) => r.id))}`.pipe(Effect.as(false))
          ),
          Effect.orDie,
        )
      },
      // The row lock makes the claim's test run again on what a concurrent claimer left: one of two gets it.
      claimHead: (q, now, until) =>
        sql`UPDATE chat_replies SET claimed_until = ${until}
          WHERE id = (SELECT h.id FROM chat_replies h WHERE h.application_id = ${q.applicationId}
              AND h.phone = ${q.phone} ORDER BY h.seq LIMIT 1)
            AND due_at <= ${now} AND (claimed_until IS NULL OR claimed_until <= ${now})
          RETURNING *`.pipe(Effect.map((rows) => first(rows, toReply)), Effect.orDie),
      remove: (id) => sql`DELETE FROM chat_replies WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      retryAt: (id, dueAt, attempts) =>
        sql`UPDATE chat_replies SET due_at = ${dueAt}, attempts = ${attempts}, claimed_until = NULL
          WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      dueQueues: (now, limit) =>
        sql`SELECT application_id, phone FROM (${heads}) h
          WHERE due_at <= ${now} AND (claimed_until IS NULL OR claimed_until <= ${now}) LIMIT ${limit}`.pipe(
          Effect.map((rows) =>
            rows.map((r) => ({ applicationId: r.application_id as ApplicationId, phone: r.phone as SaudiMobile }))
          ),
          Effect.orDie,
        ),
      earliestDue: sql`SELECT min(greatest(due_at, coalesce(claimed_until, 0))) AS at FROM (${heads}) h`.pipe(
        Effect.map((rows) =>
          rows[0]?.at === null || rows[0]?.at === undefined ? Option.none() : Option.some(num(rows[0].at) as Millis)
        ),
        Effect.orDie,
      ),
    }
  }),
)
