/** Verify's tables: verifications, the sends that count toward caps and spend, settings, proven test numbers. */
import { Effect, Layer, Option } from "effect"
import type { AccountId, ApplicationId, Millis, SaudiMobile, VerificationId } from "../../core/shared/brands.ts"
import type { KeyMode } from "../../core/shared/key-mode.ts"
import type { Verification, VerificationStatus, VerifySettings } from "../../core/verify/model.ts"
import {
  SandboxDestinationsRepo,
  VerificationsRepo,
  VerifySendsRepo,
  VerifySettingsRepo,
} from "../../ports/store/verify.ts"
import { client, first, json, num, numOrNull, type Row, toJson } from "./rows.ts"

export const verificationColumns =
  `id, application_id, account_id, "to", channel, reference, client_ip, mode, status, attempts,
  max_attempts, resends, code_hash, expires_at, verified_at, created_at, updated_at`

export const toVerification = (row: Row): Verification => ({
  id: row.id as VerificationId,
  applicationId: row.application_id as ApplicationId,
  accountId: row.account_id as AccountId,
  to: row.to as SaudiMobile,
  channel: row.channel,
  reference: row.reference ?? null,
  clientIp: row.client_ip ?? null,
  mode: row.mode as KeyMode,
  status: row.status as VerificationStatus,
  attempts: num(row.attempts),
  maxAttempts: num(row.max_attempts),
  resends: num(row.resends),
  codeHash: row.code_hash,
  expiresAt: num(row.expires_at),
  verifiedAt: numOrNull(row.verified_at),
  createdAt: num(row.created_at),
  updatedAt: num(row.updated_at),
})

export const VerificationsRepoSql = Layer.effect(
  VerificationsRepo,
  Effect.gen(function* () {
    const sql = yield* client
    const cols = sql.literal(verificationColumns)
    const one = (rows: ReadonlyArray<Row>) => first(rows, toVerification)
    return {
      insert: (v) =>
        sql`INSERT INTO verifications (${cols}) VALUES (${v.id}, ${v.applicationId}, ${v.accountId}, ${v.to},
          ${v.channel}, ${v.reference}, ${v.clientIp}, ${v.mode}, ${v.status}, ${v.attempts}, ${v.maxAttempts},
          ${v.resends}, ${v.codeHash}, ${v.expiresAt}, ${v.verifiedAt}, ${v.createdAt}, ${v.updatedAt})`.pipe(
          Effect.asVoid,
          Effect.orDie,
        ),
      get: (id) => sql`SELECT ${cols} FROM verifications WHERE id = ${id}`.pipe(Effect.map(one), Effect.orDie),
      getForUpdate: (id) =>
        sql`SELECT ${cols} FROM verifications WHERE id = ${id} FOR UPDATE`.pipe(Effect.map(one), Effect.orDie),
      update: (v) =>
        sql`UPDATE verifications SET application_id = ${v.applicationId}, account_id = ${v.accountId}, "to" = ${v.to},
          channel = ${v.channel}, reference = ${v.reference}, client_ip = ${v.clientIp}, mode = ${v.mode},
          status = ${v.status}, attempts = ${v.attempts}, max_attempts = ${v.maxAttempts}, resends = ${v.resends},
          code_hash = ${v.codeHash}, expires_at = ${v.expiresAt}, verified_at = ${v.verifiedAt},
          created_at = ${v.createdAt}, updated_at = ${v.updatedAt}
          WHERE id = ${v.id}`.pipe(Effect.asVoid, Effect.orDie),
      delete: (id) => sql`DELETE FROM verifications WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      lockExpirable: (before, limit) =>
        sql`SELECT ${cols} FROM verifications WHERE status = 'pending' AND expires_at <= ${before}
          ORDER BY expires_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED`.pipe(
          Effect.map((rows) => rows.map(toVerification)),
          Effect.orDie,
        ),
      earliestPendingExpiry: sql`SELECT min(expires_at) AS at FROM verifications WHERE status = 'pending'`.pipe(
        Effect.map((rows) => rows[0]?.at == null ? Option.none<Millis>() : Option.some(num(rows[0].at) as Millis)),
        Effect.orDie,
      ),
      countSandboxStarts: (applicationId) =>
        sql`SELECT count(*) AS n FROM verifications
          WHERE application_id = ${applicationId} AND mode IN ('test', 'partner_test')`.pipe(
          Effect.map((rows) => num(rows[0].n)),
          Effect.orDie,
        ),
    }
  }),
)

export const VerifySendsRepoSql = Layer.effect(
  VerifySendsRepo,
  Effect.gen(function* () {
    const sql = yield* client
    const count = (rows: ReadonlyArray<Row>) => num(rows[0].n)
    return {
      insert: (s) =>
        sql`INSERT INTO verify_sends (verification_id, application_id, "to", client_ip, price_halalas, sent_at)
          VALUES (${s.verificationId}, ${s.applicationId}, ${s.to}, ${s.clientIp}, ${s.priceHalalas}, ${s.sentAt})`
          .pipe(Effect.asVoid, Effect.orDie),
      // Start and resend may share a millisecond: the latest such send goes.
      delete: (verificationId, sentAt) =>
        sql`DELETE FROM verify_sends WHERE id = (SELECT id FROM verify_sends
          WHERE verification_id = ${verificationId} AND sent_at = ${sentAt} ORDER BY id DESC LIMIT 1)`.pipe(
          Effect.asVoid,
          Effect.orDie,
        ),
      countToDestination: (applicationId, to, since) =>
        sql`SELECT count(*) AS n FROM verify_sends
          WHERE application_id = ${applicationId} AND "to" = ${to} AND sent_at >= ${since}`.pipe(
          Effect.map(count),
          Effect.orDie,
        ),
      countFromIp: (applicationId, clientIp, since) =>
        sql`SELECT count(*) AS n FROM verify_sends
          WHERE application_id = ${applicationId} AND client_ip = ${clientIp} AND sent_at >= ${since}`.pipe(
          Effect.map(count),
          Effect.orDie,
        ),
      spendSince: (applicationId, since) =>
        sql`SELECT coalesce(sum(price_halalas), 0) AS n FROM verify_sends
          WHERE application_id = ${applicationId} AND sent_at >= ${since}`.pipe(Effect.map(count), Effect.orDie),
      guardStats: (applicationId, since) =>
        sql`SELECT count(*) AS sends, count(*) FILTER (WHERE v.status = 'verified') AS verified
          FROM verify_sends s LEFT JOIN verifications v ON v.id = s.verification_id
          WHERE s.application_id = ${applicationId} AND s.sent_at >= ${since}`.pipe(
          Effect.map((rows) => ({ sends: num(rows[0].sends), verified: num(rows[0].verified) })),
          Effect.orDie,
        ),
    }
  }),
)

export const VerifySettingsRepoSql = Layer.effect(
  VerifySettingsRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      get: (applicationId) =>
        sql`SELECT settings FROM verify_settings WHERE application_id = ${applicationId}`.pipe(
          Effect.map((rows) => first(rows, (row) => json<VerifySettings>(row.settings))),
          Effect.orDie,
        ),
      put: (applicationId, settings) =>
        sql`INSERT INTO verify_settings (application_id, settings) VALUES (${applicationId}, ${toJson(settings)}::jsonb)
          ON CONFLICT (application_id) DO UPDATE SET settings = EXCLUDED.settings`.pipe(Effect.asVoid, Effect.orDie),
    }
  }),
)

export const SandboxDestinationsRepoSql = Layer.effect(
  SandboxDestinationsRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      add: (accountId, to) =>
        sql`INSERT INTO sandbox_destinations (account_id, "to") VALUES (${accountId}, ${to})
          ON CONFLICT DO NOTHING`.pipe(Effect.asVoid, Effect.orDie),
      has: (accountId, to) =>
        sql`SELECT 1 AS found FROM sandbox_destinations WHERE account_id = ${accountId} AND "to" = ${to}`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie,
        ),
    }
  }),
)
