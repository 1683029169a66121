/**
 * The store contract of the Partner API's reads (DECISIONS 13): the partner feed and the verification log, the
 * same on the memory store, PGlite and PostgreSQL. Events are appended through the outbox, as every product
 * appends them; the feed sees them without being told.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Exit, type Layer } from "effect"
import type { Store } from "../../adapters/products.ts"
import { MemoryStore } from "../../adapters/memory/store.ts"
import { PgliteStoreLive, PgStoreLive } from "../../adapters/sql/store.ts"
import type { AccountId, EventId, Millis, SaudiMobile } from "../../core/shared/brands.ts"
import { AccountsRepo, ApplicationsRepo, VerificationsRepo } from "../../ports/store/mod.ts"
import { type OutboxEvent, OutboxRepo } from "../../ports/store/outbox.ts"
import {
  type FeedPage,
  type FeedPosition,
  PartnerFeedRepo,
  positionBefore,
  VerificationLogRepo,
} from "../../ports/store/partner-feed.ts"
import { Transactor } from "../../ports/store/transactor.ts"
import { account, application, freshPgStore, uuid, verification } from "./fixtures.ts"

const t0 = 1_800_000_000_000

/** A partner account (or not) with one client application. */
const partner = (isPartner = true) =>
  Effect.gen(function* () {
    const a = account({ partner: isPartner })
    yield* (yield* AccountsRepo).insert(a)
    const app = application(a.id, { externalId: "ext-1" })
    yield* (yield* ApplicationsRepo).insert(app)
    return { account: a, app }
  })

const event = (accountId: AccountId, name: string, at: number, over: Partial<OutboxEvent> = {}): OutboxEvent => ({
  id: uuid() as EventId,
  event: name,
  data: { n: at },
  applicationId: null,
  accountId,
  externalId: null,
  createdAt: at as Millis,
  ...over,
})

const page = (
  accountId: AccountId,
  after: FeedPosition | null = null,
  over: { limit?: number; since?: number; types?: ReadonlyArray<string> } = {},
) =>
  Effect.flatMap(PartnerFeedRepo, (feed) =>
    feed.page({
      accountId,
      after,
      since: (over.since ?? 0) as Millis,
      types: over.types ?? null,
      limit: over.limit ?? 100,
    }))

const contract = <E>(name: string, store: Layer.Layer<Store, E>) =>
  layer(store, { excludeTestServices: true, timeout: "60 seconds" })(name, (it) => {
    it.effect("the feed holds the partner account's service.*, balance.low and verification.* (with external_id), in order", () =>
      Effect.gen(function* () {
        const { account: a, app } = yield* partner()
        const other = yield* partner()
        const plain = yield* partner(false)
        const outbox = yield* OutboxRepo
        const mine = [
          event(a.id, "service.approved", t0 + 1, { applicationId: app.id, externalId: "ext-1" }),
          event(a.id, "verification.verified", t0 + 2, { applicationId: app.id, externalId: "ext-1" }),
          event(a.id, "message.sent", t0 + 3, { applicationId: app.id }),
          event(a.id, "balance.low", t0 + 4),
        ]
        yield* outbox.append(mine.slice(0, 2))
        yield* outbox.append([event(other.account.id, "service.approved", t0 + 5)])
        yield* outbox.append([event(plain.account.id, "service.approved", t0 + 5)])
        yield* outbox.append(mine.slice(2))
        const found = yield* page(a.id)
        assert.deepStrictEqual(found.entries.map((e) => [e.eventId, e.event, e.data, e.createdAt]), [
          [mine[0].id, "service.approved", { n: t0 + 1 }, t0 + 1],
          [mine[1].id, "verification.verified", { n: t0 + 2, external_id: "ext-1" }, t0 + 2],
          [mine[3].id, "balance.low", { n: t0 + 4 }, t0 + 4],
        ])
        assert.strictEqual((yield* page(plain.account.id)).entries.length, 0)
        assert.strictEqual((yield* page(other.account.id)).entries.length, 1)
      }))

    it.effect("pages go on after a position without repeating or skipping; `settled` is never before the last entry", () =>
      Effect.gen(function* () {
        const { account: a } = yield* partner()
        const outbox = yield* OutboxRepo
        const events = Array.from({ length: 7 }, (_, i) => event(a.id, "service.paused", t0 + i))
        for (const e of events) yield* outbox.append([e])
        const seen: Array<string> = []
        let after: FeedPosition | null = null
        for (;;) {
          const p: FeedPage = yield* page(a.id, after, { limit: 3 })
          seen.push(...p.entries.map((e) => e.eventId))
          if (p.entries.length < 3) {
            if (p.entries.length > 0) {
              assert.isFalse(positionBefore(p.settled, p.entries[p.entries.length - 1].position))
            }
            // From `settled` there is nothing more, and a new event comes next.
            assert.strictEqual((yield* page(a.id, p.settled)).entries.length, 0)
            const next = event(a.id, "service.resumed", t0 + 100)
            yield* outbox.append([next])
            assert.deepStrictEqual((yield* page(a.id, p.settled)).entries.map((e) => e.eventId), [next.id])
            break
          }
          after = p.entries[2].position
        }
        assert.deepStrictEqual(seen, events.map((e) => e.id))
      }))

    it.effect("`since` and `types` narrow the feed; prune drops what is older", () =>
      Effect.gen(function* () {
        const { account: a } = yield* partner()
        const outbox = yield* OutboxRepo
        // Before every other test's events: pruning drops what is older than a time, for every account.
        const old = event(a.id, "service.approved", t0 - 100)
        const newer = event(a.id, "service.paused", t0 - 90)
        const newest = event(a.id, "balance.low", t0 - 80)
        yield* outbox.append([old, newer, newest])
        const ids = (p: { entries: ReadonlyArray<{ eventId: string }> }) => p.entries.map((e) => e.eventId)
        assert.deepStrictEqual(ids(yield* page(a.id, null, { since: t0 - 90 })), [newer.id, newest.id])
        assert.deepStrictEqual(ids(yield* page(a.id, null, { types: ["balance.low", "service.approved"] })), [
          old.id,
          newest.id,
        ])
        yield* (yield* PartnerFeedRepo).prune((t0 - 90) as Millis)
        assert.deepStrictEqual(ids(yield* page(a.id)), [newer.id, newest.id])
      }))

    it.effect("an event of a transaction that rolled back is never in the feed", () =>
      Effect.gen(function* () {
        const { account: a } = yield* partner()
        const outbox = yield* OutboxRepo
        const tx = yield* Transactor
        const lost = event(a.id, "service.approved", t0)
        const exit = yield* Effect.exit(tx.withTransaction(Effect.zipRight(outbox.append([lost]), Effect.fail("no"))))
        assert.isTrue(Exit.isFailure(exit))
        const kept = event(a.id, "service.paused", t0 + 1)
        yield* outbox.append([kept])
        assert.deepStrictEqual((yield* page(a.id)).entries.map((e) => e.eventId), [kept.id])
      }))

    it.effect("the verification log: one application's, newest first then the greater id, filtered, after a row", () =>
      Effect.gen(function* () {
        const { app } = yield* partner()
        const { app: other } = yield* partner()
        const repo = yield* VerificationsRepo
        const to = "+966512345678" as SaudiMobile
        const rows = [
          verification(app, { createdAt: t0 + 1, status: "verified", reference: "a" }),
          verification(app, { createdAt: t0 + 2, to, reference: "b" }),
          verification(app, { createdAt: t0 + 2, to, reference: "b" }),
          verification(app, { createdAt: t0 + 3, status: "failed" }),
          verification(other, { createdAt: t0 + 2 }),
        ]
        for (const v of rows) yield* repo.insert(v)
        const log = yield* VerificationLogRepo
        const base = {
          applicationId: app.id,
          since: 0 as Millis,
          until: Number.MAX_SAFE_INTEGER as Millis,
          status: null,
          to: null,
          reference: null,
          sandbox: false,
          before: null,
          limit: 100,
        }
        const ids = (vs: ReadonlyArray<{ id: string }>) => vs.map((v) => v.id)
        const tied = [rows[1], rows[2]].sort((x, y) => (x.id < y.id ? 1 : -1))
        assert.deepStrictEqual(ids(yield* log.page(base)), [rows[3].id, tied[0].id, tied[1].id, rows[0].id])
        assert.deepStrictEqual(ids(yield* log.page({ ...base, status: "verified" })), [rows[0].id])
        assert.deepStrictEqual(ids(yield* log.page({ ...base, to })), ids(tied))
        assert.deepStrictEqual(ids(yield* log.page({ ...base, reference: "a" })), [rows[0].id])
        assert.deepStrictEqual(
          ids(yield* log.page({ ...base, since: (t0 + 2) as Millis, until: (t0 + 3) as Millis })),
          ids(tied),
        )
        assert.deepStrictEqual(
          ids(yield* log.page({ ...base, before: { createdAt: tied[0].createdAt, id: tied[0].id }, limit: 2 })),
          [tied[1].id, rows[0].id],
        )
      }))
  })

contract("memory store", MemoryStore)
contract("pglite (memory://)", PgliteStoreLive("memory://"))

const databaseUrl = process.env.DATABASE_URL
describe.runIf(databaseUrl !== undefined)("postgres (DATABASE_URL)", () => {
  contract("postgres store, fresh database", freshPgStore(databaseUrl!, PgStoreLive))
})
