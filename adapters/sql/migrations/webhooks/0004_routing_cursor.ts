/**
 * Routing by a cursor instead of a mark on every event (docs/decisions.md, "Webhooks: routing by a cursor").
 *
 * Marking each routed event (`routed_at`, indexed by a partial index on it) rewrote every outbox row once more,
 * outside HOT (the index's predicate names the column), a tenth of Verify's database work at load. Now each event
 * records the id of the transaction that appended it (`xid`, as the partner feed's entries do), and one row,
 * `outbox_routing`, holds the position (xid, seq) up to which events are routed. The dispatcher reads events
 * past it whose transaction id is below its snapshot's xmin (every transaction below it has ended, so no event
 * can later appear before the cursor) and moves the cursor in the transaction that enqueues their deliveries.
 *
 * Upgrade: events routed before this migration keep a null `xid` (behind every cursor); events not yet routed
 * get the migrator's transaction id, so they are routed once it commits. `routed_at` and its index go.
 * Runs inside the advisory-locked migrator transaction of `../../migrate.ts`, on PostgreSQL and PGlite alike.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

const statements: ReadonlyArray<string> = [
  `ALTER TABLE outbox_events ADD COLUMN xid xid8`,
  `UPDATE outbox_events SET xid = pg_current_xact_id() WHERE routed_at IS NULL`,
  `ALTER TABLE outbox_events ALTER COLUMN xid SET DEFAULT pg_current_xact_id()`,
  `CREATE INDEX outbox_events_position ON outbox_events (xid, seq) WHERE xid IS NOT NULL`,
  `DROP INDEX outbox_events_unrouted`,
  `ALTER TABLE outbox_events DROP COLUMN routed_at`,
  `CREATE TABLE outbox_routing (
    one boolean PRIMARY KEY DEFAULT true CHECK (one),
    xid xid8 NOT NULL,
    seq bigint NOT NULL
  )`,
  `INSERT INTO outbox_routing (xid, seq) VALUES ('0', 0)`,
]

export const migration: Migration = {
  number: 4,
  name: "routing_cursor",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
  ),
}
