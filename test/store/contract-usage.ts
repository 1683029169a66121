import { assert } from "@effect/vitest"
import { Effect } from "effect"
import type { Application } from "../../core/accounts/model.ts"
import type { AccountId, ApplicationId, Halalas } from "../../core/shared/brands.ts"
import { ApplicationsRepo, VerificationsRepo, VerifySendsRepo } from "../../ports/store/mod.ts"
import { usageNeedle, type UsageQuery, UsageRepo, type UsageRow } from "../../ports/store/usage.ts"
import { application, type It, send, uuid, verification } from "./fixtures.ts"

const since = 1_800_000_000_000
const until = since + 86_400_000

/**
 * One account's traffic around the period `[since, until)`, and another account's, written through Verify's
 * repositories as Verify writes them (a refused send is deleted with its refund).
 */
const traffic = Effect.gen(function* () {
  const apps = yield* ApplicationsRepo
  const verifications = yield* VerificationsRepo
  const sends = yield* VerifySendsRepo
  const accountId = uuid() as AccountId
  const make = (over: Partial<Application>) => {
    const a = application(accountId, over)
    return Effect.as(apps.insert(a), a)
  }
  const alpha = yield* make({ name: "Alpha Shop", externalId: "merchant-1" })
  const beta = yield* make({ name: "Beta", externalId: "MERCH-2" })
  const gamma = yield* make({ name: "Gamma", externalId: null })
  const idle = yield* make({ name: "Idle" })
  const late = yield* make({ name: "Éclair", externalId: "late-verifier" })
  const other = application(uuid() as AccountId, { name: "Alpha Other" })
  yield* apps.insert(other)

  /** A verification of `app` with sends at `sentAt` (price 9 unless said), and its status. */
  const code = (
    app: Application,
    sentAt: ReadonlyArray<number>,
    over: Parameters<typeof verification>[1] = {},
    price = 9,
  ) =>
    Effect.gen(function* () {
      const v = verification(app, over)
      yield* verifications.insert(v)
      yield* Effect.forEach(sentAt, (at) => sends.insert(send(v, at, { priceHalalas: price as Halalas })))
      return v
    })

  // Alpha: 3 charged sends in the period (a start and its resend, another start), 2 verified there.
  yield* code(alpha, [since, since + 10], { status: "verified", verifiedAt: since + 20 })
  yield* code(alpha, [until - 1], { status: "verified", verifiedAt: until - 1 })
  // Outside the period: before it and at its (exclusive) end, and verified before it.
  yield* code(alpha, [since - 1], { status: "verified", verifiedAt: since - 1 })
  yield* code(alpha, [until], { status: "verified", verifiedAt: until })
  // Test-mode sends are free and their verifications not counted.
  yield* code(alpha, [since + 30], { mode: "test", status: "verified", verifiedAt: since + 40 }, 0)
  yield* code(alpha, [since + 31], { mode: "partner_test", status: "verified", verifiedAt: since + 41 }, 0)
  // Refused sends (a start and its resend): deleted in the transaction that refunds them, as Verify does.
  const refused = yield* code(alpha, [since + 50, since + 60])
  yield* sends.delete(refused.id, since + 60)
  yield* sends.delete(refused.id, since + 50)

  // Beta: 3 sends too, but cheaper ones (a price that changed): after Alpha on cost.
  yield* code(beta, [since + 1, since + 2], { mode: "partner", status: "verified", verifiedAt: since + 3 }, 9)
  yield* code(beta, [since + 4], {}, 5)
  // Gamma: the same counts and cost as Alpha: ordered by application id.
  yield* code(gamma, [since + 5, since + 6, since + 7], { status: "expired" })
  // Late: sent before the period, verified in it (partner mode): a row with codes_sent 0.
  yield* code(late, [since - 100], { mode: "partner", status: "verified", verifiedAt: since + 100 })
  // Idle: only test traffic, nothing counted.
  yield* code(idle, [since + 8], { mode: "test", status: "verified", verifiedAt: since + 9 }, 0)
  // Another account's application, busy in the period.
  yield* code(other, [since + 1, since + 2, since + 3, since + 4], { status: "verified", verifiedAt: since + 5 })
  return { accountId, alpha, beta, gamma, idle, late }
})

const row = (app: Application, codesSent: number, codesVerified: number, costHalalas: number): UsageRow => ({
  applicationId: app.id,
  externalId: app.externalId,
  name: app.name,
  codesSent,
  codesVerified,
  costHalalas,
})

export const usageContract = (it: It) => {
  it.effect("usage: counts charged sends not refused, live and partner verifications, cost; busiest first", () =>
    Effect.gen(function* () {
      const repo = yield* UsageRepo
      const t = yield* traffic
      const query: UsageQuery = { accountId: t.accountId, since, until, q: null, limit: 100, after: null }
      const page = yield* repo.page(query)
      const [first, second] = t.alpha.id < t.gamma.id ? [t.alpha, t.gamma] : [t.gamma, t.alpha]
      const expected = [
        row(first, 3, first === t.alpha ? 2 : 0, 27),
        row(second, 3, second === t.alpha ? 2 : 0, 27),
        row(t.beta, 3, 1, 23),
        row(t.late, 0, 1, 0),
      ]
      assert.deepStrictEqual(page.rows, expected)
      assert.deepStrictEqual(page.totals, { applications: 4, codesSent: 9, codesVerified: 4, costHalalas: 77 })
    }))

  it.effect("usage: pages after the last row's application; the totals are every row's on each page", () =>
    Effect.gen(function* () {
      const repo = yield* UsageRepo
      const t = yield* traffic
      const query: UsageQuery = { accountId: t.accountId, since, until, q: null, limit: 100, after: null }
      const all = (yield* repo.page(query)).rows
      const one = yield* repo.page({ ...query, limit: 3 })
      assert.deepStrictEqual(one.rows, all.slice(0, 3))
      const two = yield* repo.page({ ...query, limit: 3, after: one.rows[2].applicationId })
      assert.deepStrictEqual(two.rows, all.slice(3))
      assert.deepStrictEqual(two.totals, one.totals)
      const middle = yield* repo.page({ ...query, limit: 1, after: all[0].applicationId })
      assert.deepStrictEqual(middle.rows, [all[1]])
      // An application with no row in the list (idle, unknown) ends it.
      assert.deepStrictEqual((yield* repo.page({ ...query, after: t.idle.id })).rows, [])
      assert.deepStrictEqual((yield* repo.page({ ...query, after: uuid() as ApplicationId })).rows, [])
    }))

  it.effect("usage: q is part of the name or external_id (ASCII letters in any case) or the application id", () =>
    Effect.gen(function* () {
      const repo = yield* UsageRepo
      const t = yield* traffic
      const names = (q: string) =>
        Effect.map(
          repo.page({ accountId: t.accountId, since, until, q: usageNeedle(q), limit: 100, after: null }),
          (p) => [p.rows.map((r) => r.name).sort(), p.totals.applications],
        )
      assert.deepStrictEqual(yield* names("ALPHA"), [["Alpha Shop"], 1])
      assert.deepStrictEqual(yield* names("merch"), [["Alpha Shop", "Beta"], 2])
      assert.deepStrictEqual(yield* names("ch-2"), [["Beta"], 1])
      assert.deepStrictEqual(yield* names(t.gamma.id.toUpperCase()), [["Gamma"], 1])
      assert.deepStrictEqual(yield* names(t.gamma.id.slice(0, 8)), [[], 0])
      assert.deepStrictEqual(yield* names("ÉCLAIR"), [["Éclair"], 1])
      assert.deepStrictEqual(yield* names("%"), [[], 0])
      assert.deepStrictEqual(yield* names("_"), [[], 0])
      assert.deepStrictEqual(yield* names("idle"), [[], 0])
      const page = yield* repo.page({ accountId: t.accountId, since, until, q: "zzz", limit: 100, after: null })
      assert.deepStrictEqual(page, {
        rows: [],
        totals: { applications: 0, codesSent: 0, codesVerified: 0, costHalalas: 0 },
      })
    }))

  it.effect("usage: an account with no traffic has no rows and zero totals", () =>
    Effect.gen(function* () {
      const repo = yield* UsageRepo
      const page = yield* repo.page({ accountId: uuid() as AccountId, since, until, q: null, limit: 20, after: null })
      assert.deepStrictEqual(page, {
        rows: [],
        totals: { applications: 0, codesSent: 0, codesVerified: 0, costHalalas: 0 },
      })
    }))
}
