/** Verify's tables: verifications, the sends that count toward caps and spend, settings, proven test numbers. */
import { Effect, Layer, Option } from "effect"
import type { AccountId, ApplicationId, Millis, SaudiMobile, VerificationId } from "../../core/shared/brands.ts"
import type { KeyMode } from "../../core/shared/key-mode.ts"
import type { Verification, VerificationStatus, VerifySettings } from "../../core/verify/model.ts"
import type { OutboxEvent } from "../../ports/store/outbox.ts"
import {
  SandboxDestinationsRepo,
  type SendAttempt,
  type SendOutcome,
  VerificationsRepo,
  VerifySendsRepo,
  VerifySettingsRepo,
} from "../../ports/store/verify.ts"
import { type ChargeParameter, WalletChargeSql } from "../../ports/store/wallet.ts"
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

/**
 * A statement over named parameters: `p(name)` answers its `$n` (numbered at first use) and `names` their order,
 * so a text with optional parts numbers what it uses and nothing else.
 */
const namedParameters = () => {
  const names: Array<string> = []
  const p = (name: string) => {
    let i = names.indexOf(name)
    if (i < 0) i = names.push(name) - 1
    return `$${i + 1}`
  }
  return { names, p }
}

/** The columns of a verification in `verificationColumns` order, as the parameters `v0..v16` with their types. */
const verificationTypes = [
  "uuid",
  "uuid",
  "uuid",
  "text",
  "text",
  "text",
  "text",
  "text",
  "text",
  "int",
  "int",
  "int",
  "text",
  "bigint",
  "bigint",
  "bigint",
  "bigint",
] as const
const verificationColumnList = verificationColumns.split(",").map((c) => c.trim())

/**
 * The wallet's charge parameters in the send's statement: its amount is the send's price and its account the
 * application's (both bound once); the ledger row's are its own.
 */
const chargeParameter = (name: ChargeParameter) =>
  name === "amount" ? "price" : name === "account" ? "account" : `charge.${name}`

/**
 * A send in one statement (`VerifySendsRepo.send`), autocommitted: one round trip and one commit, no BEGIN.
 *
 * It implements Verify's send rules as core/verify/send-rules.ts states them: `pre` judges each gate of
 * `sendGates` as one column, on the statement's snapshot and without a lock (the settings the send was prepared
 * with are still the saved ones; `destination` and `client_ip`, the rolling hours hold room; `spend`, the day's
 * spend admits the price; `paused`; `wallet`, the wallet's charge port says the balance covers the price), and
 * `go` is `admitted`. Only when all pass do the writes run, each reading the one before it, so the rows other
 * sends want are taken in one order (the destination's, the client IP's, the wallet's, the day's spend, the
 * guard's minute), each judged again under its row lock: a concurrent send may have taken the room since the
 * snapshot. A send that loses such a race
 * after its first write is undone by raising `verify_send_undone` (migration verify 0005) with what each write
 * found, so a refusal that the snapshot foresees (all but a race at the edge) is an answer, not an error.
 */
const sendText = (
  wallet: WalletChargeSql["Type"],
  update: boolean,
  ip: boolean,
  spend: boolean,
  charge: boolean,
  guard: boolean,
) => {
  const { names, p } = namedParameters()
  const app = `${p("application")}::uuid`
  const now = `${p("now")}::bigint`
  const since = `${p("since")}::bigint`
  const price = `${p("price")}::bigint`
  const noCap = "9223372036854775807"
  const rollingCount = (table: string, column: string, key: string) =>
    `(SELECT count(*) FROM ${table} r, unnest(r.sent_at) t WHERE r.application_id = ${app} AND r.${column} = ${key}
        AND t >= ${since})`
  const rollingClaim = (table: string, column: string, key: string, cap: string, after: string) =>
    `INSERT INTO ${table} AS r (application_id, ${column}, sent_at, latest)
      SELECT ${app}, ${key}, ARRAY[${now}], ${now} FROM ${after}
      ON CONFLICT (application_id, ${column}) DO UPDATE
        SET sent_at = ARRAY(SELECT t FROM unnest(r.sent_at) t WHERE t >= ${since}) || ${now}, latest = ${now}
        WHERE (SELECT count(*) FROM unnest(r.sent_at) t WHERE t >= ${since}) < ${cap}
      RETURNING 1`
  const to = `${p("to")}::text`
  const clientIp = ip ? `${p("clientIp")}::text` : ""
  const destinationCap = `${p("destinationCap")}::int`
  const clientIpCap = ip ? `${p("clientIpCap")}::int` : ""
  const dayStart = spend ? `${p("dayStart")}::bigint` : ""
  const spendCap = spend ? `coalesce(${p("spendCap")}::bigint, ${noCap})` : ""
  const gates = [
    `(SELECT settings FROM verify_settings WHERE application_id = ${app}) IS NOT DISTINCT FROM ${
      p("settings")
    }::jsonb AS fresh`,
    `${rollingCount("verify_destinations", `"to"`, to)} < ${destinationCap} AS destination`,
    ip
      ? `${rollingCount("verify_client_ips", "client_ip", clientIp)} < ${clientIpCap} AS client_ip`
      : `true AS client_ip`,
    spend
      ? `coalesce((SELECT spent_halalas FROM verify_spend WHERE application_id = ${app} AND day_start = ${dayStart}), 0)
        + ${price} <= ${spendCap} AS spend`
      : `true AS spend`,
    `coalesce((SELECT paused FROM a), false) AS paused`,
    charge ? `${wallet.covers((name) => p(chargeParameter(name)))} AS wallet` : `true AS wallet`,
  ]
  const ctes = [
    `a AS (SELECT paused, unpaused_at FROM applications WHERE id = ${app})`,
    `pre AS (SELECT ${gates.join(",\n      ")})`,
    `go AS (SELECT 1 FROM pre WHERE fresh AND destination AND client_ip AND spend AND NOT paused AND wallet)`,
    `d AS (${rollingClaim("verify_destinations", `"to"`, to, destinationCap, "go")})`,
  ]
  if (ip) ctes.push(`i AS (${rollingClaim("verify_client_ips", "client_ip", clientIp, clientIpCap, "d")})`)
  let last = ip ? "i" : "d"
  if (charge) {
    ctes.push(wallet.ctes((name) => p(chargeParameter(name)), `EXISTS (SELECT 1 FROM ${last})`))
    last = "charged"
  }
  if (spend) {
    ctes.push(`sp AS (
      INSERT INTO verify_spend AS sp (application_id, day_start, spent_halalas)
      SELECT ${app}, ${dayStart}, ${price} FROM ${last} WHERE ${price} <= ${spendCap}
      ON CONFLICT (application_id, day_start) DO UPDATE SET spent_halalas = sp.spent_halalas + EXCLUDED.spent_halalas
      WHERE sp.spent_halalas + EXCLUDED.spent_halalas <= ${spendCap}
      RETURNING 1
    )`)
    last = "sp"
  }
  const minute = `${p("guardMinute")}::bigint`
  const epoch = `coalesce((SELECT unpaused_at FROM a), 0)`
  ctes.push(`g AS (
      INSERT INTO verify_guard AS g (application_id, epoch, minute, shard, sends, verified)
      SELECT ${app}, ${epoch}, ${minute}, 0, 1, 0 FROM ${last}
      ON CONFLICT (application_id, epoch, minute, shard) DO UPDATE SET sends = g.sends + 1
      RETURNING 1
    )`)
  const v = verificationTypes.map((type, i) => `${p(`v${i}`)}::${type}`)
  ctes.push(
    update
      ? `v AS (UPDATE verifications SET ${
        verificationColumnList.slice(1).map((column, i) => `${column} = ${v[i + 1]}`).join(", ")
      } WHERE id = ${v[0]} AND EXISTS (SELECT 1 FROM g))`
      : `v AS (INSERT INTO verifications (${verificationColumns}) SELECT ${v.join(", ")} FROM g)`,
    `sent AS (
      INSERT INTO verify_sends (verification_id, application_id, "to", client_ip, price_halalas, sent_at)
      SELECT ${v[0]}, ${app}, ${to}, ${p("sendClientIp")}::text, ${price}, ${now} FROM g
      RETURNING 1
    )`,
  )
  const guardSum = (column: string) =>
    `(SELECT coalesce(sum(${column}), 0) FROM verify_guard
        WHERE application_id = ${app} AND epoch = ${epoch} AND minute >= ${p("guardSince")}::bigint) AS guard_${column}`
  const columns = [
    `pre.fresh, pre.destination, pre.client_ip, pre.spend, pre.paused, pre.wallet`,
    `CASE WHEN NOT pre.fresh THEN (SELECT settings FROM verify_settings WHERE application_id = ${app}) END AS settings`,
    `(SELECT unpaused_at FROM a) AS unpaused_at`,
    `EXISTS (SELECT 1 FROM sent) AS written`,
    ...(charge ? [wallet.columns] : []),
    ...(guard ? [guardSum("sends"), guardSum("verified")] : []),
    `CASE WHEN EXISTS (SELECT 1 FROM d) AND NOT EXISTS (SELECT 1 FROM sent) THEN verify_send_undone(json_build_object(
      'client_ip', ${ip ? "EXISTS (SELECT 1 FROM i)" : "true"},
      'charged', ${charge ? "EXISTS (SELECT 1 FROM charged)" : "true"},
      'spend', ${spend ? "EXISTS (SELECT 1 FROM sp)" : "true"},
      'unpaused_at', (SELECT unpaused_at FROM a))::text) END AS undone`,
  ]
  const text = `WITH ${ctes.join(",\n    ")}
  SELECT ${columns.join(",\n    ")}
  FROM pre${charge ? wallet.joins : ""}`
  return { text, names }
}

/** What `verify_send_undone` carries: how far a send that lost a race under a row lock got. */
interface Undone {
  readonly client_ip: boolean
  readonly charged: boolean
  readonly spend: boolean
  readonly unpaused_at: number | null
}

const undoneOf = (error: unknown): Undone | null => {
  const cause = (error as { cause?: { message?: unknown; detail?: unknown } }).cause
  return cause?.message === "verify_send_undone" && typeof cause.detail === "string"
    ? JSON.parse(cause.detail) as Undone
    : null
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

/**
 * The send's statements over the wallet's charge (`WalletChargeSql`): `textFor` the text of each variant, built
 * on first use (32 variants), and `statement` an attempt's text and parameters, in the text's order.
 */
export const sendStatements = (wallet: WalletChargeSql["Type"]) => {
  const texts = new Map<string, ReturnType<typeof sendText>>()
  const textFor = (update: boolean, ip: boolean, spend: boolean, charge: boolean, guard: boolean) => {
    const key = `${update}${ip}${spend}${charge}${guard}`
    let text = texts.get(key)
    if (text === undefined) texts.set(key, text = sendText(wallet, update, ip, spend, charge, guard))
    return text
  }
  const statement = (attempt: SendAttempt): { readonly text: string; readonly params: Array<unknown> } => {
    const { send: s, verification } = attempt
    const { charge, spend } = attempt
    const { names, text } = textFor(
      verification._tag === "Update",
      s.clientIp !== null,
      spend !== null,
      charge !== null,
      attempt.guardSince !== null,
    )
    const values: Record<string, unknown> = {
      application: s.applicationId,
      now: s.sentAt,
      since: attempt.since,
      price: s.priceHalalas,
      to: s.to,
      clientIp: s.clientIp,
      sendClientIp: s.clientIp,
      destinationCap: attempt.caps.destination,
      clientIpCap: attempt.caps.clientIp,
      settings: Option.isSome(attempt.settings) ? toJson(attempt.settings.value) : null,
      guardMinute: attempt.guardMinute,
      guardSince: attempt.guardSince,
    }
    if (spend !== null) {
      values.dayStart = spend.dayStart
      values.spendCap = spend.capHalalas
    }
    if (charge !== null) {
      const charged = wallet.values(charge)
      for (const name in charged) values[chargeParameter(name as ChargeParameter)] = charged[name as ChargeParameter]
    }
    verificationParams(verification.value).forEach((value, i) => (values[`v${i}`] = value))
    return { text, params: names.map((name) => values[name]) }
  }
  return { textFor, statement } as const
}

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
    const wallet = yield* WalletChargeSql
    const statements = sendStatements(wallet)
    const send = (attempt: SendAttempt): Effect.Effect<SendOutcome> => {
      const { charge } = attempt
      const { params, text } = statements.statement(attempt)
      return sql.unsafe(text, params).pipe(
        Effect.map(([row]): SendOutcome => {
          if (row.fresh !== true) {
            return {
              _tag: "Stale",
              settings: row.settings == null ? Option.none() : Option.some(json<VerifySettings>(row.settings)),
            }
          }
          const written = row.written === true
          const passed = row.destination === true && row.client_ip === true && row.spend === true &&
            row.paused !== true && row.wallet === true
          return {
            _tag: "Judged",
            // Every gate passed on the snapshot, yet nothing was written: the destination's row refused under its lock.
            destination: passed ? written : row.destination === true,
            clientIp: row.client_ip === true,
            spendAdmitted: row.spend === true,
            paused: row.paused === true,
            unpausedAt: numOrNull(row.unpaused_at) as Millis | null,
            charged: charge === null ? null : written ? Option.some(wallet.charged(row)) : Option.none(),
            guard: attempt.guardSince === null || !written
              ? null
              : { sends: num(row.guard_sends) + 1, verified: num(row.guard_verified) },
          }
        }),
        Effect.catchIf(
          (error) => undoneOf(error) !== null,
          (error) => {
            const undone = undoneOf(error)!
            return Effect.succeed<SendOutcome>({
              _tag: "Judged",
              destination: true,
              clientIp: undone.client_ip,
              spendAdmitted: !undone.charged || undone.spend,
              paused: false,
              unpausedAt: numOrNull(undone.unpaused_at) as Millis | null,
              charged: charge === null ? null : Option.none(),
              guard: null,
            })
          },
        ),
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
      send,
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
