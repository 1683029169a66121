/**
 * Email (DECISIONS 8): each account's access, each application's switch, sender domains, the message log. Times are
 * BIGINT epoch milliseconds. Runs inside the advisory-locked migrator transaction of `../../migrate.ts`, on
 * PostgreSQL and PGlite alike.
 *
 * `sender_domains.records` is the jsonb array of the DNS records with the last check's findings;
 * `dkim_private_key_sealed` holds the key sealed with the platform's secret, never the key itself. A domain is held
 * once per application; `sender_domains_verified` answers whether another application holds it verified, and
 * `sender_domains_due` the pending domains by their last check (the job's due list, its earliest).
 *
 * The message list is newest first per application (`created_at DESC, id DESC`, the keyset of its cursor), one
 * index per filter so each page is an index scan stopping at its limit: all, by status, undelivered (bounced or
 * failed), complained, by sender domain. `q` (a part of the recipient, the subject or the reference) is a
 * `strpos(lower(..))` test on the rows that scan visits, not a trigram index: pg_trgm is an extension, which
 * PGlite would load into every store it opens (the host's and each test's) and which PostgreSQL keeps once per
 * database in one schema (a store in a schema of its own, as the tests make them, would find it in another schema or
 * drop it with its schema), and creating it needs a privilege a managed database may not give. A `q` matching
 * few of an application's messages reads that application's index to its end (a page of a large log; revisit with
 * pg_trgm if the log grows so that matters).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

const statements: ReadonlyArray<string> = [
  `CREATE TABLE email_access (
    account_id uuid PRIMARY KEY,
    status text NOT NULL CHECK (status IN ('none', 'pending', 'granted', 'denied')),
    requested_at bigint,
    decided_at bigint
  )`,
  `CREATE TABLE email_switch (
    application_id uuid PRIMARY KEY,
    enabled boolean NOT NULL
  )`,
  `CREATE TABLE sender_domains (
    id uuid PRIMARY KEY,
    application_id uuid NOT NULL,
    domain text NOT NULL,
    status text NOT NULL CHECK (status IN ('pending', 'verified', 'failed')),
    records jsonb NOT NULL,
    dkim_private_key_sealed text NOT NULL,
    pending_until bigint NOT NULL,
    verified_at bigint,
    checked_at bigint NOT NULL,
    created_at bigint NOT NULL,
    UNIQUE (application_id, domain)
  )`,
  `CREATE INDEX sender_domains_verified ON sender_domains (domain) WHERE status = 'verified'`,
  `CREATE INDEX sender_domains_due ON sender_domains (checked_at, id) WHERE status = 'pending'`,
  `CREATE TABLE email_messages (
    id uuid PRIMARY KEY,
    application_id uuid NOT NULL,
    account_id uuid NOT NULL,
    "from" text NOT NULL,
    "to" text NOT NULL,
    subject text NOT NULL,
    reference text,
    status text NOT NULL CHECK (status IN ('sent', 'delivered', 'bounced', 'failed')),
    complained boolean NOT NULL,
    test boolean NOT NULL,
    domain_id uuid NOT NULL,
    domain text NOT NULL,
    provider_message_id text,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
  )`,
  `CREATE INDEX email_messages_list ON email_messages (application_id, created_at DESC, id DESC)`,
  `CREATE INDEX email_messages_status ON email_messages (application_id, status, created_at DESC, id DESC)`,
  `CREATE INDEX email_messages_undelivered ON email_messages (application_id, created_at DESC, id DESC)
    WHERE status IN ('bounced', 'failed')`,
  `CREATE INDEX email_messages_complained ON email_messages (application_id, created_at DESC, id DESC)
    WHERE complained`,
  `CREATE INDEX email_messages_domain ON email_messages (domain_id, created_at DESC, id DESC)`,
]

export const migration: Migration = {
  number: 1,
  name: "email",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
  ),
}
