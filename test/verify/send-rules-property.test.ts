/**
 * Verify's send rules (core/verify/send-rules.ts) answer the same on every store: random sequences of starts and
 * resends, between top-ups, pauses and unpauses, changes of the caps and the spend cap, checks, cancels and the
 * clock moving on, for live and test keys with random balances, proven numbers, used sandbox starts, client IPs
 * and destinations (one the network refuses), run through the memory store and through the SQL store's send
 * statement (PGlite; PostgreSQL when DATABASE_URL is set). Each attempt must answer the same on both: the same
 * verification or the same error with the same fields, and the same balance, charges and refunds after it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer, Option, Runtime, TestClock } from "effect"
import fc from "fast-check"
import { randomUUID } from "node:crypto"
import { unpauseApplication } from "../../core/accounts/unpause.ts"
import { Console } from "../../core/console/service.ts"
import type { AccountId, ApplicationId, Millis, SaudiMobile, VerificationId } from "../../core/shared/brands.ts"
import { VerifyConsole } from "../../core/verify/console.ts"
import { WalletConsole } from "../../core/wallet/console.ts"
import type { Verification } from "../../core/verify/model.ts"
import { ApplicationsRepo } from "../../ports/store/accounts.ts"
import { VerificationsRepo } from "../../ports/store/verify.ts"
import {
  balanceOf,
  cancel,
  check,
  latestCode,
  ledgerOf,
  mobile,
  principalOf,
  RefusedNumber,
  resend,
  setNetwork,
  setup,
  start,
  textsTo,
  VerifyTestLayer,
} from "./harness.ts"

const numbers = [mobile(1), mobile(2), mobile(3), RefusedNumber]
const ips = ["10.0.0.1", "10.0.0.2"]

type Op =
  | { readonly _tag: "start"; readonly to: number; readonly ip: number | null }
  | { readonly _tag: "resend"; readonly which: number }
  | { readonly _tag: "check"; readonly which: number; readonly right: boolean }
  | { readonly _tag: "cancel"; readonly which: number }
  | { readonly _tag: "advance"; readonly minutes: number }
  | { readonly _tag: "topup"; readonly amount: number }
  | { readonly _tag: "pause" }
  | { readonly _tag: "unpause" }
  | { readonly _tag: "settings"; readonly settings: Record<string, unknown> }
  | { readonly _tag: "network"; readonly refusing: boolean }

const capsArb = fc.record({
  hourly_cap_per_destination: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 4, max: 8 })),
  max_per_ip_per_hour: fc.integer({ min: 1, max: 4 }),
  daily_spend_cap_halalas: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null, freq: 3 }),
})

const settingsArb = fc.record({
  caps: capsArb,
  code_lifetime_minutes: fc.integer({ min: 5, max: 15 }),
  guard: fc.record({
    enabled: fc.boolean(),
    min_sends: fc.integer({ min: 1, max: 6 }),
    min_verified_percent: fc.integer({ min: 0, max: 100 }),
  }),
}).map(({ caps, ...rest }) => ({ ...caps, ...rest }))

const which = fc.nat({ max: 3 })
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      _tag: fc.constant("start" as const),
      to: fc.nat({ max: numbers.length - 1 }),
      ip: fc.option(fc.nat({ max: ips.length - 1 }), { nil: null }),
    }),
  },
  { weight: 5, arbitrary: fc.record({ _tag: fc.constant("resend" as const), which }) },
  { weight: 3, arbitrary: fc.record({ _tag: fc.constant("check" as const), which, right: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ _tag: fc.constant("cancel" as const), which }) },
  {
    weight: 2,
    arbitrary: fc.record({
      _tag: fc.constant("advance" as const),
      minutes: fc.oneof(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 10, max: 90 })),
    }),
  },
  { weight: 1, arbitrary: fc.record({ _tag: fc.constant("topup" as const), amount: fc.integer({ min: 1, max: 30 }) }) },
  { weight: 1, arbitrary: fc.constant<Op>({ _tag: "pause" }) },
  { weight: 1, arbitrary: fc.constant<Op>({ _tag: "unpause" }) },
  { weight: 1, arbitrary: capsArb.map((settings): Op => ({ _tag: "settings", settings })) },
  // The network refuses every text from one of these on to the next that lets them through (twice as likely).
  { weight: 1, arbitrary: fc.record({ _tag: fc.constant("network" as const), refusing: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant<Op>({ _tag: "network", refusing: false }) },
)

const scenarioArb = fc.record({
  mode: fc.constantFrom("live" as const, "test" as const),
  balance: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 30, max: 150 })),
  settings: settingsArb,
  proven: fc.subarray(numbers, { minLength: 2 }),
  sandboxStarts: fc.oneof(fc.constant(0), fc.integer({ min: 4, max: 10 })),
  ops: fc.array(opArb, { minLength: 6, maxLength: 24 }),
})

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer A> ? A : never

type Services = Layer.Layer.Success<ReturnType<typeof VerifyTestLayer>>

/** One store's run of a scenario: its application and key, and the verifications its starts made, in order. */
interface Run {
  readonly accountId: AccountId
  readonly applicationId: ApplicationId
  readonly key: string
  readonly started: Array<{ readonly id: string; readonly to: string }>
  /** The verification each destination's latest text went out for (its code is that text's). */
  readonly latest: Map<string, number>
}

const setupOn = (s: Scenario) =>
  Effect.gen(function* () {
    yield* setNetwork(false)
    const made = yield* setup({ balance: s.balance, mode: s.mode, settings: s.settings, proven: s.proven })
    // The sandbox starts the application already used (the lifetime quota counts them, whatever they became).
    const now = yield* Effect.clockWith((c) => c.currentTimeMillis)
    for (let i = 0; i < (s.mode === "test" ? s.sandboxStarts : 0); i++) {
      const v: Verification = {
        id: randomUUID() as VerificationId,
        applicationId: made.applicationId,
        accountId: made.accountId,
        to: mobile(9) as SaudiMobile,
        channel: "sms",
        reference: null,
        clientIp: null,
        mode: "test",
        status: "canceled",
        attempts: 0,
        maxAttempts: 3,
        resends: 0,
        codeHash: "seeded",
        expiresAt: (now + 60_000) as Millis,
        verifiedAt: null,
        createdAt: now as Millis,
        updatedAt: now as Millis,
      }
      yield* (yield* VerificationsRepo).insert(v)
    }
    return made
  })

/** An answer as the edge would render it: the verification (but its ids), or the error's tag and fields. */
const answer = <E extends { readonly _tag: string }>(
  self: Effect.Effect<Record<string, unknown>, E, any>,
) =>
  Effect.map(Effect.either(self), (result) => {
    if (Either.isRight(result)) {
      const { application_id: _application, id: _id, ...rest } = result.right
      return { ok: rest }
    }
    return { error: { ...result.left, _tag: result.left._tag } }
  })

/** One operation on one store: what it answered (null for an operation that is not a send, check or cancel). */
const step = (run: Run, op: Op) =>
  Effect.gen(function* () {
    const p = yield* principalOf(run.key)
    /** One of the verifications this run started, by index. */
    const pick = (w: number) => {
      if (run.started.length === 0) return null
      const at = w % run.started.length
      return { ...run.started[at], at }
    }
    switch (op._tag) {
      case "start": {
        const to = numbers[op.to]
        const sent = start(p, to, op.ip === null ? {} : { client_ip: ips[op.ip] })
        return yield* answer(Effect.tap(sent, (v) => {
          run.started.push({ id: v.id, to })
          run.latest.set(to, run.started.length - 1)
        }))
      }
      case "resend": {
        const v = pick(op.which)
        if (v === null) return null
        return yield* answer(Effect.tap(resend(p, v.id), () => run.latest.set(v.to, v.at)))
      }
      case "check": {
        const v = pick(op.which)
        if (v === null) return null
        const code = op.right && run.latest.get(v.to) === v.at ? yield* latestCode(v.to) : "0"
        return yield* answer(check(p, v.id, code))
      }
      case "cancel": {
        const v = pick(op.which)
        if (v === null) return null
        return yield* answer(cancel(p, v.id))
      }
      case "topup":
        yield* Effect.flatMap(WalletConsole, (c) => c.creditWallet(run.accountId, { amount_halalas: op.amount }))
        return null
      case "pause":
        yield* Effect.flatMap(Console, (c) => c.pause(run.applicationId))
        return null
      case "unpause":
        yield* unpauseApplication(run.applicationId)
        return null
      case "settings":
        yield* Effect.flatMap(VerifyConsole, (c) => c.putVerifySettings(run.applicationId, op.settings))
        return null
      case "network":
        yield* setNetwork(op.refusing)
        return null
      case "advance":
        return null
    }
  })

/** What the store holds after a step: the balance, the ledger's sums and the application's pause (the guard's). */
const state = (run: Run) =>
  Effect.gen(function* () {
    const balance = yield* balanceOf(run.accountId)
    const ledger = yield* ledgerOf(run.accountId)
    const application = Option.getOrThrow(yield* (yield* ApplicationsRepo).get(run.applicationId))
    return { balance, ledger, paused: application.paused }
  })

/** `SEED` and `RUNS` in the environment explore further than the fixed seed and count the suite runs with. */
const property = (stores: ReadonlyArray<readonly [string, Layer.Layer<Services>]>, numRuns: number) =>
  Effect.gen(function* () {
    const runtimes: Array<readonly [string, Runtime.Runtime<Services>]> = []
    for (const [name, layer] of stores) {
      const context = yield* Layer.build(layer)
      runtimes.push([name, yield* Effect.provide(Effect.runtime<Services>(), context)])
    }
    const on = <A>(runtime: Runtime.Runtime<Services>, self: Effect.Effect<A, any, Services>) =>
      Runtime.runPromise(runtime)(Effect.orDie(self))
    const textCounts = () =>
      Promise.all(
        runtimes.map(([, runtime]) =>
          on(runtime, Effect.forEach(numbers, (to) => Effect.map(textsTo(to), (t) => t.length)))
        ),
      )
    yield* Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(scenarioArb, async (scenario) => {
          const textsBefore = await textCounts()
          const runs: Array<Run> = []
          for (const [, runtime] of runtimes) {
            const made = await on(runtime, setupOn(scenario))
            runs.push({ ...made, started: [], latest: new Map() })
          }
          for (const [i, op] of scenario.ops.entries()) {
            if (op._tag === "advance") {
              // One TestClock for every store: the runtimes were all made on this test's fiber.
              await on(runtimes[0][1], TestClock.adjust(op.minutes * 60_000))
              continue
            }
            const answers = []
            for (const [j, [, runtime]] of runtimes.entries()) {
              answers.push({ answer: await on(runtime, step(runs[j], op)), ...(await on(runtime, state(runs[j]))) })
            }
            for (const [j, [name]] of runtimes.entries()) {
              if (j === 0) continue
              const differ = `${name} ${JSON.stringify(answers[j])}, memory ${JSON.stringify(answers[0])}`
              expect(answers[j], `step ${i} (${JSON.stringify(op)}): ${differ}`).toEqual(answers[0])
            }
          }
          // The texts each store sent in this run (the numbers are every run's: the log keeps earlier runs').
          const sent = (await textCounts()).map((counts, j) => counts.map((n, k) => n - textsBefore[j][k]))
          for (const t of sent.slice(1)) expect(t, "texts sent").toEqual(sent[0])
        }),
        { seed: Number(process.env.SEED ?? 20261127), numRuns: Number(process.env.RUNS ?? numRuns) },
      )
    )
  }).pipe(Effect.scoped)

const databaseUrl = process.env.DATABASE_URL

describe("Verify's send rules answer the same on the memory store and the SQL statement", () => {
  it.effect(
    "random starts and resends: the same answer, charge and balance on the memory store and PGlite",
    () => property([["memory", VerifyTestLayer("memory")], ["PGlite", VerifyTestLayer("pglite")]], 50),
    120_000,
  )
  it.effect.runIf(databaseUrl !== undefined)(
    "random starts and resends: the same answer, charge and balance on the memory store and PostgreSQL",
    () =>
      property([["memory", VerifyTestLayer("memory")], [
        "PostgreSQL",
        VerifyTestLayer({ postgres: databaseUrl ?? "" }),
      ]], 50),
    120_000,
  )
})
