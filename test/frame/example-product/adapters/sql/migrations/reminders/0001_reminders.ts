import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

export const migration: Migration = {
  number: 1,
  name: "reminders",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql`CREATE TABLE reminders (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL,
        text text NOT NULL,
        due_at bigint NOT NULL,
        status text NOT NULL CHECK (status IN ('scheduled', 'sent')),
        created_at bigint NOT NULL
      );
      CREATE INDEX reminders_scheduled ON reminders (due_at) WHERE status = 'scheduled'`,
  ),
}
