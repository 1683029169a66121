/**
 * The wallet's settings from the console (DECISIONS 14): `PUT /console/v1/accounts/{account}/wallet/settings`
 * `{ low_balance_alert_halalas?, auto_topup? }` answers the wallet read; the console's credit keeps working
 * (a top-up, method `console`). Auto top-up (DECISIONS 12): "on, card on file: a charge taking the balance
 * below its threshold charges the card and credits the wallet at once; once per crossing" (method `auto`,
 * re-armed when the balance is back at or above the threshold).
 */
import { describe, expect } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { describe as suite, expect as expectHttp, it } from "vitest"
import { afterCharge, charge } from "../../core/wallet/charge.ts"
import { WalletConsole } from "../../core/wallet/console.ts"
import { readWallet } from "../../core/wallet/read.ts"
import { simulatedCard } from "../../core/simulators/payments.ts"
import { PaymentDeclined, PaymentProvider } from "../../ports/payments.ts"
import { WalletRepo } from "../../ports/store/wallet.ts"
import { setupApplication, useServer } from "../support/server.ts"
import { balanceOf, mobile, platformTest, setup, start } from "../verify/harness.ts"
import { accountWithToken } from "./support.ts"

suite("PUT /console/v1/accounts/{account}/wallet/settings answers the wallet read; what is not given stays", () => {
  const s = useServer()
  const put = (account: string, body: unknown) =>
    s.call("PUT", `/console/v1/accounts/${account}/wallet/settings`, { key: s.consoleToken, body })

  it("defaults: alert 1000, auto top-up off; setting the alert, then the auto top-up in parts", async () => {
    const { account, token } = await accountWithToken(s, { balance: 2_000 })
    const before = (await s.call("GET", "/v1/account/wallet", { key: token })).body.data
    expectHttp(before).toMatchObject({
      low_balance_alert_halalas: 1_000,
      auto_topup: { enabled: false, threshold_halalas: 1_000, amount_halalas: 10_000 },
      card: null,
      state: "ok",
    })
    const a = await put(account.id, { low_balance_alert_halalas: 2_500 })
    expectHttp(a.status).toBe(200)
    expectHttp(a.body.data).toEqual({ ...before, low_balance_alert_halalas: 2_500, state: "low" })
    const b = await put(account.id, { auto_topup: { enabled: true, threshold_halalas: 500 } })
    expectHttp(b.body.data).toMatchObject({
      low_balance_alert_halalas: 2_500,
      auto_topup: { enabled: true, threshold_halalas: 500, amount_halalas: 10_000 },
    })
    const c = await put(account.id, { auto_topup: { amount_halalas: 20_000 } })
    expectHttp(c.body.data.auto_topup).toEqual({ enabled: true, threshold_halalas: 500, amount_halalas: 20_000 })
    expectHttp((await s.call("GET", "/v1/account/wallet", { key: token })).body.data).toEqual(c.body.data)
  })

  it("refused fields: 400 with per-field codes; an unknown account 404", async () => {
    const { account } = await accountWithToken(s)
    const bad = await put(account.id, {
      low_balance_alert_halalas: -1,
      auto_topup: { enabled: "yes", amount_halalas: 5, x: 1 },
      y: 2,
    })
    expectHttp(bad.status).toBe(400)
    expectHttp(bad.body).toMatchObject({ error: "invalid_request", message: expectHttp.any(String) })
    expectHttp(bad.body.errors).toEqual({
      low_balance_alert_halalas: "invalid",
      "auto_topup.enabled": "invalid",
      "auto_topup.amount_halalas": "invalid",
      "auto_topup.x": "unknown",
      y: "unknown",
    })
    expectHttp((await put(crypto.randomUUID(), {})).status).toBe(404)
  })

  it("the console's credit keeps working: a top-up with method console", async () => {
    const { account, token } = await accountWithToken(s)
    const res = await s.call("POST", `/console/v1/accounts/${account.id}/wallet/credit`, {
      key: s.consoleToken,
      body: { amount_halalas: 1_234 },
    })
    expectHttp(res.status).toBe(200)
    expectHttp(res.body.data).toMatchObject({
      balance_halalas: 1_234,
      last_topup: { id: expectHttp.any(String), method: "console", amount_halalas: 1_234, at: expectHttp.any(String) },
    })
    expectHttp((await s.call("GET", "/v1/account/wallet", { key: token })).body.data).toEqual(res.body.data)
  })
})

/** Saves the simulator's card on the account, as a link paid with save_card does. */
const withCard = (accountId: string) =>
  Effect.gen(function* () {
    const wallet = yield* WalletRepo
    const settings = yield* wallet.settings(accountId as never)
    yield* wallet.saveSettings(accountId as never, { ...settings, card: simulatedCard("test") })
  })

const autoTopups = (accountId: string) =>
  Effect.map(readWallet(accountId as never), (w) => w.last_topup?.method === "auto" ? w.last_topup : null)

describe("auto top-up: on, card on file: a charge taking the balance below its threshold charges the card and credits at once; once per crossing", () => {
  platformTest(
    "on, with a card: crossing the threshold credits amount_halalas at once (method auto); a charge landing on it does not",
    function* () {
      yield* TestClock.setTime(Date.parse("2026-11-25T10:00:00Z"))
      const { accountId, p } = yield* setup({ balance: 518 })
      yield* (yield* WalletConsole).updateSettings(accountId, {
        auto_topup: { enabled: true, threshold_halalas: 500, amount_halalas: 2_000 },
      })
      yield* withCard(accountId)
      yield* start(p, mobile(1)) // 518 -> 509
      yield* start(p, mobile(2)) // 509 -> 500: on the threshold, not below it
      expect(yield* balanceOf(accountId)).toBe(500)
      expect(yield* autoTopups(accountId)).toBeNull()
      yield* start(p, mobile(3)) // 500 -> 491: below; topped up at once
      expect(yield* balanceOf(accountId)).toBe(2_491)
      expect(yield* autoTopups(accountId)).toEqual({
        id: expect.any(String),
        method: "auto",
        amount_halalas: 2_000,
        at: "2026-11-25T10:00:00.000Z",
      })
      expect(yield* Effect.flatMap(WalletRepo, (w) => w.summary(accountId, 0))).toEqual({
        credits: 2_518,
        charges: 27,
        refunds: 0,
      })
    },
  )

  platformTest(
    "once per crossing: an amount too small to get back above leaves it disarmed; a credit back to the threshold re-arms it",
    function* () {
      const { accountId, p } = yield* setup({ balance: 1_000 })
      yield* (yield* WalletConsole).updateSettings(accountId, {
        auto_topup: { enabled: true, threshold_halalas: 5_000, amount_halalas: 1_000 },
      })
      yield* withCard(accountId)
      yield* (yield* WalletConsole).creditWallet(accountId, { amount_halalas: 4_000 }) // 5000
      const credit = () => Effect.flatMap(WalletRepo, (w) => w.summary(accountId, 0)).pipe(Effect.map((x) => x.credits))
      yield* start(p, mobile(1)) // 5000 -> 4991: crossing -> +1000 = 5991
      expect(yield* balanceOf(accountId)).toBe(5_991)
      yield* (yield* WalletConsole).updateSettings(accountId, { auto_topup: { amount_halalas: 1_000 } })
      // Spend down to just above, then cross again: one more top-up.
      yield* Effect.flatMap(
        WalletRepo,
        (w) => w.charge({ accountId, kind: "charge", amountHalalas: -986, product: "verify", reference: null, at: 0 }),
      ) // 5005
      yield* start(p, mobile(2)) // 5005 -> 4996: crossing -> 5996
      expect(yield* balanceOf(accountId)).toBe(5_996)
      const before = yield* credit()
      yield* (yield* WalletConsole).updateSettings(accountId, { auto_topup: { threshold_halalas: 7_000 } })
      yield* start(p, mobile(3)) // 5996 -> 5987: already below 7000, not a crossing
      expect(yield* credit()).toBe(before)
      yield* (yield* WalletConsole).creditWallet(accountId, { amount_halalas: 1_013 }) // 7000: re-armed
      yield* start(p, mobile(4)) // 7000 -> 6991: crossing -> 7991
      expect(yield* balanceOf(accountId)).toBe(7_991)
      expect(yield* credit()).toBe(before + 1_013 + 1_000)
    },
  )

  platformTest("off, or on without a card: nothing is charged or credited", function* () {
    const { accountId, p } = yield* setup({ balance: 1_009 })
    yield* (yield* WalletConsole).updateSettings(accountId, { auto_topup: { enabled: true, threshold_halalas: 1_005 } })
    yield* start(p, mobile(1)) // no card
    expect(yield* balanceOf(accountId)).toBe(1_000)
    yield* withCard(accountId)
    yield* (yield* WalletConsole).updateSettings(accountId, { auto_topup: { enabled: false } })
    yield* (yield* WalletConsole).creditWallet(accountId, { amount_halalas: 9 })
    yield* start(p, mobile(2)) // off
    expect(yield* balanceOf(accountId)).toBe(1_000)
  })

  platformTest(
    "the card is charged the amount and its VAT through the payment port; a declined card credits nothing",
    function* () {
      const charged: Array<{ totalHalalas: number }> = []
      let decline = false
      const { accountId, p } = yield* setup({ balance: 20 })
      yield* (yield* WalletConsole).updateSettings(accountId, {
        auto_topup: { enabled: true, threshold_halalas: 15, amount_halalas: 1_010 },
      })
      yield* withCard(accountId)
      const provider = PaymentProvider.of({
        createLink: () => Effect.succeed({ url: "https://x" }),
        chargeCard: (c) =>
          decline
            ? Effect.fail(new PaymentDeclined({ message: "declined" }))
            : Effect.sync(() => (charged.push(c), { paymentId: "p" })),
      })
      const spend = (price: number) =>
        Effect.gen(function* () {
          const req = { account: p.account, priceHalalas: price, product: "verify", reference: "r", at: 0 }
          return yield* afterCharge(req, yield* charge(req))
        }).pipe(Effect.provideService(PaymentProvider, provider))
      decline = true
      yield* spend(9) // 20 -> 11: declined, nothing credited
      expect(yield* balanceOf(accountId)).toBe(11)
      yield* (yield* WalletConsole).creditWallet(accountId, { amount_halalas: 9 }) // 20
      decline = false
      yield* spend(9) // 20 -> 11: charged 1010 + 152 VAT, credited 1010
      expect(charged.map((c) => c.totalHalalas)).toEqual([1_162])
      expect(yield* balanceOf(accountId)).toBe(1_021)
    },
  )
})

suite(
  "auto top-up end to end: a link paid with save_card, auto top-up on in the console, sends crossing the threshold",
  () => {
    const s = useServer()

    it("the send that takes the balance below the threshold is followed at once by a top-up with method auto", async () => {
      const { account, key } = await setupApplication(s, { balance: 0 })
      const token = (await s.console("POST", `/accounts/${account.id}/account-tokens`)).token
      const link = (await s.call("POST", "/v1/account/wallet/topups", { key: token, body: { amount_halalas: 1_018 } }))
        .body.data
      await s.console("POST", `/simulator/topups/${link.id}/pay`, { save_card: true })
      const settings = await s.console("PUT", `/accounts/${account.id}/wallet/settings`, {
        auto_topup: { enabled: true, threshold_halalas: 1_000, amount_halalas: 5_000 },
      })
      expectHttp(settings).toMatchObject({ balance_halalas: 1_018, card: { brand: "visa", last4: "4242" } })
      for (const to of ["0551000001", "0551000002"]) {
        expectHttp((await s.call("POST", "/v1/verify/start", { key, body: { to } })).status).toBe(200)
      }
      // 1018 -> 1009 -> 1000: on the threshold, nothing yet.
      expectHttp((await s.call("GET", "/v1/account/wallet", { key: token })).body.data).toMatchObject({
        balance_halalas: 1_000,
        last_topup: { id: link.id, method: "link" },
      })
      expectHttp((await s.call("POST", "/v1/verify/start", { key, body: { to: "0551000003" } })).status).toBe(200)
      // 1000 -> 991, below: 5000 credited at once.
      expectHttp((await s.call("GET", "/v1/account/wallet", { key: token })).body.data).toMatchObject({
        balance_halalas: 5_991,
        last_topup: { method: "auto", amount_halalas: 5_000 },
        month_spend_halalas: 27,
      })
    })
  },
)
