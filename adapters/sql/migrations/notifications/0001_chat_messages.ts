/**
 * Notifications: chat-app messages, each application's channel switch, customers' opt-outs (DECISIONS 7).
 * Times are BIGINT epoch milliseconds, money BIGINT halalas. Runs inside the advisory-locked migrator
 * transaction of `../../migrate.ts`, on PostgreSQL and PGlite alike.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

const statements: ReadonlyArray<string> = [
  `CREATE TABLE chat_messages (
    id uuid PRIMARY KEY,
    application_id uuid NOT NULL,
    account_id uuid NOT NULL,
    "to" text NOT NULL,
    template text NOT NULL,
    lang text NOT NULL,
    category text NOT NULL,
    reference text,
    price_halalas bigint NOT NULL,
    status text NOT NULL,
    error jsonb,
    provider_message_id text UNIQUE,
    created_at bigint NOT NULL,
    occurred_at bigint NOT NULL
  )`,
  `CREATE TABLE chat_channels (
    application_id uuid PRIMARY KEY,
    enabled boolean NOT NULL
  )`,
  `CREATE TABLE chat_consent (
    application_id uuid NOT NULL,
    "to" text NOT NULL,
    opted_out boolean NOT NULL,
    source text NOT NULL,
    updated_at bigint NOT NULL,
    PRIMARY KEY (application_id, "to")
  )`,
]

export const migration: Migration = {
  number: 1,
  name: "chat_messages",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
  ),
}
