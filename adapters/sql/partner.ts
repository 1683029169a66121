/** The Partner API's repositories over SQL: the partner's list in one statement, `external_id` claims, logos. */
import { Effect, Layer } from "effect"
import type { ApplicationId } from "../../core/shared/brands.ts"
import type { VerifySettings } from "../../core/verify/model.ts"
import type { ApplicationProfile } from "../../ports/store/accounts.ts"
import { LogosRepo, PartnerApplicationsRepo } from "../../ports/store/partner.ts"
import { applicationColumns, toApplication } from "./accounts.ts"
import { client, first, json, num, type Row } from "./rows.ts"

const toProfile = (row: Row): ApplicationProfile => ({
  website: row.website ?? null,
  logo: row.logo_sha256 == null ? null : { sha256: row.logo_sha256, ext: row.logo_ext },
  reasonCode: row.reason_code ?? null,
  appealable: row.appealable === true,
  statusBeforeArchive: row.status_before_archive ?? null,
  updatedAt: num(row.updated_at ?? row.created_at),
})

const columns = applicationColumns.split(", ").map((c) => `a.${c}`).join(", ") +
  ", a.website, a.logo_sha256, a.logo_ext, a.reason_code, a.appealable, a.status_before_archive, a.updated_at," +
  " s.settings"

/** Above every position: the first page. */
const top = { createdAt: Number.MAX_SAFE_INTEGER, id: "ffffffff-ffff-ffff-ffff-ffffffffffff" }

export const PartnerApplicationsRepoSql = Layer.effect(
  PartnerApplicationsRepo,
  Effect.gen(function* () {
    const sql = yield* client
    const selected = sql.literal(columns)
    return {
      // One statement whatever the filter (a named prepared statement per connection): the position is always a
      // bound on (created_at, id), so applications_account_newest (account_id, created_at DESC, id DESC) is walked
      // from it; the filters are parameters that are null when not asked.
      page: (accountId, filter, after, limit) => {
        const bound = after ?? top
        const statuses = filter.status === null
          ? null
          : filter.status === "suspended"
          ? "suspended,disabled"
          : filter.status
        return sql`SELECT ${selected} FROM applications a
            LEFT JOIN verify_settings s ON s.application_id = a.id
            WHERE a.account_id = ${accountId}
              AND (a.created_at, a.id) < (${bound.createdAt}::bigint, ${bound.id}::uuid)
              AND (CASE WHEN ${statuses}::text IS NULL THEN a.status <> 'archived'
                ELSE a.status = ANY (string_to_array(${statuses}::text, ',')) END)
              AND (${filter.externalId}::text IS NULL OR a.external_id = ${filter.externalId}::text)
              AND (${filter.q}::text IS NULL
                OR strpos(lower(a.name COLLATE "C"), ${filter.q}::text) > 0
                OR strpos(lower(coalesce(a.external_id, '') COLLATE "C"), ${filter.q}::text) > 0
                OR a.id::text = ${filter.q}::text)
            ORDER BY a.created_at DESC, a.id DESC LIMIT ${limit}`.pipe(
          Effect.map((rows) =>
            rows.map((row) => ({
              application: toApplication(row),
              profile: toProfile(row),
              settings: row.settings == null ? null : json<VerifySettings>(row.settings),
            }))
          ),
          Effect.orDie,
        )
      },
      // Held until the transaction ends; the key is the account and the external id.
      claimExternalId: (accountId, externalId) =>
        sql`SELECT pg_advisory_xact_lock(hashtextextended(${`partner.external_id:${accountId}:${externalId}`}, 0))`
          .pipe(Effect.asVoid, Effect.orDie),
      holderOf: (accountId, externalId) =>
        sql`SELECT id FROM applications WHERE account_id = ${accountId} AND external_id = ${externalId}
          ORDER BY created_at, id LIMIT 1`.pipe(
          Effect.map((rows) => first(rows, (row) => row.id as ApplicationId)),
          Effect.orDie,
        ),
    }
  }),
)

export const LogosRepoSql = Layer.effect(
  LogosRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      put: (logo) =>
        sql`INSERT INTO partner_logos (sha256, ext, bytes, created_at)
          VALUES (${logo.sha256}, ${logo.ext}, ${logo.bytes}, ${logo.createdAt})
          ON CONFLICT (sha256) DO NOTHING`.pipe(Effect.asVoid, Effect.orDie),
      get: (sha256) =>
        sql`SELECT sha256, ext, bytes, created_at FROM partner_logos WHERE sha256 = ${sha256}`.pipe(
          Effect.map((rows) =>
            first(rows, (row) => ({
              sha256: row.sha256 as string,
              ext: row.ext as string,
              bytes: new Uint8Array(row.bytes as Uint8Array),
              createdAt: num(row.created_at),
            }))
          ),
          Effect.orDie,
        ),
    }
  }),
)
