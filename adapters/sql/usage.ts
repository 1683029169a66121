/**
 * Client usage (DECISIONS 12, 16) in one statement, so the page and the totals come from one snapshot. It reads
 * Verify's tables and the applications: `codes_sent` counts the charged sends (`price_halalas > 0`: live and
 * partner keys; test and partner-test sends are free) left in `verify_sends` (a refused send is deleted there
 * in the transaction that refunds it), so their prices sum to the charges less the refunds; `codes_verified`
 * counts live and partner verifications verified in the period (index of migrations/usage/0001).
 */
import { Effect, Layer } from "effect"
import type { ApplicationId } from "../../core/shared/brands.ts"
import { UsageRepo, type UsageRow } from "../../ports/store/usage.ts"
import { client, num, type Row } from "./rows.ts"

const toRow = (row: Row): UsageRow => ({
  applicationId: row.id as ApplicationId,
  externalId: row.external_id ?? null,
  name: row.name,
  codesSent: num(row.codes_sent),
  codesVerified: num(row.codes_verified),
  costHalalas: num(row.cost_halalas),
})

export const UsageRepoSql = Layer.effect(
  UsageRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      page: (query) =>
        sql`WITH apps AS (
            SELECT id, external_id, name FROM applications
            WHERE account_id = ${query.accountId} AND (${query.q}::text IS NULL
              OR strpos(lower(name COLLATE "C"), ${query.q}::text) > 0
              OR strpos(lower(coalesce(external_id, '') COLLATE "C"), ${query.q}::text) > 0
              OR id::text = ${query.q}::text)
          ), sent AS (
            SELECT s.application_id, count(*) AS codes_sent, sum(s.price_halalas) AS cost_halalas
            FROM verify_sends s JOIN apps ON apps.id = s.application_id
            WHERE s.sent_at >= ${query.since} AND s.sent_at < ${query.until} AND s.price_halalas > 0
            GROUP BY s.application_id
          ), verified AS (
            SELECT v.application_id, count(*) AS codes_verified
            FROM verifications v JOIN apps ON apps.id = v.application_id
            WHERE v.status = 'verified' AND v.mode IN ('live', 'partner')
              AND v.verified_at >= ${query.since} AND v.verified_at < ${query.until}
            GROUP BY v.application_id
          ), usage AS (
            SELECT apps.id, apps.external_id, apps.name,
              coalesce(sent.codes_sent, 0) AS codes_sent,
              coalesce(verified.codes_verified, 0) AS codes_verified,
              coalesce(sent.cost_halalas, 0) AS cost_halalas
            FROM apps LEFT JOIN sent ON sent.application_id = apps.id
              LEFT JOIN verified ON verified.application_id = apps.id
            WHERE sent.application_id IS NOT NULL OR verified.application_id IS NOT NULL
          ), anchor AS (
            SELECT codes_sent, cost_halalas, id FROM usage WHERE id = ${query.after}::uuid
          ), page AS (
            SELECT u.* FROM usage u
            WHERE ${query.after}::uuid IS NULL OR EXISTS (SELECT 1 FROM anchor a WHERE u.codes_sent < a.codes_sent
              OR (u.codes_sent = a.codes_sent AND (u.cost_halalas < a.cost_halalas
                OR (u.cost_halalas = a.cost_halalas AND u.id > a.id))))
            ORDER BY u.codes_sent DESC, u.cost_halalas DESC, u.id
            LIMIT ${query.limit}
          )
          SELECT 0 AS part, id::text COLLATE "C" AS id, external_id, name, codes_sent, codes_verified, cost_halalas,
            NULL::bigint AS applications FROM page
          UNION ALL
          SELECT 1, NULL, NULL, NULL, coalesce(sum(codes_sent), 0), coalesce(sum(codes_verified), 0),
            coalesce(sum(cost_halalas), 0), count(*) FROM usage
          ORDER BY part, codes_sent DESC, cost_halalas DESC, id`.pipe(
          Effect.map((rows) => {
            const totals = rows.find((row) => num(row.part) === 1)!
            return {
              rows: rows.filter((row) => num(row.part) === 0).map(toRow),
              totals: {
                applications: num(totals.applications),
                codesSent: num(totals.codes_sent),
                codesVerified: num(totals.codes_verified),
                costHalalas: num(totals.cost_halalas),
              },
            }
          }),
          Effect.orDie,
        ),
    }
  }),
)
