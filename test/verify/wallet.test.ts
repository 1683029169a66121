/**
 * Verify and the prepaid wallet (spec Sections 1 and 7, DECISIONS 3): 9 halalas per SMS for start and
 * resend with live keys, free with test keys, `402 insufficient_credits` before the send, and a send the
 * network refuses rolled back as if never attempted.
 */
import { WalletConsole } from "../../core/wallet/console.ts"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, TestClock } from "effect"
import * as fc from "fast-check"
import { Console } from "../../core/console/service.ts"
import {
  allEvents,
  applicationOf,
  balanceOf,
  check,
  latestCode,
  ledgerOf,
  minutes,
  platformTest,
  principalOf,
  read,
  RefusedNumber,
  resend,
  setNetwork,
  setup,
  start,
  storedVerification,
  textsTo,
  to,
  VerifyTestLayer,
} from "./harness.ts"

describe("price: 9 halalas for each SMS sent by start or resend with a live key", () => {
  platformTest("start takes 9, each resend 9 more; check, read and cancel are free", function* () {
    const { accountId, p } = yield* setup({ balance: 100 })
    const v = yield* start(p, to)
    expect(yield* balanceOf(accountId)).toBe(91)
    yield* resend(p, v.id)
    yield* resend(p, v.id)
    expect(yield* balanceOf(accountId)).toBe(73)
    yield* check(p, v.id, yield* latestCode(to))
    yield* read(p, v.id)
    expect(yield* balanceOf(accountId)).toBe(73)
    const ledger = yield* ledgerOf(accountId)
    expect(ledger).toEqual({ credits: 100, charges: 27, refunds: 0 })
  })
})

describe("test keys are free and never touch the wallet", () => {
  platformTest("a test-key start and resend leave the balance and the ledger unchanged", function* () {
    const { accountId, p } = yield* setup({ balance: 50, mode: "test", proven: [to] })
    const v = yield* start(p, to)
    yield* resend(p, v.id)
    expect(yield* balanceOf(accountId)).toBe(50)
    expect(yield* ledgerOf(accountId)).toEqual({
      credits: 50,
      charges: 0,
      refunds: 0,
    })
  })

  platformTest("a test key works with an empty wallet", function* () {
    const { p } = yield* setup({ balance: 0, mode: "test", proven: [to] })
    expect((yield* start(p, to)).mode).toBe("test")
  })
})

describe("402 insufficient_credits: balance below price; nothing sent; adds message, balance_halalas, price_halalas", () => {
  platformTest("start with 8 halalas is refused with the balance and the price, and sends nothing", function* () {
    const { accountId, p } = yield* setup({ balance: 8 })
    const e = yield* Effect.flip(start(p, to))
    expect(e).toMatchObject({ _tag: "insufficient_credits", balance_halalas: 8, price_halalas: 9 })
    expect(e).toHaveProperty("message", expect.stringMatching(/\S/))
    expect(yield* textsTo(to)).toEqual([])
    expect(yield* balanceOf(accountId)).toBe(8)
  })

  platformTest("an empty wallet answers balance_halalas 0", function* () {
    const { p } = yield* setup({ balance: 0 })
    expect(yield* Effect.flip(start(p, to))).toMatchObject({
      _tag: "insufficient_credits",
      balance_halalas: 0,
      price_halalas: 9,
    })
  })

  platformTest(
    "resend with the balance spent is refused; the verification keeps its code and resend count",
    function* () {
      const { accountId, p } = yield* setup({ balance: 9 })
      const v = yield* start(p, to)
      const before = Option.getOrThrow(yield* storedVerification(v.id))
      expect(yield* Effect.flip(resend(p, v.id))).toMatchObject({
        _tag: "insufficient_credits",
        balance_halalas: 0,
        price_halalas: 9,
      })
      expect(yield* textsTo(to)).toHaveLength(1)
      expect(Option.getOrThrow(yield* storedVerification(v.id))).toEqual(before)
      yield* Effect.flatMap(WalletConsole, (c) => c.creditWallet(accountId, { amount_halalas: 27 }))
      for (let i = 0; i < 3; i++) yield* resend(p, v.id)
      expect(yield* Effect.flip(resend(p, v.id))).toMatchObject({ _tag: "resend_limit_reached" })
    },
  )
})

describe("502 send_failed: a send the network refuses is refunded in full and leaves nothing to check", () => {
  platformTest("+966500000001 answers send_failed with provider_code simulated_refusal and a message", function* () {
    const { p } = yield* setup()
    const e = yield* Effect.flip(start(p, RefusedNumber))
    expect(e).toMatchObject({ _tag: "send_failed", provider_code: "simulated_refusal" })
    expect(e).toHaveProperty("message", expect.stringMatching(/\S/))
  })

  platformTest("the balance is restored and the ledger shows the charge and its refund", function* () {
    const { accountId, p } = yield* setup({ balance: 100 })
    yield* Effect.flip(start(p, RefusedNumber))
    expect(yield* balanceOf(accountId)).toBe(100)
    expect(yield* ledgerOf(accountId)).toEqual({
      credits: 100,
      charges: 9,
      refunds: 9,
    })
  })

  platformTest("with exactly one price in the wallet, a refused send still leaves the price to spend", function* () {
    const { accountId, p } = yield* setup({ balance: 9 })
    yield* Effect.flip(start(p, RefusedNumber))
    expect((yield* start(p, to)).status).toBe("pending")
    expect(yield* balanceOf(accountId)).toBe(0)
  })

  platformTest("no verification is left: nothing to check or read, and no event fires", function* () {
    const { p } = yield* setup()
    const before = (yield* allEvents).length
    yield* Effect.flip(start(p, RefusedNumber))
    const events = yield* allEvents
    expect(events.length).toBe(before)
    expect(events.some((e) => String(e.event).startsWith("verification."))).toBe(false)
  })

  platformTest(
    "it counts toward no cap or spend: destination cap 1, IP cap 1 and spend cap 9 all still admit the next send",
    function* () {
      const { p } = yield* setup({
        settings: { hourly_cap_per_destination: 1, max_per_ip_per_hour: 1, daily_spend_cap_halalas: 9 },
      })
      // The same destination again: the rate gate admits it, the network refuses it again.
      yield* Effect.flip(start(p, RefusedNumber, { client_ip: "198.51.100.7" }))
      expect(yield* Effect.flip(start(p, RefusedNumber, { client_ip: "198.51.100.7" }))).toMatchObject({
        _tag: "send_failed",
      })
      // The same IP and the day's spend: both still free.
      expect((yield* start(p, to, { client_ip: "198.51.100.7" })).status).toBe("pending")
    },
  )

  platformTest(
    "it counts toward no protection-guard statistics: a refused send never pauses the application",
    function* () {
      const { applicationId, p } = yield* setup({ settings: { guard: { min_sends: 1, min_verified_percent: 50 } } })
      yield* Effect.flip(start(p, RefusedNumber))
      expect((yield* applicationOf(applicationId)).paused).toBe(false)
      expect((yield* allEvents).map((e) => e.event)).not.toContain("service.paused")
      expect((yield* start(p, to)).status).toBe("pending")
    },
  )

  platformTest(
    "a test-key send to the refused number is free, refused, and counts toward no sandbox start",
    function* () {
      const { accountId, p } = yield* setup({ balance: 0, mode: "test", proven: [RefusedNumber, to, "+966551234568"] })
      expect(yield* Effect.flip(start(p, RefusedNumber))).toMatchObject({ _tag: "send_failed" })
      expect(yield* balanceOf(accountId)).toBe(0)
      for (let i = 0; i < 10; i++) {
        yield* start(p, i % 2 === 0 ? to : "+966551234568")
        yield* TestClock.adjust(minutes(61))
      }
      expect(yield* Effect.flip(start(p, to))).toMatchObject({ _tag: "sandbox_quota_exceeded" })
    },
  )
})

describe("a resend the network refuses is refunded and restores the previous code", () => {
  platformTest(
    "send_failed; balance restored; the previous code still verifies; expires_at and the resend count are as before",
    function* () {
      const { accountId, p } = yield* setup({ balance: 100 })
      const v = yield* start(p, to)
      const before = Option.getOrThrow(yield* storedVerification(v.id))
      yield* TestClock.adjust(minutes(3))
      yield* setNetwork(true)
      expect(yield* Effect.flip(resend(p, v.id))).toMatchObject({ _tag: "send_failed", provider_code: "switched_off" })
      yield* setNetwork(false)
      expect(yield* balanceOf(accountId)).toBe(91)
      expect((yield* read(p, v.id)).expires_at).toBe(v.expires_at)
      expect(Option.getOrThrow(yield* storedVerification(v.id))).toMatchObject({
        status: "pending",
        attempts: before.attempts,
        resends: 0,
        codeHash: before.codeHash,
        expiresAt: before.expiresAt,
      })
      for (let i = 0; i < 3; i++) yield* resend(p, v.id)
      expect(yield* Effect.flip(resend(p, v.id))).toMatchObject({ _tag: "resend_limit_reached" })
    },
  )

  platformTest("right after the refused resend, the code of the start verifies", function* () {
    const { p } = yield* setup()
    const v = yield* start(p, to)
    const code = yield* latestCode(to)
    yield* setNetwork(true)
    yield* Effect.flip(resend(p, v.id))
    yield* setNetwork(false)
    expect((yield* check(p, v.id, code)).status).toBe("verified")
  })

  platformTest(
    "the refused resend counts toward no cap: with a destination cap of 2, start + refused resend + resend pass",
    function* () {
      const { p } = yield* setup({ settings: { hourly_cap_per_destination: 2 } })
      const v = yield* start(p, to)
      yield* setNetwork(true)
      yield* Effect.flip(resend(p, v.id))
      yield* setNetwork(false)
      expect((yield* resend(p, v.id)).status).toBe("pending")
      expect(yield* Effect.flip(resend(p, v.id))).toMatchObject({ _tag: "rate_limited" })
    },
  )
})

// ---------------------------------------------------------------------------------------------------

type Op =
  | { readonly _tag: "start"; readonly refused: boolean }
  | { readonly _tag: "resend"; readonly refused: boolean }
  | { readonly _tag: "check"; readonly right: boolean }
  | { readonly _tag: "credit"; readonly amount: number }
  | { readonly _tag: "wait"; readonly ms: number }

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.boolean().map((refused): Op => ({ _tag: "start", refused })), weight: 4 },
  { arbitrary: fc.boolean().map((refused): Op => ({ _tag: "resend", refused })), weight: 3 },
  { arbitrary: fc.boolean().map((right): Op => ({ _tag: "check", right })), weight: 2 },
  { arbitrary: fc.integer({ min: 1, max: 40 }).map((amount): Op => ({ _tag: "credit", amount })), weight: 1 },
  { arbitrary: fc.integer({ min: 0, max: minutes(30) }).map((ms): Op => ({ _tag: "wait", ms })), weight: 1 },
)

describe("balance = credits - charges + refunds, after any sequence of sends, refusals and top-ups", () => {
  it.effect.prop(
    "the wallet's balance equals its ledger, never goes below zero, and each refusal is refunded in full",
    [fc.integer({ min: 0, max: 60 }), fc.array(opArb, { maxLength: 30 })],
    ([initial, ops]) =>
      Effect.gen(function* () {
        const { accountId, p } = yield* setup({
          balance: initial,
          settings: { hourly_cap_per_destination: 10_000, max_per_ip_per_hour: 100_000 },
        })
        const ids: Array<string> = []
        let delivered = 0
        for (const op of ops) {
          switch (op._tag) {
            case "start": {
              const r = yield* Effect.either(start(p, op.refused ? RefusedNumber : to))
              if (r._tag === "Right") {
                ids.push(r.right.id)
                delivered++
              }
              break
            }
            case "resend": {
              if (ids.length === 0) break
              yield* setNetwork(op.refused)
              const r = yield* Effect.either(resend(p, ids[ids.length - 1]))
              yield* setNetwork(false)
              if (r._tag === "Right") delivered++
              break
            }
            case "check": {
              if (ids.length === 0) break
              const code = yield* latestCode(to)
              yield* Effect.either(check(p, ids[ids.length - 1], op.right ? code : "0000000"))
              break
            }
            case "credit":
              yield* Effect.flatMap(WalletConsole, (c) => c.creditWallet(accountId, { amount_halalas: op.amount }))
              break
            case "wait":
              yield* TestClock.adjust(op.ms)
          }
          const balance = yield* balanceOf(accountId)
          const s = yield* ledgerOf(accountId)
          expect(balance).toBe(s.credits - s.charges + s.refunds)
          expect(balance).toBeGreaterThanOrEqual(0)
          expect(s.charges - s.refunds).toBe(9 * delivered)
        }
      }).pipe(Effect.provide(VerifyTestLayer())),
    { fastCheck: { numRuns: 60 } },
  )
})

describe("balance.low: fires when a charge takes the balance below the alert (default 1000), not for a refused send", () => {
  const partnerSetup = (balance: number) =>
    Effect.gen(function* () {
      const c = yield* Console
      const account = yield* c.createAccount({ name: "Platform", partner: true })
      const app = yield* c.createApplication(account.id, { name: "Merchant", approved: true, external_id: "m-1" })
      yield* (yield* WalletConsole).creditWallet(account.id, { amount_halalas: balance })
      const key = yield* c.createPartnerKey(account.id, { mode: "partner" })
      const p = yield* principalOf(key.key, { application: app.id })
      return { accountId: account.id, p }
    }).pipe(Effect.orDie)

  const lowAlerts = Effect.map(allEvents, (es) => es.filter((e) => e.event === "balance.low"))

  platformTest(
    "1005 -> 996 fires one balance.low with the balance and the alert; the next charge fires none",
    function* () {
      const { accountId, p } = yield* partnerSetup(1_005)
      yield* start(p, to)
      const alerts = yield* lowAlerts
      expect(alerts).toHaveLength(1)
      expect(alerts[0]).toMatchObject({
        accountId,
        applicationId: null,
        data: { account_id: accountId, balance_halalas: 996, low_balance_alert_halalas: 1_000, state: "low" },
      })
      yield* start(p, "+966551234568")
      expect(yield* lowAlerts).toHaveLength(1)
    },
  )

  platformTest(
    "a refused send that crossed the threshold is rolled back with no balance.low; the next real crossing fires one",
    function* () {
      const { accountId, p } = yield* partnerSetup(1_005)
      yield* Effect.flip(start(p, RefusedNumber))
      expect(yield* balanceOf(accountId)).toBe(1_005)
      expect(yield* lowAlerts).toEqual([])
      yield* start(p, to)
      expect(yield* lowAlerts).toHaveLength(1)
    },
  )

  platformTest("a refused resend that crossed the threshold fires no balance.low", function* () {
    const { p } = yield* partnerSetup(1_014)
    const v = yield* start(p, to)
    yield* setNetwork(true)
    yield* Effect.flip(resend(p, v.id))
    yield* setNetwork(false)
    expect(yield* lowAlerts).toEqual([])
  })
})
