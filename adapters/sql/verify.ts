/** Verify's tables: verifications, the sends that count toward caps and spend, settings, proven test numbers. */
import { Effect, Layer, Option } from "effect"
import type { AccountId, ApplicationId, Millis, SaudiMobile, VerificationId } from "../../core/shared/brands.ts"
import type { KeyMode } from "../../core/shared/key-mode.ts"
import type { Verification, VerificationStatus, VerifySettings } from "../../core/verify/model.ts"
import type { OutboxEvent } from "../../ports/store/outbox.ts"
import {
  type CapsClaim,
  SandboxDestinationsRepo,
  type SendRecord,
  VerificationsRepo,
  VerifySendsRepo,
  VerifySettingsRepo,
} from "../../ports/store/verify.ts"
import { client, first, json, num, numOrNull, type Row, toJson } from "./rows.ts"
import { chargeCtes, chargedColumns, chargeParams, toCharged } from "./wallet.ts"

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

/*
 * The send path's statements are written out once with `$n` placeholders and run with `sql.unsafe`: no
 * template is compiled per request, and each variant is one constant text (the driver's prepared statements
 * key on it). Parameters carry casts where a first use would leave their type unknown.
 */

/**
 * A transition: `$1..$7` the new state, `$8` the id, `$9..$13` the state the row must still hold, `$14` the
 * events (a JSON array, in order), then the guard's credit (application, epoch, minute, count, shard).
 *
 * A verified code's credit goes to one of `guardCreditShards` rows of its minute, chosen by the code's id, and
 * never to the row its sends count in (shard 0): concurrent checks of one application (and the starts beside
 * them) would otherwise queue on one row, each holding it to its commit (measured: one application ran at
 * about 0.87 of sixteen with one row, about 0.99 with none). The guard sums every shard of its minutes.
 */
const transitionText = (events: boolean, credit: boolean) => {
  const c = events ? 15 : 14
  return `WITH moved AS (
      UPDATE verifications SET status = $1, attempts = $2, resends = $3, code_hash = $4, expires_at = $5,
        verified_at = $6, updated_at = $7
      WHERE id = $8 AND status = $9 AND attempts = $10 AND resends = $11 AND code_hash = $12 AND expires_at = $13
      RETURNING id
    )` +
    (events
      ? `, appended AS (
      INSERT INTO outbox_events (id, event, data, application_id, account_id, external_id, created_at)
      SELECT e.id, e.event, e.data, e.application_id, e.account_id, e.external_id, e.created_at
      FROM moved, jsonb_to_recordset($14::jsonb) AS e(id uuid, event text, data jsonb, application_id uuid,
        account_id uuid, external_id text, created_at bigint, ordinal int)
      ORDER BY e.ordinal
    )`
      : "") +
    (credit
      ? `, credited AS (
      INSERT INTO verify_guard AS g (application_id, epoch, minute, shard, sends, verified)
      SELECT $${c}::uuid, $${c + 1}::bigint, $${c + 2}::bigint, $${c + 4}::smallint, 0, $${c + 3}::int FROM moved
      ON CONFLICT (application_id, epoch, minute, shard) DO UPDATE SET verified = g.verified + EXCLUDED.verified
    )`
      : "") +
    ` SELECT count(*) AS n FROM moved`
}

/** Rows a minute's verified credits spread over (shards 1 to this), by the code's id. */
const guardCreditShards = 8

const creditShard = (id: string) => 1 + (parseInt(id.slice(0, 8), 16) % guardCreditShards)

const transitionTexts = [
  [transitionText(false, false), transitionText(false, true)],
  [transitionText(true, false), transitionText(true, true)],
] as const

/** Claims a send in a destination's (or client IP's) row: refused when its rolling hour holds the cap. */
const rollingClaim = (table: string, column: string, key: string, cap: string) =>
  `INSERT INTO ${table} AS d (application_id, ${column}, sent_at, latest) VALUES ($1, ${key}, ARRAY[$3::bigint], $3)
    ON CONFLICT (application_id, ${column}) DO UPDATE
      SET sent_at = ARRAY(SELECT t FROM unnest(d.sent_at) t WHERE t >= $4::bigint) || $3::bigint, latest = $3
      WHERE (SELECT count(*) FROM unnest(d.sent_at) t WHERE t >= $4::bigint) < (SELECT ${cap} FROM caps)
    RETURNING 1`

/** `$1` application, `$2` destination, `$3` now, `$4` since, `$5`/`$6` the default caps, `$7` the client IP. */
const claimText = (withIp: boolean) =>
  `WITH s AS (SELECT settings FROM verify_settings WHERE application_id = $1),
    a AS (SELECT paused, unpaused_at FROM applications WHERE id = $1),
    caps AS (
      SELECT coalesce((SELECT (settings->>'hourly_cap_per_destination')::int FROM s), $5::int) AS destination,
        coalesce((SELECT (settings->>'max_per_ip_per_hour')::int FROM s), $6::int) AS client_ip
    ),
    d AS (${rollingClaim("verify_destinations", `"to"`, "$2::text", "destination")})` +
  (withIp ? `, i AS (${rollingClaim("verify_client_ips", "client_ip", "$7::text", "client_ip")})` : "") +
  ` SELECT (SELECT settings FROM s) AS settings, EXISTS (SELECT 1 FROM d) AS destination,
    (SELECT paused FROM a) AS paused, (SELECT unpaused_at FROM a) AS unpaused_at, ` +
  (withIp ? `EXISTS (SELECT 1 FROM i) AS client_ip` : `true AS client_ip`)

const claimTexts = [claimText(false), claimText(true)] as const

/** `$1..$17` the verification's columns in `verificationColumns` order. */
const verificationInsert = `INSERT INTO verifications (${verificationColumns}) VALUES ($1, $2, $3, $4, $5, $6, $7,
  $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`

const verificationUpdate = `UPDATE verifications SET application_id = $2, account_id = $3, "to" = $4, channel = $5,
  reference = $6, client_ip = $7, mode = $8, status = $9, attempts = $10, max_attempts = $11, resends = $12,
  code_hash = $13, expires_at = $14, verified_at = $15, created_at = $16, updated_at = $17 WHERE id = $1`

/**
 * A send's record: `$1..$17` its verification, `$18` the price, `$19` the guard's epoch, `$20` its minute, `$21`
 * the send's client IP, `$22` its time; then, as the record asks, the spend's day start and cap, the charge's
 * parameters (`chargeCtes`), and the minute the guard's rolling hour begins.
 *
 * The rows other starts also want are taken in one order, whatever the plan: the wallet's (`charged`, read by
 * the outer query's FROM), then the day's spend (`sp`, reading `charged`), then the guard's minute (`g`, reading
 * `sp`); the verification and the send, which no other start wants, last. With no room in the wallet (or the
 * day's spend refused), nothing after it is written.
 */
const recordText = (update: boolean, spend: boolean, charge: boolean, guard: boolean) => {
  let next = 23
  const day = spend ? `$${next++}` : ""
  const cap = spend ? `$${next++}` : ""
  const chargeAt = next
  if (charge) next += 7
  const since = guard ? `$${next++}` : ""
  const afterCharge = charge ? " FROM charged" : ""
  const ctes = [
    ...(charge ? [chargeCtes((i) => `$${chargeAt + i}`)] : []),
    ...(spend
      ? [`sp AS (
      INSERT INTO verify_spend AS sp (application_id, day_start, spent_halalas)
      SELECT $2, ${day}::bigint, $18::bigint${afterCharge} WHERE $18::bigint <= coalesce(${cap}::bigint, 9223372036854775807)
      ON CONFLICT (application_id, day_start) DO UPDATE SET spent_halalas = sp.spent_halalas + EXCLUDED.spent_halalas
      WHERE sp.spent_halalas + EXCLUDED.spent_halalas <= coalesce(${cap}::bigint, 9223372036854775807)
      RETURNING 1
    )`]
      : []),
    `g AS (
      INSERT INTO verify_guard AS g (application_id, epoch, minute, shard, sends, verified)
      SELECT $2, $19::bigint, $20::bigint, 0, 1, 0${spend ? " FROM sp" : afterCharge}
      ON CONFLICT (application_id, epoch, minute, shard) DO UPDATE SET sends = g.sends + 1
    )`,
    `v AS (${update ? verificationUpdate : verificationInsert})`,
    `sent AS (
      INSERT INTO verify_sends (verification_id, application_id, "to", client_ip, price_halalas, sent_at)
      VALUES ($1, $2, $4, $21::text, $18::bigint, $22::bigint)
    )`,
  ]
  const columns = [
    `${spend ? "EXISTS (SELECT 1 FROM sp)" : "true"} AS spend`,
    ...(charge ? [chargedColumns] : []),
    ...(guard
      ? [
        `(SELECT coalesce(sum(sends), 0) FROM verify_guard
        WHERE application_id = $2 AND epoch = $19::bigint AND minute >= ${since}::bigint) AS guard_sends`,
        `(SELECT coalesce(sum(verified), 0) FROM verify_guard
        WHERE application_id = $2 AND epoch = $19::bigint AND minute >= ${since}::bigint) AS guard_verified`,
      ]
      : []),
  ]
  return `WITH ${ctes.join(",\n    ")}
  SELECT ${columns.join(", ")}` +
    (charge
      ? ` FROM (SELECT 1) AS one LEFT JOIN charged c ON true LEFT JOIN wallet_settings s ON s.account_id = c.account_id`
      : "")
}

const recordTexts = new Map<string, string>()
for (const update of [false, true]) {
  for (const spend of [false, true]) {
    for (const charge of [false, true]) {
      for (const guard of [false, true]) {
        recordTexts.set(`${update}${spend}${charge}${guard}`, recordText(update, spend, charge, guard))
      }
    }
  }
}

const verificationParams = (v: Verification): Array<unknown> => [
  v.id,
  v.applicationId,
  v.accountId,
  v.to,
  v.channel,
  v.reference,
  v.clientIp,
  v.mode,
  v.status,
  v.attempts,
  v.maxAttempts,
  v.resends,
  v.codeHash,
  v.expiresAt,
  v.verifiedAt,
  v.createdAt,
  v.updatedAt,
]

const eventsJson = (events: ReadonlyArray<OutboxEvent>) =>
  JSON.stringify(events.map((e, ordinal) => ({
    id: e.id,
    event: e.event,
    data: e.data,
    application_id: e.applicationId,
    account_id: e.accountId,
    external_id: e.externalId,
    created_at: e.createdAt,
    ordinal,
  })))

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
      transition: (before, next, events, verified) => {
        const params: Array<unknown> = [
          next.status,
          next.attempts,
          next.resends,
          next.codeHash,
          next.expiresAt,
          next.verifiedAt,
          next.updatedAt,
          before.id,
          before.status,
          before.attempts,
          before.resends,
          before.codeHash,
          before.expiresAt,
        ]
        if (events.length > 0) params.push(eventsJson(events))
        if (verified !== null) {
          params.push(verified.applicationId, verified.epoch, verified.minute, verified.count, creditShard(before.id))
        }
        return sql.unsafe(transitionTexts[events.length > 0 ? 1 : 0][verified !== null ? 1 : 0], params).pipe(
          Effect.map((rows) => num(rows[0].n) > 0),
          Effect.orDie,
        )
      },
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
    const claimCaps = (c: CapsClaim) => {
      const params: Array<unknown> = [
        c.applicationId,
        c.to,
        c.now,
        c.since,
        c.defaults.hourly_cap_per_destination,
        c.defaults.max_per_ip_per_hour,
      ]
      if (c.clientIp !== null) params.push(c.clientIp)
      return sql.unsafe(claimTexts[c.clientIp === null ? 0 : 1], params).pipe(
        Effect.map(([row]) => ({
          settings: row.settings === null || row.settings === undefined
            ? Option.none()
            : Option.some(json<VerifySettings>(row.settings)),
          destination: row.destination === true,
          clientIp: row.client_ip === true,
          paused: row.paused === true,
          unpausedAt: numOrNull(row.unpaused_at) as Millis | null,
        })),
        Effect.orDie,
      )
    }
    const record = (r: SendRecord) => {
      const params = verificationParams(r.verification.value)
      params.push(r.send.priceHalalas, r.guard.epoch, r.guard.minute, r.send.clientIp, r.send.sentAt)
      if (r.spend !== null) params.push(r.spend.dayStart, r.spend.capHalalas)
      if (r.charge !== null) params.push(...chargeParams(r.charge))
      if (r.guardSince !== null) params.push(r.guardSince)
      const text = recordTexts.get(
        `${r.verification._tag === "Update"}${r.spend !== null}${r.charge !== null}${r.guardSince !== null}`,
      )!
      return sql.unsafe(text, params).pipe(
        Effect.map(([row]) => ({
          charged: r.charge === null
            ? null
            : row.balance_halalas === null || row.balance_halalas === undefined
            ? Option.none()
            : Option.some(toCharged(row)),
          spendAdmitted: row.spend === true,
          guard: r.guardSince === null ? null : { sends: num(row.guard_sends) + 1, verified: num(row.guard_verified) },
        })),
        Effect.orDie,
      )
    }
    /** Removes one occurrence of `at` from a rolling row's send times. */
    const forget = (table: string, column: string) =>
      `UPDATE ${table} SET sent_at = sent_at[:array_position(sent_at, $3::bigint) - 1]
        || sent_at[array_position(sent_at, $3::bigint) + 1:]
      WHERE application_id = $1 AND ${column} = $2 AND $3::bigint = ANY (sent_at)`
    const forgetDestination = forget("verify_destinations", `"to"`)
    const forgetClientIp = forget("verify_client_ips", "client_ip")
    return {
      claimCaps,
      record,
      // Start and resend may share a millisecond: the latest such send goes.
      release: (s) =>
        Effect.all([
          sql.unsafe(forgetDestination, [s.applicationId, s.to, s.sentAt]),
          s.clientIp === null ? Effect.void : sql.unsafe(forgetClientIp, [s.applicationId, s.clientIp, s.sentAt]),
          // Found by the application's index (application, time): sends have no index by verification.
          sql`DELETE FROM verify_sends WHERE id = (SELECT id FROM verify_sends
            WHERE application_id = ${s.applicationId} AND sent_at = ${s.sentAt} AND verification_id = ${s.verificationId}
            ORDER BY id DESC LIMIT 1)`,
        ], { discard: true }).pipe(Effect.orDie),
      uncount: (s, slots) =>
        Effect.all([
          s.priceHalalas > 0
            ? sql`UPDATE verify_spend SET spent_halalas = spent_halalas - ${s.priceHalalas}
              WHERE application_id = ${s.applicationId} AND day_start = ${slots.dayStart}`
            : Effect.void,
          sql`UPDATE verify_guard SET sends = sends - 1 WHERE shard = 0 AND application_id = ${slots.guard.applicationId}
            AND epoch = ${slots.guard.epoch} AND minute = ${slots.guard.minute}`,
        ], { discard: true }).pipe(Effect.orDie),
      spendAdmits: (applicationId, dayStart, price, cap) =>
        sql`SELECT coalesce((SELECT spent_halalas FROM verify_spend
          WHERE application_id = ${applicationId} AND day_start = ${dayStart}), 0) AS spent`.pipe(
          Effect.map((rows) => num(rows[0].spent) + price <= cap),
          Effect.orDie,
        ),
      guardStats: (applicationId, epoch, since) =>
        sql`SELECT coalesce(sum(sends), 0) AS sends, coalesce(sum(verified), 0) AS verified FROM verify_guard
          WHERE application_id = ${applicationId} AND epoch = ${epoch} AND minute >= ${since}`.pipe(
          Effect.map((rows) => ({ sends: num(rows[0].sends), verified: num(rows[0].verified) })),
          Effect.orDie,
        ),
      insert: (s) =>
        sql`INSERT INTO verify_sends (verification_id, application_id, "to", client_ip, price_halalas, sent_at)
          VALUES (${s.verificationId}, ${s.applicationId}, ${s.to}, ${s.clientIp}, ${s.priceHalalas}, ${s.sentAt})`
          .pipe(Effect.asVoid, Effect.orDie),
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
