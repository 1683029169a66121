import { assert } from "@effect/vitest"
import { Effect } from "effect"
import * as fc from "effect/FastCheck"
import type { Application } from "../../../core/accounts/model.ts"
import type { AccountId, ApplicationId, Halalas, Millis } from "../../../core/shared/brands.ts"
import type { Verification } from "../../../core/verify/model.ts"
import { ApplicationsRepo, VerificationsRepo, VerifySendsRepo } from "../../../ports/store/mod.ts"
import { usageNeedle, type UsageQuery, UsageRepo, type UsageRow } from "../../../ports/store/usage.ts"
import { application, type It, send, uuid, verification } from "../fixtures.ts"

const since = 1_800_000_000_000
const until = since + 86_400_000

/**
 * One account's traffic around the period `[since, until)`, and another account's, written through Verify's
 * repositories as Verify writes them (a refused send is deleted with its refund).
 */
/** Takes a send back as Verify does when the network refuses it. */
const unsend = (v: Verification, at: number) => Effect.flatMap(VerifySendsRepo, (sends) => sends.release(send(v, at)))

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
  yield* unsend(refused, since + 60)
  yield* unsend(refused, since + 50)

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

/** Generated traffic: applications with names and external ids from a small alphabet, sends and verifications. */
const generated = fc.record({
  apps: fc.array(
    fc.record({
      name: fc.stringMatching(/^[A-Za-z -]{1,8}$/),
      externalId: fc.option(fc.stringMatching(/^[a-zA-Z0-9-]{1,6}$/), { nil: null }),
    }),
    { minLength: 4, maxLength: 10 },
  ),
  codes: fc.array(
    fc.record({
      app: fc.nat(),
      mode: fc.constantFrom("live" as const, "partner" as const, "test" as const, "partner_test" as const),
      sends: fc.array(
        fc.record({
          at: fc.integer({ min: -3, max: 12 }),
          refused: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
        }),
        {
          minLength: 1,
          maxLength: 3,
        },
      ),
      verifiedAt: fc.option(fc.integer({ min: -3, max: 12 }), { nil: null }),
      price: fc.constantFrom(9, 9, 9, 5),
    }),
    { minLength: 20, maxLength: 60 },
  ),
})

/** What DECISIONS 12 and 16 say the rows are, computed plainly from the generated traffic (period: hours 0 to 9). */
type Traffic = typeof generated extends fc.Arbitrary<infer T> ? T : never

const expectedRows = (apps: ReadonlyArray<Application>, traffic: Traffic) => {
  const inPeriod = (at: number) => at >= 0 && at < 10
  const rows = apps.map((a) => ({ ...row(a, 0, 0, 0) }))
  for (const c of traffic.codes) {
    const r = rows[c.app % rows.length] as { -readonly [K in keyof UsageRow]: UsageRow[K] }
    const charged = c.mode === "live" || c.mode === "partner"
    for (const s of c.sends) {
      if (charged && !s.refused && inPeriod(s.at)) (r.codesSent++, r.costHalalas += c.price)
    }
    if (charged && c.verifiedAt !== null && inPeriod(c.verifiedAt)) r.codesVerified++
  }
  return rows.filter((r) => r.codesSent > 0 || r.codesVerified > 0).sort((a, b) =>
    b.codesSent - a.codesSent || b.costHalalas - a.costHalalas ||
    (a.applicationId < b.applicationId ? -1 : a.applicationId > b.applicationId ? 1 : 0)
  )
}

export const contract = (it: It) => {
  it.effect("usage: generated traffic reads as DECISIONS 12 and 16 compute it, page by page and for any q", () =>
    Effect.gen(function* () {
      const repo = yield* UsageRepo
      const applications = yield* ApplicationsRepo
      const verifications = yield* VerificationsRepo
      const sends = yield* VerifySendsRepo
      const hour = 3_600_000
      const samples = fc.sample(generated, { numRuns: 8, seed: 1405 })
      for (const traffic of samples) {
        const accountId = uuid() as AccountId
        const apps = traffic.apps.map((a) => application(accountId, a))
        yield* Effect.forEach(apps, applications.insert)
        for (const c of traffic.codes) {
          const app = apps[c.app % apps.length]
          const v = verification(app, {
            mode: c.mode,
            ...(c.verifiedAt === null ? {} : { status: "verified", verifiedAt: since + c.verifiedAt * hour }),
          })
          yield* verifications.insert(v)
          const charged = c.mode === "live" || c.mode === "partner"
          for (const [i, s] of c.sends.entries()) {
            const at = since + s.at * hour + i
            yield* sends.insert(send(v, at, { priceHalalas: (charged ? c.price : 0) as Halalas }))
            if (s.refused) yield* unsend(v, at)
          }
        }
        const expected = expectedRows(apps, traffic)
        const totals = {
          applications: expected.length,
          codesSent: expected.reduce((n, r) => n + r.codesSent, 0),
          codesVerified: expected.reduce((n, r) => n + r.codesVerified, 0),
          costHalalas: expected.reduce((n, r) => n + r.costHalalas, 0),
        }
        const query: UsageQuery = { accountId, since, until: since + 10 * hour, q: null, limit: 3, after: null }
        const pages: Array<UsageRow> = []
        for (let after: ApplicationId | null = null;;) {
          const page: { rows: ReadonlyArray<UsageRow>; totals: unknown } = yield* repo.page({ ...query, after })
          assert.deepStrictEqual(page.totals, totals)
          pages.push(...page.rows)
          if (page.rows.length < 3) break
          after = page.rows[2].applicationId
        }
        assert.deepStrictEqual(pages, expected)
        for (const q of ["a", "E", "-", " ", "zz", apps[0].id]) {
          const needle = usageNeedle(q)
          const matching = expected.filter((r) =>
            usageNeedle(r.name).includes(needle) || usageNeedle(r.externalId ?? "").includes(needle) ||
            r.applicationId === needle
          )
          assert.deepStrictEqual((yield* repo.page({ ...query, q: needle, limit: 100 })).rows, matching)
        }
      }
    }))

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
