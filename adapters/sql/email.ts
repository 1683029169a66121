/** Email's tables over SQL: email_access, email_switch, sender_domains, email_messages (migrations/email). */
import { Effect, Layer, Option } from "effect"
import type {
  AccessStatus,
  DomainRecord,
  DomainStatus,
  EmailStatus,
  ListStatus,
  SenderDomain,
} from "../../core/email/model.ts"
import { logSearch } from "../../core/email/search.ts"
import { type AccountId, type ApplicationId, isUuid } from "../../core/shared/brands.ts"
import {
  EmailAccessRepo,
  type EmailListQuery,
  EmailMessagesRepo,
  EmailSwitchRepo,
  SenderDomainsRepo,
} from "../../ports/store/email.ts"
import { searchText } from "./migrations/email/0002_message_search.ts"
import { recipientText, referenceText } from "./migrations/email/0003_message_starts.ts"
import { client, first, json, num, numOrNull, type Row, toJson } from "./rows.ts"
import { containsPattern, startRange } from "./search.ts"

export const EmailAccessRepoSql = Layer.effect(
  EmailAccessRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      get: (accountId) =>
        sql`SELECT status, requested_at, decided_at FROM email_access WHERE account_id = ${accountId}`.pipe(
          Effect.map((rows) =>
            Option.getOrElse(
              first(rows, (row) => ({
                accountId,
                status: row.status as AccessStatus,
                requestedAt: numOrNull(row.requested_at),
                decidedAt: numOrNull(row.decided_at),
              })),
              () => ({ accountId, status: "none" as const, requestedAt: null, decidedAt: null }),
            )
          ),
          Effect.orDie,
        ),
      put: (a) =>
        sql`INSERT INTO email_access (account_id, status, requested_at, decided_at)
          VALUES (${a.accountId}, ${a.status}, ${a.requestedAt}, ${a.decidedAt})
          ON CONFLICT (account_id) DO UPDATE
          SET status = EXCLUDED.status, requested_at = EXCLUDED.requested_at, decided_at = EXCLUDED.decided_at`.pipe(
          Effect.asVoid,
          Effect.orDie,
        ),
    }
  }),
)

export const EmailSwitchRepoSql = Layer.effect(
  EmailSwitchRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      enabled: (applicationId) =>
        sql`SELECT enabled FROM email_switch WHERE application_id = ${applicationId}`.pipe(
          Effect.map((rows) => rows.length === 0 || rows[0].enabled === true),
          Effect.orDie,
        ),
      setEnabled: (applicationId, enabled) =>
        sql`INSERT INTO email_switch (application_id, enabled) VALUES (${applicationId}, ${enabled})
          ON CONFLICT (application_id) DO UPDATE SET enabled = EXCLUDED.enabled`.pipe(Effect.asVoid, Effect.orDie),
    }
  }),
)

const domainColumns = `id, application_id, domain, status, records, dkim_private_key_sealed, pending_until,
  verified_at, checked_at, created_at`

const toDomain = (row: Row): SenderDomain => ({
  id: row.id as string,
  applicationId: row.application_id as ApplicationId,
  domain: row.domain as string,
  status: row.status as DomainStatus,
  records: json<ReadonlyArray<DomainRecord>>(row.records),
  dkimPrivateKeySealed: row.dkim_private_key_sealed as string,
  pendingUntil: num(row.pending_until),
  verifiedAt: numOrNull(row.verified_at),
  checkedAt: num(row.checked_at),
  createdAt: num(row.created_at),
})

export const SenderDomainsRepoSql = Layer.effect(
  SenderDomainsRepo,
  Effect.gen(function* () {
    const sql = yield* client
    const cols = sql.literal(domainColumns)
    return {
      list: (applicationId) =>
        sql`SELECT ${cols} FROM sender_domains WHERE application_id = ${applicationId}
          ORDER BY created_at, id`.pipe(Effect.map((rows) => rows.map(toDomain)), Effect.orDie),
      get: (id) =>
        isUuid(id)
          ? sql`SELECT ${cols} FROM sender_domains WHERE id = ${id}`.pipe(
            Effect.map((rows) => first(rows, toDomain)),
            Effect.orDie,
          )
          : Effect.succeed(Option.none()),
      verifiedElsewhere: (domain, applicationId) =>
        sql`SELECT 1 FROM sender_domains
          WHERE domain = ${domain} AND status = 'verified' AND application_id <> ${applicationId} LIMIT 1`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie,
        ),
      insert: (d) =>
        sql`INSERT INTO sender_domains (id, application_id, domain, status, records, dkim_private_key_sealed,
            pending_until, verified_at, checked_at, created_at)
          VALUES (${d.id}, ${d.applicationId}, ${d.domain}, ${d.status}, ${toJson(d.records)}::jsonb,
            ${d.dkimPrivateKeySealed}, ${d.pendingUntil}, ${d.verifiedAt}, ${d.checkedAt}, ${d.createdAt})`.pipe(
          Effect.asVoid,
          Effect.orDie,
        ),
      restart: (id, pendingUntil, at) =>
        sql`UPDATE sender_domains
          SET status = 'pending', pending_until = ${pendingUntil}, verified_at = NULL, checked_at = ${at}
          WHERE id = ${id} AND status = 'failed'`.pipe(Effect.asVoid, Effect.orDie),
      recordCheck: (c) =>
        sql`UPDATE sender_domains
          SET records = ${toJson(c.records)}::jsonb, status = ${c.status}, verified_at = ${c.verifiedAt},
            checked_at = ${c.checkedAt}
          WHERE id = ${c.id} AND status = 'pending'
          RETURNING 1 AS stored`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
      due: (before, limit) =>
        sql`SELECT ${cols} FROM sender_domains WHERE status = 'pending' AND checked_at <= ${before}
          ORDER BY checked_at, id LIMIT ${limit}`.pipe(Effect.map((rows) => rows.map(toDomain)), Effect.orDie),
      earliestSettled: (since, until, every) =>
        sql`SELECT min(CASE WHEN checked_at <= ${since}::bigint THEN checked_at + ${every}::bigint
            ELSE checked_at + ${every}::bigint * greatest(1, least(
              ceil((pending_until - checked_at)::numeric / ${every}::bigint),
              floor((${until}::bigint - checked_at)::numeric / ${every}::bigint)))::bigint END) AS due
          FROM sender_domains WHERE status = 'pending'`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]?.due), (due) => num(due))),
          Effect.orDie,
        ),
      earliestPending: sql`SELECT checked_at FROM sender_domains WHERE status = 'pending'
        ORDER BY checked_at LIMIT 1`.pipe(
        Effect.map((rows) => first(rows, (row) => num(row.checked_at))),
        Effect.orDie,
      ),
    }
  }),
)

const messageColumns = `id, application_id, account_id, "from", "to", subject, reference, status, complained, test,
  domain_id, domain, provider_message_id, created_at, updated_at`

const toMessage = (row: Row) => ({
  id: row.id as string,
  applicationId: row.application_id as ApplicationId,
  accountId: row.account_id as AccountId,
  from: row.from as string,
  to: row.to as string,
  subject: row.subject as string,
  reference: (row.reference ?? null) as string | null,
  status: row.status as EmailStatus,
  complained: row.complained === true,
  test: row.test === true,
  domainId: row.domain_id as string,
  domain: row.domain as string,
  providerMessageId: (row.provider_message_id ?? null) as string | null,
  createdAt: num(row.created_at),
  updatedAt: num(row.updated_at),
})

/**
 * The list's filter by status, written out (not a parameter) so the planner takes the index of each: the
 * partial indexes of undelivered and complained ones, the status index of the others (migrations/email).
 */
const statusFilter: Record<ListStatus, string> = {
  delivered: `status = 'delivered'`,
  sent: `status = 'sent'`,
  bounced: `status = 'bounced'`,
  failed: `status = 'failed'`,
  undelivered: `status IN ('bounced', 'failed')`,
  complained: `complained`,
}

/** One page of the log: its statement, whose text varies only by which filters are present, and its values. */
export const listStatement = (query: EmailListQuery): readonly [string, ReadonlyArray<unknown>] => {
  const params: Array<unknown> = [query.applicationId]
  const where = [`application_id = $1`]
  const bind = (value: unknown) => `$${params.push(value)}`
  if (query.status !== undefined) where.push(statusFilter[query.status])
  if (query.domainId !== undefined) where.push(`domain_id = ${bind(query.domainId)}::uuid`)
  if (query.q !== undefined && query.q !== "") {
    // `q` is lowered already (the service); what it matches depends on its shape (core/email/search.ts).
    const search = logSearch(query.q)
    /** `expression` starts with q: a range of its btree (migrations/email/0003). */
    const starts = (expression: string) => {
      const range = startRange(search.q)
      return range.upper === null
        ? `(${expression} ~>=~ ${bind(range.lower)} AND starts_with(${expression}, ${bind(search.q)}))`
        : `(${expression} ~>=~ ${bind(range.lower)} AND ${expression} ~<~ ${bind(range.upper)})`
    }
    if (search.shape === "address") where.push(starts(recipientText))
    else if (search.shape === "start") where.push(`(${starts(recipientText)} OR ${starts(referenceText)})`)
    else {
      // Through the trigram index (migrations/email/0002); a `q` holding a line break (the joined text's separator,
      // which could match across two fields) is tested on each field as well.
      where.push(`${searchText} LIKE ${bind(containsPattern(search.q))}`)
      if (search.q.includes("\n")) {
        const q = bind(search.q)
        where.push(
          `(strpos(lower("to"), ${q}) > 0 OR strpos(lower(subject), ${q}) > 0 OR strpos(lower(reference), ${q}) > 0)`,
        )
      }
    }
  }
  if (query.after !== undefined) {
    where.push(`(created_at, id) < (${bind(query.after.createdAt)}, ${bind(query.after.id)}::uuid)`)
  }
  const text = `SELECT ${messageColumns} FROM email_messages WHERE ${where.join(" AND ")}
    ORDER BY created_at DESC, id DESC LIMIT ${bind(query.limit)}`
  return [text, params]
}

export const EmailMessagesRepoSql = Layer.effect(
  EmailMessagesRepo,
  Effect.gen(function* () {
    const sql = yield* client
    const cols = sql.literal(messageColumns)
    const one = (rows: ReadonlyArray<Row>) => first(rows, toMessage)
    /** Ids come from paths and reports: one that is no uuid names no message (and is no statement's error). */
    const byId = <A>(id: string, none: A, run: Effect.Effect<A>) => isUuid(id) ? run : Effect.succeed(none)
    return {
      insert: (m) =>
        sql`INSERT INTO email_messages (id, application_id, account_id, "from", "to", subject, reference, status,
            complained, test, domain_id, domain, provider_message_id, created_at, updated_at)
          VALUES (${m.id}, ${m.applicationId}, ${m.accountId}, ${m.from}, ${m.to}, ${m.subject}, ${m.reference},
            ${m.status}, ${m.complained}, ${m.test}, ${m.domainId}, ${m.domain}, ${m.providerMessageId},
            ${m.createdAt}, ${m.updatedAt})`.pipe(Effect.asVoid, Effect.orDie),
      setProviderId: (id, providerMessageId) =>
        sql`UPDATE email_messages SET provider_message_id = ${providerMessageId} WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie,
        ),
      remove: (id) => sql`DELETE FROM email_messages WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      get: (applicationId, id) =>
        byId(
          id,
          Option.none(),
          sql`SELECT ${cols} FROM email_messages WHERE id = ${id} AND application_id = ${applicationId}`.pipe(
            Effect.map(one),
            Effect.orDie,
          ),
        ),
      find: (id) =>
        byId(
          id,
          Option.none(),
          sql`SELECT ${cols} FROM email_messages WHERE id = ${id}`.pipe(Effect.map(one), Effect.orDie),
        ),
      finish: (id, status, at) =>
        byId(
          id,
          Option.none(),
          sql`UPDATE email_messages SET status = ${status}, updated_at = ${at}
            WHERE id = ${id} AND status = 'sent'
            RETURNING ${cols}`.pipe(Effect.map(one), Effect.orDie),
        ),
      complain: (id, at) =>
        byId(
          id,
          Option.none(),
          sql`UPDATE email_messages SET complained = true, updated_at = ${at}
            WHERE id = ${id} AND NOT complained
            RETURNING ${cols}`.pipe(Effect.map(one), Effect.orDie),
        ),
      list: (query) => {
        if (query.domainId !== undefined && !isUuid(query.domainId)) return Effect.succeed([])
        const [text, params] = listStatement(query)
        return sql.unsafe(text, params).pipe(Effect.map((rows) => rows.map(toMessage)), Effect.orDie)
      },
    }
  }),
)
