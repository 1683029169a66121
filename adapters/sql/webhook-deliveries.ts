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
  WebhookDeliveriesRepo,
  type WebhookDelivery,
} from "../../ports/store/webhook-deliveries.ts"
import type { EndpointOwner } from "../../ports/store/webhook-endpoints.ts"
import { toEvent } from "./outbox.ts"
import { client, first, json, num, numOrNull, type Row, toJson } from "./rows.ts"

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

export const WebhookDeliveriesRepoSql = Layer.effect(
  WebhookDeliveriesRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      unrouted: (limit) =>
        sql`SELECT id, event, data, application_id, account_id, external_id, created_at FROM outbox_events
          WHERE routed_at IS NULL ORDER BY seq LIMIT ${limit} FOR UPDATE SKIP LOCKED`.pipe(
          Effect.map((rows) => rows.map(toEvent)),
          Effect.orDie,
        ),
      markRouted: (ids, at) =>
        ids.length === 0
          ? Effect.void
          : sql`UPDATE outbox_events SET routed_at = ${at} WHERE ${sql.in("id", ids)}`.pipe(
            Effect.asVoid,
            Effect.orDie,
          ),
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
      nextDue: sql`SELECT
          (SELECT min(created_at) FROM outbox_events WHERE routed_at IS NULL) AS unrouted,
          (SELECT min(greatest(next_attempt_at, coalesce(lease_until, 0))) FROM webhook_deliveries
            WHERE next_attempt_at IS NOT NULL) AS due`.pipe(
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
      // Routed (`routed_at` is set in the transaction that enqueued the event's deliveries, so they are visible
      // with it) and no delivery of it pending (by the (event_id, …) unique index). An unrouted event, one being
      // routed (its row lock is not waited for: the snapshot still shows it unrouted) and one with a retry to come
      // are kept, whatever their age.
      pruneOutbox: (before, limit) =>
        sql`WITH gone AS (
            DELETE FROM outbox_events WHERE ctid = ANY (ARRAY(
              SELECT e.ctid FROM outbox_events e
              WHERE e.created_at < ${before} AND e.routed_at IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
              ORDER BY e.created_at, e.seq LIMIT ${limit}))
              AND routed_at IS NOT NULL
            RETURNING 1)
          SELECT count(*) AS n FROM gone`.pipe(Effect.map((rows) => num(rows[0].n)), Effect.orDie),
      oldestPrunable: sql`SELECT
          (SELECT min(created_at) FROM webhook_deliveries WHERE status <> 'pending') AS delivery,
          (SELECT min(e.created_at) FROM outbox_events e WHERE e.routed_at IS NOT NULL
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
