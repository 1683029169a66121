/**
 * `balance.low` (DECISIONS 12, 15): "a charge takes the balance from at least the alert to below it; once,
 * re-armed by a credit back to it", with `data { id, account_id, balance_halalas, low_balance_alert_halalas,
 * state, codes_left, occurred_at }` (id = the event id), for any account (not only partners), to the account's
 * webhook. Verify fires it after an accepted send only: a refused send, rolled back, fires nothing.
 */
import { describe, expect, it as effectIt } from "@effect/vitest"
import * as fc from "fast-check"
import { Effect, TestClock } from "effect"
import { describe as suite, expect as expectHttp, it } from "vitest"
import { afterCharge, charge } from "../../core/wallet/charge.ts"
import { WalletConsole } from "../../core/wallet/console.ts"
import { setupApplication, useServer } from "../support/server.ts"
import { advance, deliveries } from "../webhooks/helpers.ts"
import { useReceiver, verify } from "../webhooks/receiver.ts"
import { accountWebhookId } from "../../core/webhooks/envelope.ts"
import {
  allEvents,
  balanceOf,
  mobile,
  platformTest,
  RefusedNumber,
  setup,
  start,
  VerifyTestLayer,
} from "../verify/harness.ts"

const lowAlerts = Effect.map(allEvents, (es) => es.filter((e) => e.event === "balance.low"))

describe("balance.low: a charge takes the balance from at least the alert to below it; once, re-armed by a credit back to it", () => {
  platformTest(
    "landing exactly on the alert fires nothing; one halala below fires one; a second charge none; a credit back up, then down: one again",
    function* () {
      yield* TestClock.setTime(Date.parse("2026-11-25T10:00:00Z"))
      const { accountId, p } = yield* setup({ balance: 1_001 })
      const charge1 = (reference: string) =>
        Effect.gen(function* () {
          const req = {
            account: p.account,
            priceHalalas: 1,
            product: "verify",
            reference,
            at: yield* TestClock.currentTimeMillis,
          }
          yield* afterCharge(req, yield* charge(req))
        })
      yield* charge1("a") // 1001 -> 1000: exactly on the alert (1000), not below it
      expect(yield* balanceOf(accountId)).toBe(1_000)
      expect(yield* lowAlerts).toEqual([])
      yield* charge1("b") // 1000 -> 999: from at least the alert to below it
      const alerts = yield* lowAlerts
      expect(alerts).toHaveLength(1)
      expect(alerts[0]).toMatchObject({ event: "balance.low", accountId, applicationId: null })
      expect(alerts[0].data).toEqual({
        id: accountWebhookId(alerts[0].id),
        account_id: accountId,
        balance_halalas: 999,
        low_balance_alert_halalas: 1_000,
        state: "low",
        codes_left: 111,
        occurred_at: "2026-11-25T10:00:00.000Z",
      })
      yield* charge1("c") // 999 -> 998: already below, nothing
      expect(yield* lowAlerts).toHaveLength(1)
      const wallet = yield* WalletConsole
      yield* wallet.creditWallet(accountId, { amount_halalas: 1 }) // 999: still below, not re-armed
      yield* charge1("d") // 999 -> 998
      expect(yield* lowAlerts).toHaveLength(1)
      yield* wallet.creditWallet(accountId, { amount_halalas: 2 }) // 1000: back at the alert, re-armed
      yield* charge1("e") // 1000 -> 999
      expect((yield* lowAlerts).map((e) => e.data.balance_halalas)).toEqual([999, 999])
    },
  )

  effectIt.effect.prop(
    "for random charges and credits: one event per charge from at least the alert to below it, none otherwise",
    [
      fc.integer({ min: 0, max: 300 }),
      fc.integer({ min: 0, max: 400 }),
      fc.array(fc.oneof(fc.integer({ min: 1, max: 60 }), fc.integer({ min: -80, max: -1 })), { maxLength: 30 }),
    ],
    ([alert, opening, moves]) =>
      Effect.gen(function* () {
        const { accountId, p } = yield* setup({ balance: opening })
        const wallet = yield* WalletConsole
        yield* wallet.updateSettings(accountId, { low_balance_alert_halalas: alert })
        let balance = opening
        const expected: Array<number> = []
        for (const [i, move] of moves.entries()) {
          if (move < 0) {
            yield* wallet.creditWallet(accountId, { amount_halalas: -move })
            balance -= move
            continue
          }
          const req = { account: p.account, priceHalalas: move, product: "verify", reference: `m${i}`, at: i }
          const charged = yield* Effect.either(charge(req))
          if (charged._tag === "Left") continue
          yield* afterCharge(req, charged.right)
          if (balance >= alert && balance - move < alert) expected.push(balance - move)
          balance -= move
        }
        expect(yield* balanceOf(accountId)).toBe(balance)
        expect((yield* lowAlerts).map((e) => e.data.balance_halalas)).toEqual(expected)
      }).pipe(Effect.provide(VerifyTestLayer())),
    { fastCheck: { numRuns: 60 }, timeout: 60_000 },
  )

  platformTest("the account's own alert: set to 992 in the console, a send from 1000 to 991 fires it", function* () {
    const { accountId, p } = yield* setup({ balance: 1_000 })
    yield* (yield* WalletConsole).updateSettings(accountId, { low_balance_alert_halalas: 992 })
    yield* start(p, mobile(1))
    expect((yield* lowAlerts).map((e) => e.data)).toMatchObject([{
      balance_halalas: 991,
      low_balance_alert_halalas: 992,
    }])
  })

  platformTest("at the default alert of 1000: 1009 -> 1000 nothing, 1000 -> 991 one event", function* () {
    const { p } = yield* setup({ balance: 1_009 })
    yield* start(p, mobile(1))
    expect(yield* lowAlerts).toEqual([])
    yield* start(p, mobile(2))
    expect((yield* lowAlerts).map((e) => e.data.balance_halalas)).toEqual([991])
  })

  platformTest("a refused send that would cross fires nothing; the send after it does", function* () {
    const { accountId, p } = yield* setup({ balance: 1_005 })
    yield* Effect.flip(start(p, RefusedNumber))
    expect(yield* balanceOf(accountId)).toBe(1_005)
    expect(yield* lowAlerts).toEqual([])
    yield* start(p, mobile(1))
    expect(yield* lowAlerts).toHaveLength(1)
  })

  platformTest("the state in the data is out when the charge leaves less than one code", function* () {
    const { accountId, p } = yield* setup({ balance: 17 })
    yield* (yield* WalletConsole).updateSettings(accountId, { low_balance_alert_halalas: 10 })
    yield* start(p, mobile(1)) // 17 -> 8
    expect((yield* lowAlerts)[0].data).toMatchObject({ balance_halalas: 8, state: "out", codes_left: 0 })
  })
})

suite("balance.low reaches the account's webhook, for an account that is not a partner (DECISIONS 15)", () => {
  const s = useServer()
  const hooks = useReceiver()

  it("one signed delivery with the DECISIONS 12 data", async () => {
    const { account, key } = await setupApplication(s, { balance: 1_009 })
    expectHttp(account.partner).toBe(false)
    const endpoint = await s.console("PUT", `/accounts/${account.id}/webhook`, { url: hooks.url })
    for (const to of ["0551000001", "0551000002", "0551000003"]) {
      expectHttp((await s.call("POST", "/v1/verify/start", { key, body: { to } })).status).toBe(200)
    }
    await advance(s, 0)
    await hooks.waitFor(1)
    await advance(s, 10_000)
    const low = hooks.received.filter((r) => r.json.event === "balance.low")
    expectHttp(low).toHaveLength(1)
    const payload = verify(endpoint.secret, low[0])
    // `id` is the webhook-id of its delivery (DECISIONS 13, 15: receivers deduplicate on it).
    expectHttp(payload.data.id).toBe(low[0].headers["webhook-id"])
    const log = (await deliveries(s, { account: account.id })).filter((d) => d.event === "balance.low")
    expectHttp(log.map((d) => d.webhook_id)).toEqual([payload.data.id])
    expectHttp(payload.data).toEqual({
      id: expectHttp.any(String),
      account_id: account.id,
      balance_halalas: 991,
      low_balance_alert_halalas: 1_000,
      state: "low",
      codes_left: 110,
      occurred_at: expectHttp.any(String),
    })
  })
})
