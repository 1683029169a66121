import { Effect, Layer, Option } from "effect"
import type { Credential, Role } from "../../core/keys/model.ts"
import type { AccountId, ApplicationId, KeyId } from "../../core/shared/brands.ts"
import type { KeyMode } from "../../core/shared/key-mode.ts"
import type { Access } from "../../core/shared/scope.ts"
import { CredentialsRepo } from "../../ports/store/credentials.ts"
import { toAccount, toApplication } from "./accounts.ts"
import { client, first, json, num, numOrNull, type Row, toJson } from "./rows.ts"

const columns = "id, hash, account_id, application_id, kind, mode, access, app_name, expires_at, ip_allowlist, " +
  "revoked_at, created_at, member_id, role, email, manage_contacts"

const toCredential = (row: Row): Credential => ({
  id: row.id as KeyId,
  hash: row.hash,
  accountId: row.account_id as AccountId,
  applicationId: (row.application_id ?? null) as ApplicationId | null,
  kind: row.kind,
  mode: (row.mode ?? null) as KeyMode | null,
  access: json<Access>(row.access),
  appName: row.app_name ?? null,
  expiresAt: numOrNull(row.expires_at),
  ipAllowlist: json<ReadonlyArray<string>>(row.ip_allowlist),
  revokedAt: numOrNull(row.revoked_at),
  createdAt: num(row.created_at),
  holder: row.member_id === null || row.member_id === undefined ? null : {
    memberId: row.member_id,
    role: row.role as Role,
    email: row.email ?? null,
    manageContacts: row.manage_contacts === true,
  },
})

/** What authentication reads about a credential: the credential, its account and its own application. */
const contextColumns = `
    c.id, c.hash, c.account_id, c.application_id, c.kind, c.mode, c.access, c.app_name, c.expires_at,
    c.ip_allowlist, c.revoked_at, c.created_at, c.member_id, c.role, c.email, c.manage_contacts,
    a.id AS acc_id, a.name AS acc_name, a.sandbox_only AS acc_sandbox_only, a.partner AS acc_partner,
    a.status AS acc_status, a.created_at AS acc_created_at,
    p.id AS ap_id, p.account_id AS ap_account_id, p.name AS ap_name, p.status AS ap_status,
    p.external_id AS ap_external_id, p.paused AS ap_paused, p.unpaused_at AS ap_unpaused_at,
    p.approved_at AS ap_approved_at,
    p.created_at AS ap_created_at`

const byHash = `SELECT ${contextColumns}
  FROM credentials c
  JOIN accounts a ON a.id = c.account_id
  LEFT JOIN applications p ON p.id = c.application_id
  WHERE c.hash = $1`

/**
 * The hot path of every keyed request, one round trip: count the request in its rate window (whether or
 * not the credential exists), then the credential, account and application. Outside any transaction the
 * upsert commits on its own, so the count stands whatever the request then does.
 */
const presentation = `WITH hit AS (
    INSERT INTO rate_windows (credential_hash, window_start, count) VALUES ($1, $2, 1)
    ON CONFLICT (credential_hash, window_start) DO UPDATE SET count = rate_windows.count + 1
    RETURNING count
  )
  SELECT hit.count AS hit_count, ${contextColumns}
  FROM hit
  LEFT JOIN (credentials c JOIN accounts a ON a.id = c.account_id) ON c.hash = $1
  LEFT JOIN applications p ON p.id = c.application_id`

const toContext = (row: Row) => ({
  credential: toCredential(row),
  account: toAccount(row, "acc_"),
  application: row.ap_id === null || row.ap_id === undefined ? null : toApplication(row, "ap_"),
})

export const CredentialsRepoSql = Layer.effect(
  CredentialsRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      insert: (c) =>
        sql`INSERT INTO credentials (${sql.literal(columns)}) VALUES (
          ${c.id}, ${c.hash}, ${c.accountId}, ${c.applicationId}, ${c.kind}, ${c.mode}, ${toJson(c.access)}::jsonb,
          ${c.appName}, ${c.expiresAt}, ${toJson(c.ipAllowlist)}::jsonb, ${c.revokedAt}, ${c.createdAt},
          ${c.holder?.memberId ?? null}, ${c.holder?.role ?? null}, ${c.holder?.email ?? null},
          ${c.holder?.manageContacts ?? null}
        )`.pipe(Effect.asVoid, Effect.orDie),
      findByHash: (hash) => sql.unsafe(byHash, [hash]).pipe(Effect.map((rows) => first(rows, toContext)), Effect.orDie),
      present: (hash, windowStart) =>
        sql.unsafe<Row>(presentation, [hash, windowStart]).pipe(
          Effect.map(([row]) => ({
            count: num(row.hit_count),
            found: row.id === null || row.id === undefined ? Option.none() : Option.some(toContext(row)),
          })),
          Effect.orDie,
        ),
      holderByEmail: (accountId, email) =>
        sql<{ member_id: string }>`SELECT member_id FROM credentials
          WHERE account_id = ${accountId} AND kind = 'account_token' AND lower(email) = lower(${email})
          ORDER BY created_at LIMIT 1`.pipe(Effect.map((rows) => first(rows, (r) => r.member_id)), Effect.orDie),
      ofAccount: (accountId) =>
        sql`SELECT ${sql.literal(columns)} FROM credentials WHERE account_id = ${accountId}
          ORDER BY created_at DESC, id DESC`.pipe(Effect.map((rows) => rows.map(toCredential)), Effect.orDie),
      // A second revocation keeps the first time.
      revoke: (id, at) =>
        sql`UPDATE credentials SET revoked_at = coalesce(revoked_at, ${at}) WHERE id = ${id}
          RETURNING ${sql.literal(columns)}`.pipe(Effect.map((rows) => first(rows, toCredential)), Effect.orDie),
    }
  }),
)
