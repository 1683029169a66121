/**
 * Webhook deliveries on PostgreSQL / PGlite. Claims lease rows with `FOR UPDATE SKIP LOCKED` and a
 * `lease_until` that lets another process take over a crashed one's work; an attempt is logged and
 * its outcome applied in one statement, the outcome only while the lease is still the caller's.
 */
import { Effect, Layer, Option } from "effect"
import type { EventId } from "../../core/shared/brands.ts"
import {
  type DeliveryAttempt,
  type DeliveryStatus,
  RoutePosition,
  WebhookDeliveriesRepo,
  type WebhookDelivery,
} from "../../ports/store/webhook-deliveries.ts"
import type { EndpointOwner } from "../../ports/store/webhook-endpoints.ts"
import { toEvent } from "./outbox.ts"
import { client, first, json, num, numOrNull, type Row, settledReader, toJson } from "./rows.ts"

const toDelivery = (row: Row): WebhookDelivery => ({
  id: row.id,
  webhookId: row.webhook_id,
  owner: { kind: row.owner_kind, id: row.owner_id } as EndpointOwner,
  eventId: (row.event_id ?? null) as EventId | null,
  event: row.event,
  data: json<Record<string, unknown>>(row.data),
  test: row.test,
  status: row.status as DeliveryStatus,
  scheduledAttempts: num(row.scheduled_attempts),
  manual: row.manual,
  nextAttemptAt: numOrNull(row.next_attempt_at),
  createdAt: num(row.created_at),
})

const toAttempt = (row: Row): DeliveryAttempt => ({
  at: num(row.at),
  statusCode: numOrNull(row.status_code),
  latencyMs: num(row.latency_ms),
  error: row.error ?? null,
})

const insertRow = (d: WebhookDelivery) => ({
  id: d.id,
  webhook_id: d.webhookId,
  owner_kind: d.owner.kind,
  owner_id: d.owner.id,
  event_id: d.eventId,
  event: d.event,
  data: toJson(d.data),
  test: d.test,
  status: d.status,
  scheduled_attempts: d.scheduledAttempts,
  manual: d.manual,
  next_attempt_at: d.nextAttemptAt,
  created_at: d.createdAt,
})

/**
 * The router's read, one statement: the lock (taken without waiting; none for a caller while another router holds
 * it), then up to $1 events past the cursor below the snapshot's xmin, walked in (xid, seq) order on the index
 * `outbox_events_position` (the cursor and the xmin are scalar subqueries, so they bound the index scan as
 * parameters whatever the statistics). Its first row carries the lock, the position of the last event read
 * (`through`), how many were read, the xmin, and whether the outbox's newest event is at or above it (events
 * held back behind running transactions); event columns come for the events with an endpoint of their
 * application or account (null on a lone first row).
 */
export const unroutedStatement = `WITH
  lock AS MATERIALIZED (
    SELECT pg_try_advisory_xact_lock(hashtext(coalesce(current_schema(), '') || '.outbox_routing')) AS locked),
  snap AS MATERIALIZED (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin),
  stretch AS MATERIALIZED (
    SELECT e.xid, e.seq, e.id, e.event, e.data, e.application_id, e.account_id, e.external_id, e.created_at
    FROM outbox_events e
    WHERE (SELECT locked FROM lock)
      AND (e.xid, e.seq) > ((SELECT xid FROM outbox_routing), (SELECT seq FROM outbox_routing))
      AND e.xid < (SELECT xmin FROM snap)
    ORDER BY e.xid, e.seq LIMIT $1),
  head AS (
    SELECT lock.locked,
      (SELECT xid::text || ':' || seq FROM stretch ORDER BY xid DESC, seq DESC LIMIT 1) AS through,
      (SELECT count(*) FROM stretch) AS read,
      (SELECT xmin::text FROM snap) AS xmin,
      (SELECT h.xid FROM outbox_events h WHERE h.xid IS NOT NULL ORDER BY h.xid DESC, h.seq DESC LIMIT 1)
        >= (SELECT xmin FROM snap) AS held
    FROM lock)
SELECT head.locked, head.through, head.read, head.xmin, head.held, s.id, s.event, s.data, s.application_id, s.account_id,
  s.external_id, s.created_at
FROM head LEFT JOIN LATERAL (
  SELECT * FROM stretch WHERE
    EXISTS (SELECT 1 FROM webhook_endpoints w
      WHERE w.owner_kind = 'application' AND w.owner_id = stretch.application_id::text)
    OR EXISTS (SELECT 1 FROM webhook_endpoints w
      WHERE w.owner_kind = 'account' AND w.owner_id = stretch.account_id::text)
  ORDER BY stretch.xid, stretch.seq) s ON true`

/**
 * When the dispatcher next has work: the first event past the cursor, and the earliest pending attempt. `xid IS
 * NOT NULL` lets the planner use the partial index `outbox_events_position` (a row comparison does not prove
 * it): without it, a sequential scan of the whole outbox at every run of the jobs loop.
 */
export const nextDueStatement = `SELECT
  (SELECT e.created_at FROM outbox_events e
    WHERE e.xid IS NOT NULL
      AND (e.xid, e.seq) > ((SELECT xid FROM outbox_routing), (SELECT seq FROM outbox_routing))
    ORDER BY e.xid, e.seq LIMIT 1) AS unrouted,
  (SELECT min(greatest(next_attempt_at, coalesce(lease_until, 0))) FROM webhook_deliveries
    WHERE next_attempt_at IS NOT NULL) AS due`

/** No stretch: nothing past the cursor is settled, or another router holds it. */
const emptyStretch = { events: [], through: null, read: 0 }

export const WebhookDeliveriesRepoSql = Layer.effect(
  WebhookDeliveriesRepo,
  Effect.gen(function* () {
    const sql = yield* client
    const settled = settledReader()
    return {
      // The stretch past the cursor whose transactions have all ended (below the snapshot's xmin: see
      // migrations/webhooks/0004), read by one router at a time (a transaction-scoped advisory lock taken without
      // waiting, which gives the transaction no id, so the read may be repeated in it). Only events whose
      // application or account has an endpoint come back: the others need no delivery.
      unrouted: (limit) =>
        settled(
          sql.unsafe(unroutedStatement, [limit]).pipe(Effect.map((rows) => {
            const head = rows[0]
            return {
              value: head.locked !== true ? emptyStretch : {
                events: rows.filter((row) => row.id !== null).map(toEvent),
                through: head.through === null ? null : RoutePosition(String(head.through)),
                read: num(head.read),
              },
              xmin: String(head.xmin),
              // Nothing settled yet, but events of transactions still running (or just ended, behind an older
              // one): the read waits a little for them, as the partner feed does.
              heldBack: Effect.succeed(head.locked === true && head.through === null && head.held === true),
            }
          })),
        ).pipe(Effect.orDie),
      markRouted: (through) => {
        const [xid, seq] = through.split(":")
        return sql`UPDATE outbox_routing SET xid = ${xid}::xid8, seq = ${seq}::bigint
          WHERE (xid, seq) < (${xid}::xid8, ${seq}::bigint)`.pipe(Effect.asVoid, Effect.orDie)
      },
      enqueue: (deliveries) =>
        deliveries.length === 0
          ? Effect.void
          : sql`INSERT INTO webhook_deliveries ${sql.insert(deliveries.map(insertRow))}
            ON CONFLICT (event_id, owner_kind, owner_id) DO NOTHING`.pipe(Effect.asVoid, Effect.orDie),
      claimDue: (now, leaseUntil, leaseToken, limit) =>
        sql`WITH due AS (
            SELECT id FROM webhook_deliveries
            WHERE next_attempt_at <= ${now} AND (lease_until IS NULL OR lease_until <= ${now})
            ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
          ), leased AS (
            UPDATE webhook_deliveries d SET lease_until = ${leaseUntil}, lease_token = ${leaseToken}
            FROM due WHERE d.id = due.id RETURNING d.*
          )
          SELECT leased.*, e.url AS endpoint_url, e.secret AS endpoint_secret, e.events AS endpoint_events
          FROM leased LEFT JOIN webhook_endpoints e ON e.owner_kind = leased.owner_kind AND e.owner_id = leased.owner_id
          ORDER BY leased.next_attempt_at`.pipe(
          Effect.map((rows) =>
            rows.map((row) => {
              const delivery = toDelivery(row)
              return {
                delivery,
                leaseToken,
                endpoint: row.endpoint_url == null ? null : {
                  owner: delivery.owner,
                  url: row.endpoint_url as string,
                  secret: row.endpoint_secret as string,
                  events: json<ReadonlyArray<string>>(row.endpoint_events),
                },
              }
            })
          ),
          Effect.orDie,
        ),
      record: (id, leaseToken, a, o) =>
        sql`WITH logged AS (
            INSERT INTO webhook_attempts (delivery_id, at, status_code, latency_ms, error)
            VALUES (${id}, ${a.at}, ${a.statusCode}, ${a.latencyMs}, ${a.error})
          )
          UPDATE webhook_deliveries SET status = ${o.status}, scheduled_attempts = ${o.scheduledAttempts},
            next_attempt_at = ${o.nextAttemptAt}, manual = false, lease_until = NULL, lease_token = NULL
          WHERE id = ${id} AND lease_token = ${leaseToken} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie,
        ),
      get: (id) =>
        sql`SELECT * FROM webhook_deliveries WHERE id = ${id}`.pipe(
          Effect.map((rows) => first(rows, toDelivery)),
          Effect.orDie,
        ),
      replay: (id, now) =>
        sql`UPDATE webhook_deliveries SET manual = CASE WHEN status = 'pending' THEN manual ELSE true END,
            status = 'pending', next_attempt_at = ${now}, lease_until = NULL, lease_token = NULL
          WHERE id = ${id} RETURNING *`.pipe(Effect.map((rows) => first(rows, toDelivery)), Effect.orDie),
      list: (owner, limit) =>
        Effect.gen(function* () {
          const rows =
            yield* sql`SELECT * FROM webhook_deliveries WHERE owner_kind = ${owner.kind} AND owner_id = ${owner.id}
            ORDER BY created_at DESC, seq DESC LIMIT ${limit}`
          const deliveries = rows.map(toDelivery)
          if (deliveries.length === 0) return []
          const attempts = yield* sql`SELECT delivery_id, at, status_code, latency_ms, error FROM webhook_attempts
            WHERE ${sql.in("delivery_id", deliveries.map((d) => d.id))} ORDER BY at DESC, seq DESC`
          return deliveries.map((delivery) => ({
            delivery,
            attempts: attempts.filter((row) => row.delivery_id === delivery.id).map(toAttempt),
          }))
        }).pipe(Effect.orDie),
      nextDue: sql.unsafe(nextDueStatement, []).pipe(
        Effect.map((rows) => {
          const times = [numOrNull(rows[0].unrouted), numOrNull(rows[0].due)].filter((t): t is number => t !== null)
          return times.length === 0 ? Option.none() : Option.some(Math.min(...times))
        }),
        Effect.orDie,
      ),
      // Index `webhook_deliveries_finished` (migration webhooks/0003); attempts go by their foreign key's cascade.
      // A delivery replayed meanwhile is pending again: the repeated condition leaves it.
      pruneLog: (before, limit) =>
        sql`WITH gone AS (
            DELETE FROM webhook_deliveries WHERE ctid = ANY (ARRAY(
              SELECT ctid FROM webhook_deliveries WHERE status <> 'pending' AND created_at < ${before}
              ORDER BY created_at LIMIT ${limit}))
              AND status <> 'pending' AND created_at < ${before}
            RETURNING 1)
          SELECT count(*) AS n FROM gone`.pipe(Effect.map((rows) => num(rows[0].n)), Effect.orDie),
      // Routed (at or behind the cursor, which moves in the transaction that enqueued the event's deliveries, so
      // they are visible with it; a null `xid` was routed before the cursor existed) and no delivery of it
      // pending (by the (event_id, …) unique index). An unrouted event, one being routed (the cursor's move is not
      // visible yet) and one with a retry to come are kept, whatever their age.
      pruneOutbox: (before, limit) =>
        sql`WITH gone AS (
            DELETE FROM outbox_events WHERE ctid = ANY (ARRAY(
              SELECT e.ctid FROM outbox_events e, outbox_routing r
              WHERE e.created_at < ${before} AND (e.xid IS NULL OR (e.xid, e.seq) <= (r.xid, r.seq))
                AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
              ORDER BY e.created_at, e.seq LIMIT ${limit}))
            RETURNING 1)
          SELECT count(*) AS n FROM gone`.pipe(Effect.map((rows) => num(rows[0].n)), Effect.orDie),
      oldestPrunable: sql`SELECT
          (SELECT min(created_at) FROM webhook_deliveries WHERE status <> 'pending') AS delivery,
          (SELECT min(e.created_at) FROM outbox_events e, outbox_routing r
            WHERE (e.xid IS NULL OR (e.xid, e.seq) <= (r.xid, r.seq))
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending'))
            AS event`.pipe(
        Effect.map((rows) => ({
          delivery: Option.fromNullable(numOrNull(rows[0].delivery)),
          event: Option.fromNullable(numOrNull(rows[0].event)),
        })),
        Effect.orDie,
      ),
    }
  }),
)
