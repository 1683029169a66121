/**
 * The Email benchmark's log part: `GET /v1/applications/{a}/email/messages` (email.messages.list, the account API
 * with an account token the console made) over `rows` messages of one application, written straight with SQL
 * (`generate_series`) into email_messages, then ANALYZE; each combination of `q` and `status` timed on its first
 * page and on the page after it (its `next_cursor`), one call at a time; and the plan of the repository's own
 * statement (adapters/sql/email.ts `listStatement`) for each, `EXPLAIN (ANALYZE, BUFFERS)`.
 *
 * The rows: newest first by one second each; `to` one of 50,000 customers on one of ten mailbox domains (in runs
 * of 100 rows), subject `Your receipt INV-<n>`, reference `INV-<n>`; status by n % 100: delivered 85 %, sent 5 %,
 * bounced 7 %, failed 3 %; one in 200 complained.
 */
import type { ListStatus } from "../../core/email/model.ts"
import type { ApplicationId, Millis } from "../../core/shared/brands.ts"
import { listStatement } from "../../adapters/sql/email.ts"
import type { Db } from "../verify-lib/ceiling.ts"
import { Latencies } from "../verify-lib/support.ts"

export interface Combo {
  readonly label: string
  readonly q?: string
  readonly status?: ListStatus
}

/**
 * The combinations timed, by the shape of `q` (core/email/search.ts): common filters; an address or its start
 * (the recipients' btree, migrations/email/0003); a part of three letters or digits, common, rare and absent
 * (the trigram index, email/0002, or the newest-first index when most rows match); and fewer than three letters
 * or digits (the start of the recipient or the reference: both btrees, or the newest-first index).
 */
export const combos: ReadonlyArray<Combo> = [
  { label: "no filter" },
  { label: "status=delivered", status: "delivered" },
  { label: "status=undelivered", status: "undelivered" },
  { label: "status=complained", status: "complained" },
  { label: "q=mail.sa (part: a tenth of the rows)", q: "mail.sa" },
  { label: "q=mail.sa & status=bounced (part)", q: "mail.sa", status: "bounced" },
  {
    label: "q=customer123@ & status=delivered (address start: 20 rows a million)",
    q: "customer123@",
    status: "delivered",
  },
  { label: "q=customer4711@ (address start: 20 rows a million)", q: "customer4711@" },
  { label: "q=Customer4711@example.net (whole address: 20 rows)", q: "Customer4711@example.net" },
  { label: "q=nobody@nowhere.sa (address: absent)", q: "nobody@nowhere.sa" },
  { label: "q=inv-4242 (part, a reference: 1 row in the oldest 10,000, 111 a million)", q: "inv-4242" },
  { label: "q=INV-999999 (part: one row, upper case)", q: "INV-999999" },
  { label: "q=zubaidi (part: absent)", q: "zubaidi" },
  { label: "q=cu (start: every recipient)", q: "cu" },
  { label: "q=sa (start: absent)", q: "sa" },
  { label: "q=q_ (start: absent)", q: "q_" },
]

export const pageLimit = 20

const mailboxes = ["gmail.com", "hotmail.com", "outlook.sa", "mail.sa", "stc.com.sa", "yahoo.com", "icloud.com"]
  .concat(["example.net", "company.sa", "edu.sa"])

/** `rows` messages of the application, in batches of 100,000 (statement, then its progress). */
export const bulkInsert = async (
  db: Db,
  s: { applicationId: string; accountId: string; domainId: string },
  rows: number,
  progress: (done: number) => void,
) => {
  const now = Date.now()
  const arr = `ARRAY[${mailboxes.map((m) => `'${m}'`).join(", ")}]`
  for (let from = 1; from <= rows; from += 100_000) {
    const to = Math.min(rows, from + 99_999)
    await db.query(
      "",
      `INSERT INTO email_messages (id, application_id, account_id, "from", "to", subject, reference, status, complained,
        test, domain_id, domain, provider_message_id, created_at, updated_at)
      SELECT md5($1::text || i)::uuid, $2::uuid, $3::uuid, 'receipts@shop.sa',
        'customer' || (i % 50000) || '@' || (${arr})[1 + (i / 100) % 10],
        'Your receipt INV-' || i, 'INV-' || i,
        CASE WHEN i % 100 < 85 THEN 'delivered' WHEN i % 100 < 90 THEN 'sent' WHEN i % 100 < 97 THEN 'bounced'
          ELSE 'failed' END,
        i % 200 = 7, false, $4::uuid, 'shop.sa', md5(i::text), $5::bigint - ($6::bigint - i) * 1000,
        $5::bigint - ($6::bigint - i) * 1000
      FROM generate_series($7::int, $8::int) AS i`,
      [s.applicationId, s.applicationId, s.accountId, s.domainId, now - 60_000, rows, from, to],
    )
    progress(to)
  }
  await db.query("", "ANALYZE email_messages", [])
}

/** The repository's statement for a combination's page (`after`: the cursor's position). */
export const statementFor = (
  applicationId: string,
  c: Combo,
  after?: { createdAt: number; id: string },
) =>
  listStatement({
    applicationId: applicationId as ApplicationId,
    q: c.q?.toLowerCase(),
    status: c.status,
    domainId: undefined,
    limit: pageLimit + 1,
    after: after === undefined ? undefined : { createdAt: after.createdAt as Millis, id: after.id },
  })

/**
 * For each combination: the position after its first page (as keysetPage makes it: the 20th row of 21), the plans
 * of its first page and of the page after it, and its first page's statement timed `calls` times straight through
 * the driver (fewer once `budgetMs` is spent, at least 5): the statement's own time, without HTTP and the host.
 */
export const explainAll = async (db: Db, applicationId: string, calls: number, budgetMs: number) => {
  const out: Array<
    { combo: Combo; after?: { createdAt: number; id: string }; plans: Array<string>; sql: Latencies }
  > = []
  for (const c of combos) {
    const [text, params] = statementFor(applicationId, c)
    const first = await db.query("", text, [...params])
    const sql = new Latencies()
    const start = performance.now()
    for (let i = 0; i < calls && (i < 5 || performance.now() - start < budgetMs); i++) {
      const t0 = performance.now()
      await db.query("", text, [...params])
      sql.add(performance.now() - t0)
    }
    const last = first.length > pageLimit ? first[pageLimit - 1] : undefined
    const after = last === undefined ? undefined : { createdAt: Number(last.created_at), id: String(last.id) }
    const plans: Array<string> = []
    for (const a of after === undefined ? [undefined] : [undefined, after]) {
      const [t, p] = statementFor(applicationId, c, a)
      const rows = await db.query("", `EXPLAIN (ANALYZE, BUFFERS) ${t}`, [...p])
      plans.push(rows.map((r) => r["QUERY PLAN"]).join("\n"))
    }
    out.push({ combo: c, after, plans, sql })
  }
  return out
}

/** The list's path for a combination (with `cursor` when given). */
export const listPath = (applicationId: string, c: Combo, cursor?: string) => {
  const q = new URLSearchParams()
  if (c.q !== undefined) q.set("q", c.q)
  if (c.status !== undefined) q.set("status", c.status)
  if (cursor !== undefined) q.set("cursor", cursor)
  const s = q.toString()
  return `/v1/applications/${applicationId}/email/messages${s === "" ? "" : `?${s}`}`
}
