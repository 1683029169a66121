import { Brand, Context, type Effect, type Option } from "effect"
import type { EventId, Millis } from "../../core/shared/brands.ts"
import type { OutboxEvent } from "./outbox.ts"
import type { EndpointOwner, WebhookEndpoint } from "./webhook-endpoints.ts"

/** `pending` while an attempt is scheduled; `failed` once given up. */
export type DeliveryStatus = "pending" | "succeeded" | "failed"

/** One event (or rehearsal) on its way to one endpoint. */
export interface WebhookDelivery {
  readonly id: string
  /** The `webhook-id` header: the same on every retry and replay. */
  readonly webhookId: string
  readonly owner: EndpointOwner
  /** The outbox event it carries; null for a console rehearsal. */
  readonly eventId: EventId | null
  readonly event: string
  /** The envelope's `data`, as routed (a partner's copy carries `external_id`). */
  readonly data: Record<string, unknown>
  /** A rehearsal: the envelope carries `test: true`. */
  readonly test: boolean
  readonly status: DeliveryStatus
  /** Attempts of the automatic schedule made so far (the first attempt and its retries). */
  readonly scheduledAttempts: number
  /** A replay of a finished delivery: one attempt, no schedule after it. */
  readonly manual: boolean
  /** When the next attempt falls due (null once succeeded or given up). */
  readonly nextAttemptAt: Millis | null
  readonly createdAt: Millis
}

export interface DeliveryAttempt {
  readonly at: Millis
  /** The receiver's HTTP status; null when none came (timeout, refused connection). */
  readonly statusCode: number | null
  readonly latencyMs: number
  readonly error: string | null
}

/** A delivery leased to one caller for one attempt. */
export interface ClaimedDelivery {
  readonly delivery: WebhookDelivery
  /** Proves the lease when the attempt is recorded. */
  readonly leaseToken: string
  /** The owner's endpoint as it is now (secret still sealed); null if there is none. */
  readonly endpoint: WebhookEndpoint | null
}

/** The delivery's state after an attempt. */
export interface DeliveryOutcome {
  readonly status: DeliveryStatus
  readonly scheduledAttempts: number
  readonly nextAttemptAt: Millis | null
}

export interface DeliveryLogEntry {
  readonly delivery: WebhookDelivery
  /** Newest first. */
  readonly attempts: ReadonlyArray<DeliveryAttempt>
}

/** A place in the outbox, up to which events are routed; opaque outside the store. */
export type RoutePosition = string & Brand.Brand<"RoutePosition">
export const RoutePosition = Brand.nominal<RoutePosition>()

/** A stretch of the outbox handed to the router. */
export interface UnroutedBatch {
  /**
   * The stretch's events that may reach an endpoint, oldest first. A store may leave out events whose
   * application and account have no endpoint at all: routing would give them no delivery.
   */
  readonly events: ReadonlyArray<OutboxEvent>
  /** The position of the stretch's last event, routed or left out; null when the stretch is empty. */
  readonly through: RoutePosition | null
  /** How many events the stretch holds, routed or left out (the limit: more may follow). */
  readonly read: number
}

/** Webhook deliveries and their attempts log, shared by every process on the store. */
export class WebhookDeliveriesRepo extends Context.Tag("ports/WebhookDeliveriesRepo")<WebhookDeliveriesRepo, {
  /**
   * The next stretch of the outbox past the routing cursor, up to `limit` events, oldest first. Call inside a
   * transaction, route the events, then `markRouted(through)` in the same transaction. While one caller holds
   * the stretch (until its transaction ends) another is handed an empty batch.
   */
  readonly unrouted: (limit: number) => Effect.Effect<UnroutedBatch>
  /** Moves the routing cursor past `through` (never back): the batch's events are routed. */
  readonly markRouted: (through: RoutePosition) => Effect.Effect<void>
  /** Inserts new deliveries; one whose (event, owner) already has a delivery is skipped. */
  readonly enqueue: (deliveries: ReadonlyArray<WebhookDelivery>) => Effect.Effect<void>
  /**
   * Leases up to `limit` pending deliveries due at `now` (oldest due first) whose lease is free or
   * lapsed, until `leaseUntil`, under `leaseToken`. Rows another caller is claiming are skipped.
   */
  readonly claimDue: (
    now: Millis,
    leaseUntil: Millis,
    leaseToken: string,
    limit: number,
  ) => Effect.Effect<ReadonlyArray<ClaimedDelivery>>
  /**
   * Logs the attempt and, if the lease is still `leaseToken`'s, moves the delivery to `outcome` and frees
   * the lease. Answers whether the outcome was applied (false: the lease lapsed and was taken over).
   */
  readonly record: (
    deliveryId: string,
    leaseToken: string,
    attempt: DeliveryAttempt,
    outcome: DeliveryOutcome,
  ) => Effect.Effect<boolean>
  readonly get: (id: string) => Effect.Effect<Option.Option<WebhookDelivery>>
  /**
   * Replay: queues an attempt at `now`, freeing any lease. A pending delivery's next scheduled attempt
   * moves to `now`; a succeeded or given-up delivery gets one `manual` attempt.
   */
  readonly replay: (id: string, now: Millis) => Effect.Effect<Option.Option<WebhookDelivery>>
  /** The owner's deliveries, newest first, each with its attempts. */
  readonly list: (owner: EndpointOwner, limit: number) => Effect.Effect<ReadonlyArray<DeliveryLogEntry>>
  /**
   * When work next falls due: the time of the first outbox event past the routing cursor (an event is due as
   * soon as it is appended, and one routing run takes every settled event, so the first stands for all), or the
   * earliest pending delivery's next attempt (a leased one at its lease's end). None when nothing waits.
   */
  readonly nextDue: Effect.Effect<Option.Option<Millis>>
  /**
   * Retention of the delivery log: drops at most `limit` finished deliveries (succeeded or given up, never a
   * pending one) created before `before`, with their attempts; answers how many deliveries went.
   */
  readonly pruneLog: (before: Millis, limit: number) => Effect.Effect<number>
  /**
   * Retention of the outbox: drops at most `limit` events appended before `before` that the dispatcher has routed
   * and none of whose deliveries is pending; answers how many went.
   */
  readonly pruneOutbox: (before: Millis, limit: number) => Effect.Effect<number>
  /** When the oldest finished delivery, and the oldest outbox event `pruneOutbox` could drop, were created. */
  readonly oldestPrunable: Effect.Effect<
    { readonly delivery: Option.Option<Millis>; readonly event: Option.Option<Millis> }
  >
}>() {}
