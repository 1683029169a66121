/**
 * The partner feed (DECISIONS 13, 16): a table of its own, written by a trigger on the outbox in the very
 * transaction that appends the event, so a lifecycle move and its feed entry commit together and every
 * product's events reach the feed without knowing it. Each entry records the id of the transaction that wrote
 * it (`pg_current_xact_id()`, xid8): reads hand out only entries whose transaction id is below the reading
 * snapshot's xmin, ordered by (xid, seq), so no entry can later appear before one already handed out
 * (adapters/sql/partner-feed.ts). The entries of the outbox already there are copied.
 *
 * Also the verification log's index on Verify's table (newest first per application).
 * Runs inside the advisory-locked migrator transaction of `../../migrate.ts`, on PostgreSQL and PGlite alike.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import { PartnerFeedEvents } from "../../../../core/partner/feed-events.ts"
import type { Migration } from "../../migrate.ts"

const names = PartnerFeedEvents.map((e) => `'${e}'`).join(", ")

const statements = [
  `CREATE TABLE partner_feed (
    seq bigserial PRIMARY KEY,
    xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
    event_id uuid NOT NULL,
    account_id uuid NOT NULL,
    event text NOT NULL,
    data jsonb NOT NULL,
    created_at bigint NOT NULL
  )`,
  `CREATE INDEX partner_feed_position ON partner_feed (account_id, xid, seq)`,
  `CREATE INDEX partner_feed_created ON partner_feed (created_at)`,
  // Partner accounts only; a verification event's copy adds the application's external_id (as routing does).
  `CREATE FUNCTION partner_feed_copy() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NOT EXISTS (SELECT 1 FROM accounts WHERE id = NEW.account_id AND partner) THEN
      RETURN NULL;
    END IF;
    INSERT INTO partner_feed (event_id, account_id, event, data, created_at)
    VALUES (
      NEW.id, NEW.account_id, NEW.event,
      CASE WHEN NEW.event LIKE 'verification.%'
        THEN NEW.data || jsonb_build_object('external_id', NEW.external_id) ELSE NEW.data END,
      NEW.created_at
    );
    RETURN NULL;
  END
  $$`,
  `CREATE TRIGGER outbox_events_partner_feed AFTER INSERT ON outbox_events FOR EACH ROW
    WHEN (NEW.event IN (${names})) EXECUTE FUNCTION partner_feed_copy()`,
  `INSERT INTO partner_feed (event_id, account_id, event, data, created_at)
    SELECT o.id, o.account_id, o.event,
      CASE WHEN o.event LIKE 'verification.%'
        THEN o.data || jsonb_build_object('external_id', o.external_id) ELSE o.data END,
      o.created_at
    FROM outbox_events o JOIN accounts a ON a.id = o.account_id AND a.partner
    WHERE o.event IN (${names}) ORDER BY o.seq`,
  `CREATE INDEX verifications_application_created ON verifications (application_id, created_at, id)`,
]

export const migration: Migration = {
  number: 1,
  name: "partner_feed",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
  ),
}
