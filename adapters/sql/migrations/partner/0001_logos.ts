/**
 * The Partner API's tables: logos by content hash (DECISIONS 13), and the index that keeps a partner's
 * `external_id` look-ups (the claim, the `external_id` filter) index-backed beside `applications_account_external`.
 * Runs inside the advisory-locked migrator transaction of `../../migrate.ts`, on PostgreSQL and PGlite alike.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

export const migration: Migration = {
  number: 1,
  name: "logos",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql.unsafe(`CREATE TABLE partner_logos (
        sha256 text PRIMARY KEY,
        ext text NOT NULL,
        bytes bytea NOT NULL,
        created_at bigint NOT NULL
      )`),
  ),
}
