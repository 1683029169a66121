/**
 * Chat: conversation menus (per application and connected app), each application's auto-attendant (settings,
 * draft, live version) and every published version (DECISIONS 9.1, 9.2). Menus are kept as the JSON text the
 * platform wrote (jsonb would reorder their keys). Times are BIGINT epoch milliseconds. Runs inside the
 * advisory-locked migrator transaction of `../../migrate.ts`, on PostgreSQL and PGlite alike.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

const statements: ReadonlyArray<string> = [
  `CREATE TABLE chat_menus (
    id uuid PRIMARY KEY,
    application_id uuid NOT NULL,
    app_name text NOT NULL,
    title text NOT NULL,
    url text NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
  )`,
  `CREATE INDEX chat_menus_by_app ON chat_menus (application_id, app_name, created_at, id)`,
  `CREATE TABLE chat_attendants (
    application_id uuid PRIMARY KEY,
    enabled boolean NOT NULL,
    mode text NOT NULL,
    language text NOT NULL,
    draft_menu text,
    draft_saved_at bigint,
    live_version integer,
    live_published_at bigint,
    live_menu text
  )`,
  `CREATE TABLE chat_attendant_versions (
    application_id uuid NOT NULL,
    version integer NOT NULL,
    menu text NOT NULL,
    published_at bigint NOT NULL,
    PRIMARY KEY (application_id, version)
  )`,
]

export const migration: Migration = {
  number: 1,
  name: "menus_attendants",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
  ),
}
