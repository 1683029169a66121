/**
 * The webhook deliveries repository, one contract for the memory store, PGlite and PostgreSQL: routing
 * marks, leases that lapse and are taken over, stale results discarded, replay, the log, `nextDue`.
 * Claims take whatever is due, so each test starts by finishing what earlier tests left.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Deferred, Effect, Fiber, Layer, Option, Schedule } from "effect"
import * as SqlClient from "@effect/sql/SqlClient"
import { MemoryStore } from "../../adapters/memory/store.ts"
import { nextDueStatement, unroutedStatement } from "../../adapters/sql/webhook-deliveries.ts"
import { PgliteStoreLive, PgStoreLive } from "../../adapters/sql/store.ts"
import type { Store } from "../../adapters/products.ts"
import type { AccountId, ApplicationId, EventId } from "../../core/shared/brands.ts"
import {
  type OutboxEvent,
  OutboxRepo,
  Transactor,
  WebhookDeliveriesRepo,
  type WebhookDelivery,
  WebhookEndpointsRepo,
} from "../../ports/store/mod.ts"
import { freshPgStore, uuid } from "../store/fixtures.ts"

const databaseUrl = process.env.DATABASE_URL

const owner = { kind: "application" as const, id: uuid() }

const delivery = (nextAttemptAt: number | null, over: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id: uuid(),
  webhookId: `msg_${uuid()}`,
  owner,
  eventId: uuid() as EventId,
  event: "verification.verified",
  data: { id: uuid(), nested: [1, "two"] },
  test: false,
  status: "pending",
  scheduledAttempts: 0,
  manual: false,
  nextAttemptAt,
  createdAt: 1_000,
  ...over,
})

const event = (createdAt: number, applicationId = uuid() as ApplicationId): OutboxEvent => ({
  id: uuid() as EventId,
  event: "verification.verified",
  data: { id: uuid() },
  applicationId,
  accountId: uuid() as AccountId,
  externalId: null,
  createdAt,
})

const attempt = (at: number, statusCode: number | null) => ({
  at,
  statusCode,
  latencyMs: 12,
  error: statusCode === null ? "timeout" : null,
})

/** An endpoint for the application, so that its events need routing. */
const endpointOf = (app: ApplicationId) =>
  Effect.flatMap(
    WebhookEndpointsRepo,
    (endpoints) =>
      endpoints.put({ owner: { kind: "application", id: app }, url: "https://example.com/h", secret: "s", events: [] }),
  )

/** What `unrouted` hands out when nothing is past the cursor, or another router holds it. */
const emptyStretch = { events: [], through: null, read: 0 }

/** Nothing is left past the cursor: no stretch to hand out, no routing due. */
const allRouted = Effect.gen(function* () {
  const repo = yield* WebhookDeliveriesRepo
  assert.deepStrictEqual(yield* repo.unrouted(10), emptyStretch)
  assert.isTrue(Option.isNone(yield* repo.nextDue))
})

/** Routes every outbox event and finishes every delivery: a clean slate on a shared store. */
const finishAll = Effect.gen(function* () {
  const repo = yield* WebhookDeliveriesRepo
  const tx = yield* Transactor
  for (;;) {
    const { through } = yield* tx.withTransaction(repo.unrouted(10_000))
    if (through === null) break
    yield* repo.markRouted(through)
  }
  const end = Number.MAX_SAFE_INTEGER
  const left = yield* repo.claimDue(end, end, "cleanup", 10_000)
  yield* Effect.forEach(
    left,
    (c) =>
      repo.record(c.delivery.id, "cleanup", attempt(0, 200), {
        status: "succeeded",
        scheduledAttempts: 1,
        nextAttemptAt: null,
      }),
  )
})

/** Every node of an `EXPLAIN (FORMAT JSON)` plan. */
const planNodes = (node: Record<string, unknown>): Array<Record<string, unknown>> => [
  node,
  ...((node["Plans"] as Array<Record<string, unknown>> | undefined) ?? []).flatMap(planNodes),
]

/** How `outbox_events` is read by a statement's plan: its scan nodes' types. */
const outboxScans = (text: string, params: ReadonlyArray<unknown>) =>
  Effect.gen(function* () {
    const client = yield* SqlClient.SqlClient
    const [row] = yield* client.unsafe<Record<string, unknown>>(`EXPLAIN (FORMAT JSON) ${text}`, params)
    const raw = row["QUERY PLAN"]
    const plan = (typeof raw === "string" ? JSON.parse(raw) : raw) as Array<{ Plan: Record<string, unknown> }>
    return planNodes(plan[0].Plan).filter((n) => n["Relation Name"] === "outbox_events").map((n) =>
      String(n["Node Type"])
    )
  }).pipe(Effect.orDie)

const contract = (name: string, store: Layer.Layer<Store, unknown>, concurrent: boolean) =>
  layer(store, { excludeTestServices: true, timeout: "60 seconds" })(name, (it) => {
    const test = (title: string, body: Effect.Effect<void, never, Store>) =>
      it.effect(title, () => Effect.zipRight(finishAll, body))

    test(
      "outbox events are handed out oldest first, a stretch at a time, until the cursor moves past them; a rolled-back move keeps them",
      Effect.gen(function* () {
        const repo = yield* WebhookDeliveriesRepo
        const tx = yield* Transactor
        const app = uuid() as ApplicationId
        yield* endpointOf(app)
        const [a, b, c] = [event(10, app), event(20, app), event(30, app)]
        yield* (yield* OutboxRepo).append([a, b, c])
        const first = yield* tx.withTransaction(repo.unrouted(2))
        assert.deepStrictEqual(first.events.map((e) => e.id), [a.id, b.id])
        assert.isNotNull(first.through)
        assert.deepStrictEqual(yield* repo.nextDue, Option.some(10))
        yield* Effect.exit(tx.withTransaction(Effect.zipRight(repo.markRouted(first.through!), Effect.fail("boom"))))
        assert.strictEqual((yield* tx.withTransaction(repo.unrouted(10))).events.length, 3)
        yield* tx.withTransaction(repo.markRouted(first.through!))
        const second = yield* tx.withTransaction(repo.unrouted(10))
        assert.deepStrictEqual(second.events, [c])
        yield* repo.markRouted(second.through!)
        // The cursor never moves back.
        yield* repo.markRouted(first.through!)
        yield* allRouted
      }),
    )

    test(
      "an event whose application and account have no endpoint may be left out of a stretch, which still moves past it",
      Effect.gen(function* () {
        const repo = yield* WebhookDeliveriesRepo
        const tx = yield* Transactor
        const app = uuid() as ApplicationId
        yield* endpointOf(app)
        const [nobody, somebody, nobodyLast] = [event(10), event(20, app), event(30)]
        yield* (yield* OutboxRepo).append([nobody, somebody, nobodyLast])
        // On PostgreSQL a stretch stops below the oldest transaction still open in the database, and other test
        // files' schemas share it: read again until theirs have ended (at most 30 s).
        let batch = yield* tx.withTransaction(repo.unrouted(10))
        for (let i = 0; i < 300 && !batch.events.some((e) => e.id === somebody.id); i++) {
          yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 100)))
          batch = yield* tx.withTransaction(repo.unrouted(10))
        }
        assert.include(batch.events.map((e) => e.id), somebody.id)
        assert.isTrue(batch.events.every((e) => [nobody.id, somebody.id, nobodyLast.id].includes(e.id)))
        assert.isNotNull(batch.through)
        yield* repo.markRouted(batch.through!)
        yield* allRouted
      }),
    )

    test(
      "enqueue skips a second delivery of one event to one owner; claims lease due rows with their endpoint",
      Effect.gen(function* () {
        const repo = yield* WebhookDeliveriesRepo
        yield* (yield* WebhookEndpointsRepo).put({ owner, url: "https://example.com/h", secret: "sealed", events: [] })
        const due = delivery(100)
        const later = delivery(500)
        const rehearsal = delivery(100, { eventId: null, test: true })
        yield* repo.enqueue([due, later, rehearsal])
        yield* repo.enqueue([{ ...due, id: uuid(), webhookId: "msg_dup" }])
        assert.deepStrictEqual(yield* repo.nextDue, Option.some(100))
        const claimed = yield* repo.claimDue(100, 200, "t1", 10)
        assert.deepStrictEqual(
          claimed.map((c) => c.delivery).sort((x, y) => (x.id < y.id ? -1 : 1)),
          [due, rehearsal].sort((x, y) => (x.id < y.id ? -1 : 1)),
        )
        assert.deepStrictEqual(claimed[0].endpoint, {
          owner,
          url: "https://example.com/h",
          secret: "sealed",
          events: [],
        })
        assert.strictEqual(claimed[0].leaseToken, "t1")
        // Leased: nobody else gets them until the lease lapses; then `nextDue` is the lease's end.
        assert.deepStrictEqual(yield* repo.claimDue(150, 250, "t2", 10), [])
        assert.deepStrictEqual(yield* repo.nextDue, Option.some(200))
      }),
    )

    test(
      "a lapsed lease is taken over; the first holder's result is logged but not applied",
      Effect.gen(function* () {
        const repo = yield* WebhookDeliveriesRepo
        const d = delivery(100, { owner: { kind: "application", id: uuid() } })
        yield* repo.enqueue([d])
        assert.strictEqual((yield* repo.claimDue(100, 200, "crashed", 10)).length, 1)
        const taken = yield* repo.claimDue(200, 300, "survivor", 10)
        assert.deepStrictEqual(taken.map((c) => [c.delivery.id, c.endpoint]), [[d.id, null]])
        const late = yield* repo.record(d.id, "crashed", attempt(100, 200), {
          status: "succeeded",
          scheduledAttempts: 1,
          nextAttemptAt: null,
        })
        assert.isFalse(late)
        assert.strictEqual(Option.getOrThrow(yield* repo.get(d.id)).status, "pending")
        const applied = yield* repo.record(d.id, "survivor", attempt(200, 500), {
          status: "pending",
          scheduledAttempts: 1,
          nextAttemptAt: 5_200,
        })
        assert.isTrue(applied)
        assert.deepStrictEqual(Option.getOrThrow(yield* repo.get(d.id)), {
          ...d,
          scheduledAttempts: 1,
          nextAttemptAt: 5_200,
        })
        assert.deepStrictEqual(yield* repo.nextDue, Option.some(5_200))
        assert.deepStrictEqual(yield* repo.claimDue(5_199, 9_000, "early", 10), [])
        assert.strictEqual((yield* repo.claimDue(5_200, 9_000, "on-time", 10)).length, 1)
      }),
    )

    test(
      "replay: a pending delivery's attempt moves to now; a finished one gets one manual attempt",
      Effect.gen(function* () {
        const repo = yield* WebhookDeliveriesRepo
        const pending = delivery(9_000, { scheduledAttempts: 2 })
        const failed = delivery(null, { status: "failed", scheduledAttempts: 8 })
        yield* repo.enqueue([pending, failed])
        assert.deepStrictEqual(yield* repo.replay(pending.id, 700), Option.some({ ...pending, nextAttemptAt: 700 }))
        assert.deepStrictEqual(
          yield* repo.replay(failed.id, 700),
          Option.some({ ...failed, status: "pending" as const, nextAttemptAt: 700, manual: true }),
        )
        assert.isTrue(Option.isNone(yield* repo.replay(uuid(), 700)))
        const claimed = yield* repo.claimDue(700, 800, "t", 10)
        assert.strictEqual(claimed.length, 2)
        yield* repo.record(failed.id, "t", attempt(700, 500), {
          status: "failed",
          scheduledAttempts: 8,
          nextAttemptAt: null,
        })
        assert.deepStrictEqual(Option.getOrThrow(yield* repo.get(failed.id)), failed)
      }),
    )

    test(
      "the log lists an owner's deliveries newest first, each with its attempts newest first",
      Effect.gen(function* () {
        const repo = yield* WebhookDeliveriesRepo
        const mine = { kind: "account" as const, id: uuid() }
        const older = delivery(100, { owner: mine, createdAt: 100 })
        const newer = delivery(100, { owner: mine, createdAt: 200 })
        yield* repo.enqueue([older, newer, delivery(100)])
        yield* repo.claimDue(100, 1_000, "t", 10)
        yield* repo.record(older.id, "t", attempt(100, null), {
          status: "pending",
          scheduledAttempts: 1,
          nextAttemptAt: 105,
        })
        yield* repo.claimDue(105, 1_000, "u", 10)
        yield* repo.record(older.id, "u", attempt(105, 200), {
          status: "succeeded",
          scheduledAttempts: 2,
          nextAttemptAt: null,
        })
        const log = yield* repo.list(mine, 10)
        assert.deepStrictEqual(log.map((e) => e.delivery.id), [newer.id, older.id])
        assert.deepStrictEqual(log[1].attempts, [attempt(105, 200), attempt(100, null)])
        assert.deepStrictEqual(log[0].attempts, [])
        assert.strictEqual((yield* repo.list(mine, 1)).length, 1)
      }),
    )

    if (concurrent) {
      test(
        "an event of a transaction still running holds back the events after it until that transaction ends; a second router is handed nothing meanwhile",
        Effect.gen(function* () {
          const repo = yield* WebhookDeliveriesRepo
          const outbox = yield* OutboxRepo
          const tx = yield* Transactor
          const app = uuid() as ApplicationId
          yield* endpointOf(app)
          const [early, late] = [event(10, app), event(20, app)]
          const appended = yield* Deferred.make<void>()
          const release = yield* Deferred.make<void>()
          const open = yield* Effect.fork(tx.withTransaction(
            Effect.zipRight(
              outbox.append([early]),
              Effect.zipRight(Deferred.succeed(appended, undefined), Deferred.await(release)),
            ),
          ))
          yield* Deferred.await(appended)
          yield* outbox.append([late])
          // `late` committed, but `early`'s transaction began first and is still running: nothing is settled.
          assert.deepStrictEqual(yield* tx.withTransaction(repo.unrouted(10)), emptyStretch)
          // That read waited (about a second) in vain; while that transaction runs, the next does not wait again.
          const started = Date.now()
          assert.deepStrictEqual(yield* tx.withTransaction(repo.unrouted(10)), emptyStretch)
          assert.isBelow(Date.now() - started, 900)
          yield* Deferred.succeed(release, undefined)
          yield* Fiber.join(open)
          // Both are routable once no transaction that began before `late` committed runs: on a PostgreSQL server
          // shared with other test files, one of theirs may still, for a moment (the snapshot's xmin is the server's).
          yield* tx.withTransaction(repo.unrouted(10)).pipe(
            Effect.filterOrFail((s) => s.events.length === 2),
            Effect.retry({ schedule: Schedule.spaced("100 millis"), times: 20 }),
            Effect.orDie,
          )
          const [mine, other] = yield* Effect.all([
            tx.withTransaction(Effect.zipLeft(repo.unrouted(10), Effect.sleep("200 millis"))),
            Effect.zipRight(Effect.sleep("50 millis"), tx.withTransaction(repo.unrouted(10))),
          ], { concurrency: "unbounded" })
          assert.deepStrictEqual(mine.events.map((e) => e.id), [early.id, late.id])
          assert.deepStrictEqual(other, emptyStretch)
          yield* repo.markRouted(mine.through!)
        }),
      )

      test(
        "concurrent claims (separate connections) never hand one delivery to two callers",
        Effect.gen(function* () {
          const repo = yield* WebhookDeliveriesRepo
          const all = Array.from({ length: 60 }, () => delivery(100))
          yield* repo.enqueue(all)
          const claims = yield* Effect.all(
            Array.from({ length: 6 }, (_, i) => repo.claimDue(100, 1_000, `t${i}`, 15)),
            { concurrency: "unbounded" },
          )
          const ids = claims.flatMap((c) => c.map((x) => x.delivery.id))
          assert.strictEqual(new Set(ids).size, ids.length)
          assert.strictEqual(ids.length, 60)
        }),
      )
    }
  })

/** The SQL stores only: the plans of the router's statements. */
const plans = (name: string, store: Layer.Layer<Store | SqlClient.SqlClient, unknown>) =>
  layer(store, { excludeTestServices: true, timeout: "60 seconds" })(name, (it) => {
    it.effect(
      "the router's statements read the outbox through its position index, whatever its size and statistics",
      () =>
        Effect.gen(function* () {
          const outbox = yield* OutboxRepo
          for (let i = 0; i < 20; i++) yield* outbox.append(Array.from({ length: 100 }, (_, j) => event(i * 100 + j)))
          yield* finishAll
          for (const [text, params] of [[nextDueStatement, []], [unroutedStatement, [200]]] as const) {
            const scans = yield* outboxScans(text, params)
            assert.isNotEmpty(scans)
            assert.notInclude(scans, "Seq Scan")
          }
        }),
    )
  })

contract("memory store", MemoryStore, false)
contract("pglite (memory://)", PgliteStoreLive("memory://"), false)
plans("pglite (memory://), plans", PgliteStoreLive("memory://"))
describe.runIf(databaseUrl !== undefined)("postgres (DATABASE_URL)", () => {
  contract("postgres store, fresh database", freshPgStore(databaseUrl!, PgStoreLive), true)
  plans("postgres store, fresh database, plans", freshPgStore(databaseUrl!, PgStoreLive))
})
