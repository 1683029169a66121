/**
 * Verify's retention on PostgreSQL / PGlite (ports/store/verify-retention.ts): each prune is one DELETE of at most
 * `limit` rows found by an index, run on its own (autocommit) so it holds its row locks for one short statement.
 * A row is chosen by its `ctid` and the condition is repeated, so a row a concurrent statement changed is left
 * for the next run instead of being deleted on the strength of its old version.
 */
import { Effect, Layer, Option } from "effect"
import type { Millis } from "../../core/shared/brands.ts"
import { VerifyRetentionRepo } from "../../ports/store/verify-retention.ts"
import { earliest } from "../jobs.ts"
import { client, num, numOrNull, type Row } from "./rows.ts"

const count = (rows: ReadonlyArray<Row>) => num(rows[0].n)
const at = (value: unknown): Option.Option<Millis> => Option.fromNullable(numOrNull(value) as Millis | null)

export const VerifyRetentionRepoSql = Layer.effect(
  VerifyRetentionRepo,
  Effect.gen(function* () {
    const sql = yield* client

    // `id` follows insertion, and `sent_at` with it (the platform clock only moves forward): a batch looks at the
    // `limit` lowest ids (the primary key, no other index) and drops those old enough, so a batch never scans
    // past the oldest young send, and a short batch means the oldest sends left are young.
    const pruneSends = (before: Millis, limit: number) =>
      sql`WITH gone AS (
          DELETE FROM verify_sends WHERE id = ANY (ARRAY(
            SELECT id FROM (SELECT id, sent_at FROM verify_sends ORDER BY id LIMIT ${limit}) lowest
            WHERE sent_at < ${before}))
          RETURNING 1)
        SELECT count(*) AS n FROM gone`.pipe(Effect.map(count), Effect.orDie)

    // Terminal live and partner verifications (index `verifications_retention`, migration usage/0002).
    const pruneVerifications = (createdBefore: Millis, verifiedBefore: Millis, limit: number) =>
      sql`WITH gone AS (
          DELETE FROM verifications WHERE ctid = ANY (ARRAY(
            SELECT ctid FROM verifications
            WHERE status <> 'pending' AND mode NOT IN ('test', 'partner_test') AND created_at < ${createdBefore}
              AND coalesce(verified_at, 0) < ${verifiedBefore}
            ORDER BY created_at LIMIT ${limit}))
            AND status <> 'pending' AND mode NOT IN ('test', 'partner_test')
          RETURNING 1)
        SELECT count(*) AS n FROM gone`.pipe(Effect.map(count), Effect.orDie)

    /**
     * Counter rows whose `column` (an indexed time, or a small table's) is before `before`, oldest first; the
     * condition is repeated so a row a start moved on meanwhile stays.
     */
    const pruneOlder = (table: string, column: string) => (before: Millis, limit: number) =>
      sql`WITH gone AS (
          DELETE FROM ${sql.literal(table)} WHERE ctid = ANY (ARRAY(
            SELECT ctid FROM ${sql.literal(table)} WHERE ${sql.literal(column)} < ${before}
            ORDER BY ${sql.literal(column)} LIMIT ${limit}))
            AND ${sql.literal(column)} < ${before}
          RETURNING 1)
        SELECT count(*) AS n FROM gone`.pipe(Effect.map(count), Effect.orDie)

    const pruneDestinationCounters = pruneOlder("verify_destinations", "latest")
    const pruneClientIpCounters = pruneOlder("verify_client_ips", "latest")
    // One row per application and day, and only the days before today are ever old: a small scan.
    const pruneSpendDays = pruneOlder("verify_spend", "day_start")
    const pruneGuardMinutes = pruneOlder("verify_guard", "minute")

    const oldestOf = (table: string, column: string) =>
      sql`SELECT min(${sql.literal(column)}) AS at FROM ${sql.literal(table)}`.pipe(
        Effect.map((rows) => at(rows[0].at)),
        Effect.orDie,
      )

    const oldest = Effect.all({
      send: sql`SELECT sent_at AS at FROM verify_sends ORDER BY id LIMIT 1`.pipe(
        Effect.map((rows) => (rows.length === 0 ? Option.none<Millis>() : at(rows[0].at))),
        Effect.orDie,
      ),
      verification: sql`SELECT min(created_at) AS at FROM verifications
        WHERE status <> 'pending' AND mode NOT IN ('test', 'partner_test')`.pipe(
        Effect.map((rows) => at(rows[0].at)),
        Effect.orDie,
      ),
      destination: oldestOf("verify_destinations", "latest"),
      clientIp: oldestOf("verify_client_ips", "latest"),
      spendDay: oldestOf("verify_spend", "day_start"),
      guardMinute: oldestOf("verify_guard", "minute"),
    }).pipe(Effect.map(({ clientIp, destination, ...rest }) => ({
      ...rest,
      capCounter: earliest(destination, clientIp) as Option.Option<Millis>,
    })))

    return {
      pruneSends,
      pruneVerifications,
      pruneDestinationCounters,
      pruneClientIpCounters,
      pruneSpendDays,
      pruneGuardMinutes,
      oldest,
    }
  }),
)
