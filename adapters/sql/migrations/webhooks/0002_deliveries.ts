/**
 * Webhook deliveries and their attempts log; outbox events get `routed_at` once the dispatcher has
 * turned them into deliveries.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

const statements: ReadonlyArray<string> = [
  `ALTER TABLE outbox_events ADD COLUMN routed_at bigint`,
  `CREATE INDEX outbox_events_unrouted ON outbox_events (seq) WHERE routed_at IS NULL`,
  `CREATE TABLE webhook_deliveries (
    id uuid PRIMARY KEY,
    seq bigserial NOT NULL UNIQUE,
    webhook_id text NOT NULL,
    owner_kind text NOT NULL CHECK (owner_kind IN ('application', 'account')),
    owner_id text NOT NULL,
    event_id uuid,
    event text NOT NULL,
    data jsonb NOT NULL,
    test boolean NOT NULL,
    status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
    scheduled_attempts integer NOT NULL,
    manual boolean NOT NULL,
    next_attempt_at bigint,
    lease_until bigint,
    lease_token text,
    created_at bigint NOT NULL,
    UNIQUE (event_id, owner_kind, owner_id)
  )`,
  `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE next_attempt_at IS NOT NULL`,
  `CREATE INDEX webhook_deliveries_owner ON webhook_deliveries (owner_kind, owner_id, created_at DESC, seq DESC)`,
  `CREATE TABLE webhook_attempts (
    seq bigserial PRIMARY KEY,
    delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    at bigint NOT NULL,
    status_code integer,
    latency_ms integer NOT NULL,
    error text
  )`,
  `CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, seq DESC)`,
]

export const migration: Migration = {
  number: 2,
  name: "deliveries",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
  ),
}
