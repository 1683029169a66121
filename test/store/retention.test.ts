/**
 * Retention (issue 13, docs/decisions.md "Retention"): jobs on the platform clock delete what no rule needs any
 * longer, in bounded batches. Each rule on the memory store, PGlite and PostgreSQL (DATABASE_URL): rows are put
 * in at the simulated clock's start, the clock is moved with `advanceSimulatedClock` (DECISIONS 16: it runs every
 * job that falls due on the way), and what is left is read back.
 */
import { assert, describe, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Layer, Option } from "effect"
import { advanceSimulatedClock, jobsOf } from "../../adapters/jobs.ts"
import { MemoryStore } from "../../adapters/memory/store.ts"
import { platformRetention } from "../../adapters/modules/platform.ts"
import { webhooksRetention } from "../../adapters/modules/webhooks.ts"
import type { Store } from "../../adapters/products.ts"
import { inBatches, smsSimulatorRetention, verifyRetention } from "../../adapters/retention.ts"
import { simulatedClockLayer } from "../../adapters/clock/simulated.ts"
import { SqlExecutorLive } from "../../adapters/sql/executor.ts"
import { PgStoreLive } from "../../adapters/sql/store.ts"
import { WarmPgliteStore } from "../support/warm-pglite.ts"
import { VerifyRetentionRepoSql } from "../../adapters/sql/verify-retention.ts"
import { Idempotency, RateLimit, Retention } from "../../core/limits.ts"
import type { EventId, Millis, SaudiMobile, VerificationId } from "../../core/shared/brands.ts"
import type { IdempotencyKey } from "../../core/shared/idempotency-key.ts"
import {
  AccountsRepo,
  ApplicationsRepo,
  CredentialsRepo,
  IdempotencyRepo,
  RateLimitRepo,
} from "../../ports/store/mod.ts"
import { type OutboxEvent, OutboxRepo } from "../../ports/store/outbox.ts"
import { SimulatedSmsRepo } from "../../ports/store/simulator.ts"
import { Transactor } from "../../ports/store/transactor.ts"
import { VerificationsRepo, VerifySendsRepo } from "../../ports/store/verify.ts"
import { VerifyRetentionRepo } from "../../ports/store/verify-retention.ts"
import { WebhookDeliveriesRepo, type WebhookDelivery } from "../../ports/store/webhook-deliveries.ts"
import { account, application, freshPgStore, send, uuid, verification } from "./fixtures.ts"

const hour = 3_600_000
const day = 24 * hour
/** 00:00 Riyadh (21:00 UTC the day before) of a civil date. */
const riyadh = (year: number, month: number, date: number) => Date.UTC(year, month - 1, date) - 3 * hour
/** The clock starts on 10 January 2026, 10:00 Riyadh. */
const t0 = riyadh(2026, 1, 10) + 10 * hour

const stores: ReadonlyArray<readonly [string, () => Layer.Layer<Store | SqlClient.SqlClient> | Layer.Layer<Store>]> = [
  ["memory store", () => MemoryStore],
  ["pglite (memory://)", () => WarmPgliteStore()],
  ...(process.env.DATABASE_URL === undefined
    ? []
    : [["postgres (DATABASE_URL)", () => freshPgStore(process.env.DATABASE_URL!, PgStoreLive)] as const]),
]

/** The retention jobs under test, as the products declare them, on a simulated clock starting at `start`. */
const platform = (store: Layer.Layer<any>, start: number) => {
  const jobs = jobsOf([
    platformRetention,
    verifyRetention,
    Effect.map(webhooksRetention, (j) => [j]),
    smsSimulatorRetention,
  ])
  return Layer.provideMerge(jobs, Layer.merge(store, simulatedClockLayer(start)))
}

/** `body` once per store, each on a fresh store whose simulated clock starts at `start`. */
const onEveryStore = (
  name: string,
  body: (sql: boolean) => Effect.Effect<void, never, any>,
  start = t0,
  timeout = 60_000,
) => {
  for (const [storeName, store] of stores) {
    it.effect(
      `${storeName}: ${name}`,
      () => Effect.provide(body(storeName !== "memory store"), platform(store(), start)),
      {
        timeout,
      },
    )
  }
}

const advanceTo = (at: number) =>
  Effect.flatMap(Effect.clockWith((c) => c.currentTimeMillis), (now) => advanceSimulatedClock(at - now))

const anApplication = Effect.gen(function* () {
  const a = account()
  yield* (yield* AccountsRepo).insert(a)
  const app = application(a.id)
  yield* (yield* ApplicationsRepo).insert(app)
  return app
})

const oldest = Effect.flatMap(VerifyRetentionRepo, (r) => r.oldest)
/**
 * A job's lease lets it run once an hour (`Retention.intervalMs`), and every advance ends by running each job whose
 * lease allows: a row past its period goes at the latest one lease later.
 */
const lease = Retention.intervalMs

describe("Retention: rate-limit windows go two windows after they began; idempotency records a day after they expire", () => {
  onEveryStore(
    "a window is kept two windows and then dropped; a record is kept until a day past its expiry",
    () =>
      Effect.gen(function* () {
        const credentials = yield* CredentialsRepo
        yield* credentials.present("cred-a", t0)
        const idem = yield* IdempotencyRepo
        const request = {
          scope: "cred-a",
          key: "k-1" as IdempotencyKey,
          fingerprint: "f",
          now: t0,
          expiresAt: t0 + Idempotency.ttlMs,
        }
        yield* idem.claim(request)
        const windows = yield* RateLimitRepo
        yield* advanceSimulatedClock(2 * RateLimit.windowMs)
        assert.deepStrictEqual(yield* windows.oldestWindow, Option.some(t0))
        yield* advanceSimulatedClock(1)
        assert.deepStrictEqual(yield* windows.oldestWindow, Option.none())
        yield* advanceTo(t0 + 2 * Idempotency.ttlMs - 1)
        assert.deepStrictEqual(yield* idem.earliestExpiry, Option.some(t0 + Idempotency.ttlMs))
        yield* advanceSimulatedClock(lease)
        assert.deepStrictEqual(yield* idem.earliestExpiry, Option.none())
      }),
  )

  onEveryStore(
    "a batch loop deletes more than one batch of windows",
    () =>
      Effect.gen(function* () {
        const credentials = yield* CredentialsRepo
        const n = 2 * Retention.batchRows + 5
        yield* Effect.forEach(Array.from({ length: n }, (_, i) => i), (i) => credentials.present(`cred-${i}`, t0), {
          concurrency: 8,
          discard: true,
        })
        const windows = yield* RateLimitRepo
        let batches = 0
        const deleted = yield* inBatches((limit) =>
          Effect.tap(windows.prune(t0 + 1, limit), () => Effect.sync(() => batches++))
        )
        assert.strictEqual(deleted, n)
        assert.strictEqual(batches, 3)
        assert.deepStrictEqual(yield* windows.oldestWindow, Option.none())
      }),
    t0,
    120_000,
  )
})

describe("Retention: Verify's sends are kept while a usage read may ask for their Riyadh month (this month and the two before)", () => {
  onEveryStore(
    "a send of 10 January is kept through 31 March and dropped at 00:00 Riyadh on 1 April",
    () =>
      Effect.gen(function* () {
        const app = yield* anApplication
        const v = verification(app, { createdAt: t0, status: "verified", verifiedAt: t0 })
        yield* (yield* VerificationsRepo).insert(v)
        const sends = yield* VerifySendsRepo
        yield* sends.insert(send(v, t0))
        yield* advanceTo(riyadh(2026, 2, 1) + hour)
        yield* sends.insert(send(v, riyadh(2026, 2, 1) + hour))
        yield* advanceTo(riyadh(2026, 4, 1) - 1)
        assert.deepStrictEqual((yield* oldest).send, Option.some(t0))
        yield* advanceTo(riyadh(2026, 4, 1) + lease)
        assert.deepStrictEqual((yield* oldest).send, Option.some(riyadh(2026, 2, 1) + hour))
      }),
  )
})

describe("Retention: terminal live and partner verifications go after 90 days (the partner log) once usage no longer reads their verified_at; pending and sandbox ones stay", () => {
  onEveryStore(
    "at 90 days a verified, a failed and a partner one go; a pending and a test one stay",
    () =>
      Effect.gen(function* () {
        const app = yield* anApplication
        const repo = yield* VerificationsRepo
        const at = { createdAt: t0, updatedAt: t0 }
        const verified = verification(app, { ...at, status: "verified", verifiedAt: t0 + 60_000 })
        const failed = verification(app, { ...at, status: "failed" })
        const partner = verification(app, { ...at, status: "expired", mode: "partner" })
        const pending = verification(app, { ...at, status: "pending" })
        const sandbox = verification(app, { ...at, status: "verified", mode: "test", verifiedAt: t0 })
        const all = [verified, failed, partner, pending, sandbox]
        for (const v of all) yield* repo.insert(v)
        const kept = Effect.map(
          Effect.forEach(all, (v) => repo.get(v.id as VerificationId)),
          (found) => found.map(Option.isSome),
        )
        yield* advanceTo(t0 + 90 * day)
        assert.deepStrictEqual(yield* kept, [true, true, true, true, true])
        yield* advanceSimulatedClock(lease)
        assert.deepStrictEqual(yield* kept, [false, false, false, true, true])
      }),
  )

  const october = riyadh(2026, 10, 1)
  onEveryStore(
    "one verified on 1 October is kept past 90 days (usage still reads October on 30 December) until 1 January",
    () =>
      Effect.gen(function* () {
        const app = yield* anApplication
        const repo = yield* VerificationsRepo
        const v = verification(app, {
          createdAt: october + 60_000,
          updatedAt: october + 60_000,
          status: "verified",
          verifiedAt: october + 120_000,
        })
        yield* repo.insert(v)
        yield* advanceTo(october + 60_000 + 90 * day + hour)
        assert.isTrue(Option.isSome(yield* repo.get(v.id)))
        yield* advanceTo(riyadh(2027, 1, 1) - 1)
        assert.isTrue(Option.isSome(yield* repo.get(v.id)))
        yield* advanceTo(riyadh(2027, 1, 1) + lease)
        assert.isTrue(Option.isNone(yield* repo.get(v.id)))
      }),
    october,
  )
})

const event = (accountId: string, at: number): OutboxEvent => ({
  id: uuid() as EventId,
  event: "verification.verified",
  data: { at },
  applicationId: null,
  accountId: accountId as never,
  externalId: null,
  createdAt: at,
})

const delivery = (e: OutboxEvent): WebhookDelivery => ({
  id: uuid(),
  webhookId: `msg_${uuid().replaceAll("-", "")}`,
  owner: { kind: "account", id: e.accountId },
  eventId: e.id,
  event: e.event,
  data: e.data,
  test: false,
  status: "pending",
  scheduledAttempts: 0,
  manual: false,
  nextAttemptAt: e.createdAt,
  createdAt: e.createdAt,
})

describe("Retention: finished webhook deliveries go 30 days after they were made (the delivery log); outbox events 30 days after they were appended once routed with no delivery pending", () => {
  onEveryStore(
    "a finished delivery and its event go at 30 days; a pending delivery, its event and an unrouted event stay",
    () =>
      Effect.gen(function* () {
        const a = account()
        yield* (yield* AccountsRepo).insert(a)
        const outbox = yield* OutboxRepo
        const repo = yield* WebhookDeliveriesRepo
        const [done, waiting, unrouted] = [event(a.id, t0), event(a.id, t0), event(a.id, t0)]
        yield* outbox.append([done, waiting])
        const routed = yield* (yield* Transactor).withTransaction(repo.unrouted(10))
        const [dDone, dWaiting] = [delivery(done), delivery(waiting)]
        yield* repo.enqueue([dDone, dWaiting])
        yield* repo.markRouted(routed.through!)
        yield* outbox.append([unrouted])
        // The first delivery succeeds; the other waits for a retry far ahead.
        const claimed = yield* repo.claimDue(t0, t0 + 20_000, "lease", 10)
        assert.strictEqual(claimed.length, 2)
        const attempt = { at: t0, statusCode: 200, latencyMs: 1, error: null }
        yield* repo.record(dDone.id, "lease", attempt, {
          status: "succeeded",
          scheduledAttempts: 1,
          nextAttemptAt: null,
        })
        yield* repo.record(dWaiting.id, "lease", { ...attempt, statusCode: 500 }, {
          status: "pending",
          scheduledAttempts: 1,
          nextAttemptAt: t0 + 60 * day,
        })
        const events = Effect.map(outbox.listRecent(10), (es) => es.map((e) => e.id).sort())
        yield* advanceTo(t0 + Retention.webhookLogMs)
        assert.deepStrictEqual(yield* events, [done.id, waiting.id, unrouted.id].sort())
        assert.isTrue(Option.isSome(yield* repo.get(dDone.id)))
        yield* advanceSimulatedClock(lease)
        assert.isTrue(Option.isNone(yield* repo.get(dDone.id)))
        assert.isTrue(Option.isSome(yield* repo.get(dWaiting.id)))
        assert.deepStrictEqual(yield* events, [waiting.id, unrouted.id].sort())
        assert.deepStrictEqual((yield* repo.list({ kind: "account", id: a.id }, 10)).map((l) => l.delivery.id), [
          dWaiting.id,
        ])
        // Once the waiting delivery is given up, it and its event go at the next run.
        const now = t0 + Retention.webhookLogMs + lease
        yield* repo.replay(dWaiting.id, now)
        const retried = yield* repo.claimDue(now, now + 20_000, "lease-3", 10)
        assert.strictEqual(retried.length, 1)
        yield* repo.record(dWaiting.id, "lease-3", { ...attempt, statusCode: 500 }, {
          status: "failed",
          scheduledAttempts: 8,
          nextAttemptAt: null,
        })
        yield* advanceSimulatedClock(lease)
        assert.isTrue(Option.isNone(yield* repo.get(dWaiting.id)))
        assert.deepStrictEqual(yield* events, [unrouted.id])
      }),
  )
})

describe("Retention: the SMS simulator's log keeps 7 days", () => {
  onEveryStore(
    "a text of day 0 is read until 7 days and gone after; a batch loop deletes more than one batch",
    () =>
      Effect.gen(function* () {
        const log = yield* SimulatedSmsRepo
        const to = "+966500000009" as SaudiMobile
        const n = 2 * Retention.batchRows + 5
        for (let i = 0; i < n; i++) yield* log.append({ id: uuid(), to, text: `code ${i}`, sentAt: t0 })
        yield* advanceSimulatedClock(hour)
        yield* log.append({ id: uuid(), to, text: "later", sentAt: t0 + hour })
        yield* advanceTo(t0 + Retention.simulatorLogMs)
        assert.strictEqual((yield* log.listTo(to, 10_000)).length, n + 1)
        yield* advanceSimulatedClock(lease)
        assert.deepStrictEqual((yield* log.listTo(to, 10_000)).map((s) => s.text), ["later"])
        yield* advanceSimulatedClock(lease)
        assert.deepStrictEqual(yield* log.listTo(to, 10_000), [])
      }),
    t0,
    120_000,
  )
})

/** The send counters of migration verify/0002, made here as that migration makes them when it has not run. */
const counterTables = [
  `CREATE TABLE IF NOT EXISTS verify_destinations (application_id uuid NOT NULL, "to" text NOT NULL,
    sent_at bigint[] NOT NULL, latest bigint NOT NULL, PRIMARY KEY (application_id, "to"))`,
  `CREATE TABLE IF NOT EXISTS verify_client_ips (application_id uuid NOT NULL, client_ip text NOT NULL,
    sent_at bigint[] NOT NULL, latest bigint NOT NULL, PRIMARY KEY (application_id, client_ip))`,
  `CREATE TABLE IF NOT EXISTS verify_spend (application_id uuid NOT NULL, day_start bigint NOT NULL,
    spent_halalas bigint NOT NULL, PRIMARY KEY (application_id, day_start))`,
  `CREATE TABLE IF NOT EXISTS verify_guard (application_id uuid NOT NULL, epoch bigint NOT NULL DEFAULT 0,
    minute bigint NOT NULL, sends integer NOT NULL, verified integer NOT NULL,
    PRIMARY KEY (application_id, epoch, minute))`,
]

describe("Retention: Verify's send counters go once their hour (destinations, client IPs, the guard's minutes) or their Riyadh day (spend) is over", () => {
  onEveryStore(
    "counters of the last hour and of today stay; older ones go (SQL stores; memory counts its sends)",
    (sql) =>
      !sql ? Effect.void : Effect.gen(function* () {
        const client = yield* SqlClient.SqlClient
        for (const statement of counterTables) yield* client.unsafe(statement)
        const app = uuid()
        const today = riyadh(2026, 1, 10)
        yield* client.unsafe(
          `INSERT INTO verify_destinations VALUES ($1, '+966500000001', ARRAY[$2::bigint], $2),
          ($1, '+966500000002', ARRAY[$3::bigint], $3)`,
          [app, t0 - hour - 1, t0 - hour + 1],
        )
        yield* client.unsafe(
          `INSERT INTO verify_client_ips VALUES ($1, '10.0.0.1', ARRAY[$2::bigint], $2),
          ($1, '10.0.0.2', ARRAY[$3::bigint], $3)`,
          [app, t0 - hour - 1, t0 - hour + 1],
        )
        yield* client.unsafe(`INSERT INTO verify_spend VALUES ($1, $2, 9), ($1, $3, 18)`, [app, today - day, today])
        yield* client.unsafe(
          `INSERT INTO verify_guard (application_id, epoch, minute, sends, verified) VALUES ($1, 0, $2, 1, 0), ($1, 0, $3, 1, 0)`,
          [app, t0 - hour - 60_000, t0 - hour],
        )
        // The repository looks for the tables when it is built: build one now they are there.
        const repo = yield* Effect.provide(
          VerifyRetentionRepo,
          VerifyRetentionRepoSql.pipe(Layer.provide(SqlExecutorLive)),
        )
        const prune = (before: (now: number) => number, f: (before: Millis, limit: number) => Effect.Effect<number>) =>
          inBatches((limit) => f(before(t0), limit))
        assert.strictEqual(yield* prune((now) => now - hour, repo.pruneDestinationCounters), 1)
        assert.strictEqual(yield* prune((now) => now - hour, repo.pruneClientIpCounters), 1)
        assert.strictEqual(yield* prune(() => today, repo.pruneSpendDays), 1)
        assert.strictEqual(yield* prune((now) => now - hour, repo.pruneGuardMinutes), 1)
        const left = yield* client.unsafe<{ n: number }>(`SELECT
        (SELECT count(*) FROM verify_destinations) + (SELECT count(*) FROM verify_client_ips)
        + (SELECT count(*) FROM verify_spend) + (SELECT count(*) FROM verify_guard) AS n`)
        assert.strictEqual(Number(left[0].n), 4)
        const o = yield* repo.oldest
        assert.deepStrictEqual(o.capCounter, Option.some(t0 - hour + 1))
        assert.deepStrictEqual(o.spendDay, Option.some(today))
        assert.deepStrictEqual(o.guardMinute, Option.some(t0 - hour))
      }).pipe(Effect.orDie),
  )
})
