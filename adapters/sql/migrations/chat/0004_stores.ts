/**
 * Chat: the store assistant (DECISIONS 9.5). One connected store per application (`chat_stores_application`),
 * listed per account oldest first (`chat_stores_account`), read again by the job at `next_read_at`
 * (`chat_stores_due`). `token_sealed` is the merchant's token sealed with the platform's secret; `products` is JSON
 * text. Times are BIGINT epoch milliseconds.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

const statements: ReadonlyArray<string> = [
  `CREATE TABLE chat_stores (
    id uuid PRIMARY KEY,
    account_id uuid NOT NULL,
    application_id uuid NOT NULL,
    platform text NOT NULL,
    ref text NOT NULL,
    name text NOT NULL,
    url text,
    token_sealed text,
    products text NOT NULL,
    products_read_at bigint NOT NULL,
    next_read_at bigint NOT NULL,
    connected_at bigint NOT NULL
  )`,
  `CREATE UNIQUE INDEX chat_stores_application ON chat_stores (application_id)`,
  `CREATE INDEX chat_stores_account ON chat_stores (account_id, connected_at, id)`,
  `CREATE INDEX chat_stores_due ON chat_stores (next_read_at)`,
  `CREATE TABLE chat_assistant_tools (
    application_id uuid PRIMARY KEY,
    orders boolean NOT NULL,
    order_status boolean NOT NULL,
    products boolean NOT NULL
  )`,
]

export const migration: Migration = {
  number: 4,
  name: "stores",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
  ),
}
