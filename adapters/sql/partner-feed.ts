/**
 * The partner feed and the verification log on PostgreSQL / PGlite.
 *
 * The feed (table `partner_feed`, written by a trigger on the outbox: migrations/partner-feed/0001) is paged by
 * (xid, seq), the id of the transaction that wrote an entry and the entry's sequence. A sequence alone would
 * skip entries: a transaction holding a lower seq can commit after a higher one was read. So a read hands out
 * only entries whose transaction id is below its snapshot's xmin (every transaction below it has ended, and any
 * transaction still to write an entry has a transaction id at or above it): those entries are final and no
 * later one can sort before them. An entry of a transaction that committed while an older transaction was
 * still running waits for that one to end; when a short page leaves such entries behind, the read waits a
 * little (up to about a second) for them, so a move shows in the feed as soon as it answered (DECISIONS 16)
 * unless some transaction of the database stays open longer than that. The page's statement is the function
 * `partner_feed_page` (migrations/partner-feed/0002), which walks the index in order whatever the statistics.
 */
import { Effect, Layer, Option } from "effect"
import type { EventId } from "../../core/shared/brands.ts"
import { type FeedEntry, type FeedPage, PartnerFeedRepo, VerificationLogRepo } from "../../ports/store/partner-feed.ts"
import { client, num, numOrNull, type Row, settledReader } from "./rows.ts"
import { toVerification, verificationColumns } from "./verify.ts"

const toEntry = (row: Row): FeedEntry => ({
  position: { tx: String(row.xid), seq: num(row.seq) },
  eventId: row.event_id as EventId,
  event: row.event,
  data: row.data as Record<string, unknown>,
  createdAt: num(row.created_at),
})

/** Sorts before every uuid: `(created_at, id) < (t, lowest)` is `created_at < t`. */
const lowestUuid = "00000000-0000-0000-0000-000000000000"

export const PartnerFeedRepoSql = Layer.effect(
  PartnerFeedRepo,
  Effect.gen(function* () {
    const sql = yield* client
    const settled = settledReader()
    return {
      page: (query) => {
        const after = query.after ?? { tx: "0", seq: 0 }
        const types = query.types === null ? null : query.types.join(",")
        // migrations/partner-feed/0002: the statement below the snapshot's xmin, walked in index order.
        return settled(
          sql`SELECT snapshot_xmin::text AS xmin, seq, xid::text AS xid, event_id, event, data, created_at
            FROM partner_feed_page(${query.accountId}::uuid, ${after.tx}::xid8, ${after.seq}::bigint,
              ${query.since}::bigint, string_to_array(${types}::text, ','), ${query.limit}::integer)`.pipe(
            Effect.map((rows) => {
              const xmin = String(rows[0].xmin)
              const entries = rows.filter((r) => r.seq !== null).map(toEntry)
              const page: FeedPage = { entries, settled: { tx: xmin, seq: 0 } }
              return {
                value: page,
                xmin,
                heldBack: entries.length >= query.limit ? Effect.succeed(false) : sql`SELECT EXISTS (
                    SELECT 1 FROM partner_feed WHERE account_id = ${query.accountId} AND xid >= ${xmin}::xid8) AS held`
                  .pipe(Effect.map((held) => held[0].held === true)),
              }
            }),
          ),
        ).pipe(Effect.orDie)
      },
      prune: (before) => sql`DELETE FROM partner_feed WHERE created_at < ${before}`.pipe(Effect.asVoid, Effect.orDie),
      oldest: sql`SELECT min(created_at) AS oldest FROM partner_feed`.pipe(
        Effect.map((rows) => Option.fromNullable(numOrNull(rows[0].oldest))),
        Effect.orDie,
      ),
    }
  }),
)

export const VerificationLogRepoSql = Layer.effect(
  VerificationLogRepo,
  Effect.gen(function* () {
    const sql = yield* client
    const cols = sql.literal(verificationColumns)
    return {
      // The cursor and `until` are one bound on (created_at, id), so the index (application_id, created_at, id)
      // is walked backwards from it (migrations/partner-feed/0001).
      page: (query) => {
        const cursor = query.before
        const bound = cursor !== null && cursor.createdAt < query.until
          ? { createdAt: cursor.createdAt, id: cursor.id }
          : { createdAt: query.until, id: lowestUuid }
        return sql`SELECT ${cols} FROM verifications
          WHERE application_id = ${query.applicationId} AND created_at >= ${query.since}
            AND (created_at, id) < (${bound.createdAt}::bigint, ${bound.id}::uuid)
            AND (${query.status}::text IS NULL OR status = ${query.status}::text)
            AND (${query.to}::text IS NULL OR "to" = ${query.to}::text)
            AND (${query.reference}::text IS NULL OR reference = ${query.reference}::text)
            AND (mode IN ('test', 'partner_test')) = ${query.sandbox}::boolean
          ORDER BY created_at DESC, id DESC LIMIT ${query.limit}`.pipe(
          Effect.map((rows) => rows.map(toVerification)),
          Effect.orDie,
        )
      },
    }
  }),
)
