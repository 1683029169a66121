/**
 * What the send gates count, without reading an application's whole hour (issue 13, docs/decisions.md
 * "Verify: the send path"):
 *
 * - `verify_destinations` / `verify_client_ips`: one row per destination (per client IP) of an application
 *   holding the send times of its rolling hour. The row is the lock that serializes the sends to one
 *   destination, and the count is at most the cap, whatever the application's traffic or the planner's
 *   statistics (the row is found by its primary key).
 * - `verify_spend`: the priced sends' total per application and Riyadh day, taken by one conditional upsert.
 * - `verify_guard`: sends and verified codes per application, guard epoch (the application's `unpaused_at`,
 *   0 before any unpause) and minute: the guard sums at most 60 rows.
 *
 * The existing sends fill them: the hour before the newest send, the day's spend of every Riyadh day, and
 * the guard's minutes of the last hour. The per-destination and per-IP indexes of `verify_sends` go (nothing
 * reads sends by destination any longer).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

const hour = 3_600_000
const day = 86_400_000
const riyadhOffset = 3 * hour

const statements: ReadonlyArray<string> = [
  `CREATE TABLE verify_destinations (
    application_id uuid NOT NULL,
    "to" text NOT NULL,
    sent_at bigint[] NOT NULL,
    latest bigint NOT NULL,
    PRIMARY KEY (application_id, "to")
  )`,
  `CREATE INDEX verify_destinations_latest ON verify_destinations (latest)`,
  `CREATE TABLE verify_client_ips (
    application_id uuid NOT NULL,
    client_ip text NOT NULL,
    sent_at bigint[] NOT NULL,
    latest bigint NOT NULL,
    PRIMARY KEY (application_id, client_ip)
  )`,
  `CREATE INDEX verify_client_ips_latest ON verify_client_ips (latest)`,
  `CREATE TABLE verify_spend (
    application_id uuid NOT NULL,
    day_start bigint NOT NULL,
    spent_halalas bigint NOT NULL,
    PRIMARY KEY (application_id, day_start)
  )`,
  `CREATE TABLE verify_guard (
    application_id uuid NOT NULL,
    epoch bigint NOT NULL,
    minute bigint NOT NULL,
    sends integer NOT NULL,
    verified integer NOT NULL,
    PRIMARY KEY (application_id, epoch, minute)
  )`,
  `CREATE INDEX verify_guard_minute ON verify_guard (minute)`,
  `INSERT INTO verify_destinations (application_id, "to", sent_at, latest)
    SELECT application_id, "to", array_agg(sent_at ORDER BY sent_at), max(sent_at) FROM verify_sends
    WHERE sent_at >= (SELECT max(sent_at) - ${hour} FROM verify_sends)
    GROUP BY application_id, "to"`,
  `INSERT INTO verify_client_ips (application_id, client_ip, sent_at, latest)
    SELECT application_id, client_ip, array_agg(sent_at ORDER BY sent_at), max(sent_at) FROM verify_sends
    WHERE client_ip IS NOT NULL AND sent_at >= (SELECT max(sent_at) - ${hour} FROM verify_sends)
    GROUP BY application_id, client_ip`,
  `INSERT INTO verify_spend (application_id, day_start, spent_halalas)
    SELECT application_id, floor((sent_at + ${riyadhOffset})::numeric / ${day}) * ${day} - ${riyadhOffset},
      sum(price_halalas)
    FROM verify_sends WHERE price_halalas > 0
    GROUP BY 1, 2`,
  `INSERT INTO verify_guard (application_id, epoch, minute, sends, verified)
    SELECT s.application_id, coalesce(a.unpaused_at, 0), floor(s.sent_at::numeric / 60000) * 60000,
      count(*), count(*) FILTER (WHERE v.status = 'verified')
    FROM verify_sends s
    JOIN applications a ON a.id = s.application_id
    LEFT JOIN verifications v ON v.id = s.verification_id
    WHERE s.sent_at >= (SELECT max(sent_at) - ${hour} FROM verify_sends)
      AND s.sent_at >= coalesce(a.unpaused_at, 0)
    GROUP BY 1, 2, 3`,
  `DROP INDEX verify_sends_destination`,
  `DROP INDEX verify_sends_client_ip`,
]

export const migration: Migration = {
  number: 2,
  name: "send_counters",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
  ),
}
