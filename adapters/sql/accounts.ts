import { Effect, Layer } from "effect"
import type { Account, AccountStatus, Application, ApplicationStatus } from "../../core/accounts/model.ts"
import type { AccountId, ApplicationId } from "../../core/shared/brands.ts"
import {
  AccountsRepo,
  type ApplicationProfile,
  ApplicationProfilesRepo,
  ApplicationsRepo,
} from "../../ports/store/accounts.ts"
import { client, first, num, type Row } from "./rows.ts"

export const accountColumns = "id, name, sandbox_only, partner, status, created_at"
export const applicationColumns =
  "id, account_id, name, status, external_id, paused, unpaused_at, approved_at, created_at"

/** `prefix` reads aliased columns of a join (`acc_id`, ...). */
export const toAccount = (row: Row, prefix = ""): Account => ({
  id: row[`${prefix}id`] as AccountId,
  name: row[`${prefix}name`],
  sandboxOnly: row[`${prefix}sandbox_only`],
  partner: row[`${prefix}partner`],
  status: row[`${prefix}status`] as AccountStatus,
  createdAt: num(row[`${prefix}created_at`]),
})

export const toApplication = (row: Row, prefix = ""): Application => ({
  id: row[`${prefix}id`] as ApplicationId,
  accountId: row[`${prefix}account_id`] as AccountId,
  name: row[`${prefix}name`],
  status: row[`${prefix}status`] as ApplicationStatus,
  externalId: row[`${prefix}external_id`] ?? null,
  paused: row[`${prefix}paused`],
  unpausedAt: row[`${prefix}unpaused_at`] == null ? null : num(row[`${prefix}unpaused_at`]),
  approvedAt: row[`${prefix}approved_at`] == null ? null : num(row[`${prefix}approved_at`]),
  createdAt: num(row[`${prefix}created_at`]),
})

export const AccountsRepoSql = Layer.effect(
  AccountsRepo,
  Effect.gen(function* () {
    const sql = yield* client
    const columns = sql.literal(accountColumns)
    return {
      insert: (a) =>
        sql`INSERT INTO accounts (id, name, sandbox_only, partner, status, created_at)
          VALUES (${a.id}, ${a.name}, ${a.sandboxOnly}, ${a.partner}, ${a.status}, ${a.createdAt})`.pipe(
          Effect.asVoid,
          Effect.orDie,
        ),
      get: (id) =>
        sql`SELECT ${columns} FROM accounts WHERE id = ${id}`.pipe(
          Effect.map((rows) => first(rows, (row) => toAccount(row))),
          Effect.orDie,
        ),
      count: sql`SELECT count(*) AS n FROM accounts`.pipe(Effect.map((rows) => num(rows[0].n)), Effect.orDie),
      oldest: sql`SELECT ${columns} FROM accounts ORDER BY created_at, id LIMIT 1`.pipe(
        Effect.map((rows) => first(rows, (row) => toAccount(row))),
        Effect.orDie,
      ),
      recent: (limit) =>
        sql`SELECT ${columns} FROM accounts ORDER BY created_at DESC, id DESC LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map((row) => toAccount(row))),
          Effect.orDie,
        ),
    }
  }),
)

export const ApplicationsRepoSql = Layer.effect(
  ApplicationsRepo,
  Effect.gen(function* () {
    const sql = yield* client
    const columns = sql.literal(applicationColumns)
    const one = (rows: ReadonlyArray<Row>) => first(rows, (row) => toApplication(row))
    return {
      insert: (a) =>
        sql`INSERT INTO applications
            (id, account_id, name, status, external_id, paused, unpaused_at, approved_at, created_at, updated_at)
          VALUES (${a.id}, ${a.accountId}, ${a.name}, ${a.status}, ${a.externalId}, ${a.paused}, ${a.unpausedAt},
            ${a.approvedAt}, ${a.createdAt}, ${a.createdAt})`.pipe(
          Effect.asVoid,
          Effect.orDie,
        ),
      get: (id) => sql`SELECT ${columns} FROM applications WHERE id = ${id}`.pipe(Effect.map(one), Effect.orDie),
      getForUpdate: (id) =>
        sql`SELECT ${columns} FROM applications WHERE id = ${id} FOR UPDATE`.pipe(Effect.map(one), Effect.orDie),
      // The id wins over another application's equal external_id; `id::text` because the input may be no uuid.
      findInAccount: (accountId, idOrExternalId) =>
        sql`SELECT ${columns} FROM applications
          WHERE account_id = ${accountId} AND (id::text = ${idOrExternalId} OR external_id = ${idOrExternalId})
          ORDER BY (id::text = ${idOrExternalId}) DESC, created_at, id LIMIT 1`.pipe(Effect.map(one), Effect.orDie),
      update: (a) =>
        sql`UPDATE applications SET account_id = ${a.accountId}, name = ${a.name}, status = ${a.status},
          external_id = ${a.externalId}, paused = ${a.paused}, unpaused_at = ${a.unpausedAt},
          approved_at = ${a.approvedAt} WHERE id = ${a.id}`.pipe(
          Effect.asVoid,
          Effect.orDie,
        ),
      pageInAccount: (accountId, after, limit) =>
        (after === null
          ? sql`SELECT ${columns} FROM applications WHERE account_id = ${accountId}
              ORDER BY created_at DESC, id DESC LIMIT ${limit}`
          : sql`SELECT ${columns} FROM applications WHERE account_id = ${accountId}
              AND (created_at, id) < (${after.createdAt}, ${after.id}::uuid)
              ORDER BY created_at DESC, id DESC LIMIT ${limit}`).pipe(
            Effect.map((rows) => rows.map((r) => toApplication(r))),
            Effect.orDie,
          ),
    }
  }),
)

const toProfile = (row: Row): ApplicationProfile => ({
  website: row.website ?? null,
  logo: row.logo_sha256 == null ? null : { sha256: row.logo_sha256, ext: row.logo_ext },
  reasonCode: row.reason_code ?? null,
  appealable: row.appealable === true,
  statusBeforeArchive: row.status_before_archive ?? null,
  updatedAt: num(row.updated_at ?? row.created_at),
})

export const ApplicationProfilesRepoSql = Layer.effect(
  ApplicationProfilesRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      get: (id) =>
        sql`SELECT website, logo_sha256, logo_ext, reason_code, appealable, status_before_archive, updated_at, created_at
          FROM applications WHERE id = ${id}`.pipe(Effect.map((rows) => first(rows, toProfile)), Effect.orDie),
      put: (id, p) =>
        sql`UPDATE applications SET website = ${p.website}, logo_sha256 = ${p.logo?.sha256 ?? null},
          logo_ext = ${p.logo?.ext ?? null}, reason_code = ${p.reasonCode}, appealable = ${p.appealable},
          status_before_archive = ${p.statusBeforeArchive}, updated_at = ${p.updatedAt} WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie,
        ),
    }
  }),
)
