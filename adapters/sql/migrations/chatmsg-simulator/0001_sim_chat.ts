/**
 * The chat-network simulator's state (DECISIONS 7.4), created only while the simulator is selected (not a
 * production table). Runs inside the advisory-locked migrator transaction of `../../migrate.ts`.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

const statements: ReadonlyArray<string> = [
  `CREATE TABLE sim_chat_numbers (
    application_id uuid PRIMARY KEY,
    number text NOT NULL,
    connected boolean NOT NULL
  )`,
  `CREATE TABLE sim_chat_templates (
    application_id uuid NOT NULL,
    name text NOT NULL,
    lang text NOT NULL,
    template jsonb NOT NULL,
    PRIMARY KEY (application_id, name, lang)
  )`,
  `CREATE TABLE sim_chat_unreadable (
    application_id uuid PRIMARY KEY
  )`,
  `CREATE TABLE sim_chat_sent (
    id uuid PRIMARY KEY,
    seq bigserial NOT NULL UNIQUE,
    application_id uuid NOT NULL,
    "to" text NOT NULL,
    template text NOT NULL,
    lang text NOT NULL,
    text text NOT NULL,
    sent_at bigint NOT NULL
  )`,
  `CREATE INDEX sim_chat_sent_to ON sim_chat_sent ("to", sent_at DESC, seq DESC)`,
]

export const migration: Migration = {
  number: 1,
  name: "sim_chat",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
  ),
}
