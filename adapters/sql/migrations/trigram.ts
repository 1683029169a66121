/**
 * Trigram indexes for the logs' `q` (email/0002, chat/0006): the `pg_trgm` extension, made when the database has
 * none, then GIN indexes with its `gin_trgm_ops`, named with the schema the extension is in.
 *
 * An extension is once per database, in one schema. A store in a schema of its own (the tests make one per test)
 * must not make it in that schema: another store would not find `gin_trgm_ops` on its search path, and dropping
 * the first schema would drop the extension and every trigram index of every other schema with it. So it is made
 * in `public` when that schema exists and may be written to (PostgreSQL's default, and PGlite's), else in the
 * store's own schema; an extension already there stays where it is. The index names the operator class with the
 * extension's schema, so it does not depend on the search path; the statements that use it need nothing of the
 * extension (`LIKE` is PostgreSQL's own operator).
 *
 * Two stores migrating at once on a fresh database would both try to make it: the first to find none takes a
 * transaction-level advisory lock and looks again, so the second waits and then finds it made. The lock is taken
 * only while there is none, so stores of a database that has it do not wait for each other.
 *
 * `pg_trgm` is a trusted extension (PostgreSQL 13 and later): a user with CREATE on the database may make it. On
 * PGlite it is loaded by the client (adapters/sql/pglite-client.ts, `extensions`).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

const ensureExtension = `DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_extension WHERE extname = 'pg_trgm') THEN
    PERFORM pg_advisory_xact_lock(hashtext('pg_trgm extension'));
    IF NOT EXISTS (SELECT FROM pg_extension WHERE extname = 'pg_trgm') THEN
      IF EXISTS (SELECT FROM pg_namespace WHERE nspname = 'public') AND has_schema_privilege('public', 'CREATE') THEN
        CREATE EXTENSION pg_trgm WITH SCHEMA public;
      ELSE
        CREATE EXTENSION pg_trgm;
      END IF;
    END IF;
  END IF;
END $$`

/** A GIN trigram index: its name, table and indexed expression (text). */
export interface TrigramIndex {
  readonly name: string
  readonly table: string
  readonly expression: string
}

/**
 * GIN's pending list, in kB (PostgreSQL's default: 4096): new rows' entries wait there, unsorted, until it is full
 * (or a vacuum), and every search reads all of it. At 4 MB a search of 1,000,000 conversations' numbers read its
 * pending list for 15-23 ms (bench/chat-log.ts, an absent `q`); at 256 kB a search reads a sixteenth of that, and the
 * insert that fills the list merges a sixteenth as much into the index.
 */
const pendingListKb = 256

const quoteIdent = (name: string) => `"${name.replaceAll(`"`, `""`)}"`

/** `pg_trgm` made when missing, then each index with `<schema>.gin_trgm_ops`. */
export const trigramIndexes = (indexes: ReadonlyArray<TrigramIndex>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(ensureExtension)
    const [row] = yield* sql<{ schema: string }>`SELECT n.nspname AS schema FROM pg_extension e
      JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`
    const opclass = `${quoteIdent(row.schema)}.gin_trgm_ops`
    for (const index of indexes) {
      yield* sql.unsafe(
        `CREATE INDEX ${index.name} ON ${index.table} USING gin ((${index.expression}) ${opclass})
          WITH (gin_pending_list_limit = ${pendingListKb})`,
      )
    }
  })
