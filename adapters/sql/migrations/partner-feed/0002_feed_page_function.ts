/**
 * One page of a partner's feed as a function whose plan cannot leave the ordered index scan of
 * `partner_feed_position`: without statistics (PGlite runs no autovacuum; a fresh PostgreSQL table before its
 * first ANALYZE) the planner takes the page for a few rows and reads every entry after the cursor through a
 * bitmap scan and a sort, so a backlog read from the start would cost the square of its length; with statistics
 * of a small table it may sort the rows of another index. Turning bitmap scans, sequential scans and sorts off
 * for the function's own statement leaves the index walked in order, `LIMIT` rows at most, whatever the
 * statistics say. The statement is adapters/sql/partner-feed.ts' (see there for the xmin).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

export const migration: Migration = {
  number: 2,
  name: "feed_page_function",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql.unsafe(`CREATE FUNCTION partner_feed_page(
        p_account uuid, p_after_xid xid8, p_after_seq bigint, p_since bigint, p_types text[], p_limit integer
      ) RETURNS TABLE (snapshot_xmin xid8, seq bigint, xid xid8, event_id uuid, event text, data jsonb, created_at bigint)
      LANGUAGE sql STABLE
      SET enable_bitmapscan = off SET enable_seqscan = off SET enable_sort = off
      AS $$
        WITH snap AS MATERIALIZED (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin)
        SELECT snap.xmin, f.seq, f.xid, f.event_id, f.event, f.data, f.created_at
        FROM snap LEFT JOIN LATERAL (
          SELECT p.seq, p.xid, p.event_id, p.event, p.data, p.created_at FROM partner_feed p
          WHERE p.account_id = p_account AND (p.xid, p.seq) > (p_after_xid, p_after_seq) AND p.xid < snap.xmin
            AND p.created_at >= p_since AND (p_types IS NULL OR p.event = ANY (p_types))
          ORDER BY p.xid, p.seq LIMIT p_limit
        ) f ON true
      $$`),
  ),
}
