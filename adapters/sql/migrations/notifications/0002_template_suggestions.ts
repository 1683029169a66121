/**
 * Notifications: template analyses and their suggestions (DECISIONS 10, 14). `run_holder` and `run_until` are
 * the hold of the create call running on the analysis, taken by a conditional UPDATE (one winner across
 * processes) and lapsing at `run_until` if its holder never gives it back. Times are BIGINT epoch milliseconds.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

const statements: ReadonlyArray<string> = [
  `CREATE TABLE template_analyses (
    id uuid PRIMARY KEY,
    application_id uuid NOT NULL,
    created_at bigint NOT NULL,
    run_holder text,
    run_until bigint
  )`,
  `CREATE TABLE template_suggestions (
    analysis_id uuid NOT NULL REFERENCES template_analyses (id) ON DELETE CASCADE,
    "key" text NOT NULL,
    position integer NOT NULL,
    name text NOT NULL,
    category text NOT NULL,
    lang text NOT NULL,
    body text NOT NULL,
    state text NOT NULL,
    error text,
    picked_at bigint,
    made_order integer,
    PRIMARY KEY (analysis_id, "key")
  )`,
]

export const migration: Migration = {
  number: 2,
  name: "template_suggestions",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
  ),
}
