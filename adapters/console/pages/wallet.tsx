/** @jsxImportSource preact */
/**
 * The wallet's console pages: an account's wallet as `wallet.show` reads it (balance, state, codes left, the
 * month's spend and projection, the alert and auto top-up), and a top-up link made as `wallet.topups.link` makes
 * one (its amount decoded by that operation's Schema). While the payment simulator is selected, its page pays the
 * link as the payer would (`console.simulator.topups.pay`).
 */
import { Effect } from "effect"
import { Console } from "../../../core/console/service.ts"
import { notFound } from "../../../core/errors.ts"
import { fieldsRefused } from "../../../core/pipeline/decode.ts"
import { isUuid } from "../../../core/shared/brands.ts"
import { paymentsSimulatorOperations, simulatedCard } from "../../../core/simulators/payments.ts"
import { walletAccountOperations } from "../../../core/wallet/account-operations.ts"
import { readWallet, type WalletState } from "../../../core/wallet/read.ts"
import { WalletTopups } from "../../../core/wallet/topups.ts"
import type { AccountId } from "../../../core/shared/brands.ts"
import { SimulatedPaymentPages } from "../../payments/simulator.ts"
import { bodyDecoder } from "../forms.ts"
import { formatDate, formatNumber, formatSar, type MessageKey } from "../i18n.ts"
import { Csrf } from "../layout.tsx"
import { type ConsolePage, html, type PageContext, redirect } from "../page.ts"

const decodeTopup = bodyDecoder(walletAccountOperations, "wallet.topups.link")
const decodePay = bodyDecoder(paymentsSimulatorOperations, "console.simulator.topups.pay")

const stateKey: Record<WalletState, MessageKey> = { ok: "walletOk", low: "walletLow", out: "walletOut" }

/** Riyals as a person writes them (`100`, `100.5`, `100.50`) to halalas; undefined when it is not such a number. */
export const halalasOf = (riyals: string): number | undefined => {
  const m = /^\s*(\d{1,9})(?:[.,٫](\d{1,2}))?\s*$/.exec(riyals)
  if (m === null) return undefined
  return Number(m[1]) * 100 + Number((m[2] ?? "0").padEnd(2, "0"))
}

const accountParam = (ctx: PageContext) =>
  Effect.gen(function* () {
    const id = ctx.params.account ?? ""
    if (!isUuid(id)) return yield* notFound
    return yield* (yield* Console).account(id)
  })

const walletPage: ConsolePage = {
  method: "GET",
  path: "/accounts/:account/wallet",
  handler: (ctx) =>
    Effect.gen(function* () {
      const account = yield* accountParam(ctx)
      const w = yield* readWallet(account.id)
      const { t, lang, root } = ctx
      const sar = (h: number) => formatSar(lang, h)
      return html(
        `${t("wallet")}: ${account.name}`,
        <>
          <dl class="fields">
            <div>
              <dt>{t("balance")}</dt>
              <dd id="wallet-balance">{sar(w.balance_halalas)}</dd>
            </div>
            <div>
              <dt>{t("status")}</dt>
              <dd>{t(stateKey[w.state])}</dd>
            </div>
            <div>
              <dt>{t("codesLeft")}</dt>
              <dd>{formatNumber(lang, w.codes_left)}</dd>
            </div>
            <div>
              <dt>{t("monthSpend")}</dt>
              <dd>{sar(w.month_spend_halalas)}</dd>
            </div>
            <div>
              <dt>{t("monthProjection")}</dt>
              <dd>{sar(w.month_projection_halalas)}</dd>
            </div>
            <div>
              <dt>{t("lowBalanceAlert")}</dt>
              <dd>{sar(w.low_balance_alert_halalas)}</dd>
            </div>
            <div>
              <dt>{t("autoTopup")}</dt>
              <dd>
                {w.auto_topup.enabled
                  ? t("autoTopupOn", {
                    amount: sar(w.auto_topup.amount_halalas),
                    threshold: sar(w.auto_topup.threshold_halalas),
                  })
                  : t("no")}
              </dd>
            </div>
          </dl>
          <h2 id="topup">{t("topup")}</h2>
          <form
            method="post"
            action={`${root}accounts/${account.id}/wallet/topups`}
            class="stack"
            aria-labelledby="topup"
          >
            <Csrf token={ctx.csrf} />
            <div>
              <label for="amount">{t("amountSar")}</label>
              <input type="text" id="amount" name="amount" inputmode="decimal" required />
            </div>
            <div>
              <button type="submit">{t("makeTopupLink")}</button>
            </div>
          </form>
          <p>
            <a href={`${root}accounts/${account.id}`}>{t("account")}</a>
          </p>
        </>,
      )
    }),
}

const topupLink: ConsolePage = {
  method: "POST",
  path: "/accounts/:account/wallet/topups",
  handler: (ctx) =>
    Effect.gen(function* () {
      const account = yield* accountParam(ctx)
      const halalas = halalasOf(ctx.form.get("amount") ?? "")
      if (halalas === undefined) {
        return yield* fieldsRefused({ amount: "riyals, with at most two decimals" }, { amount: "invalid" })
      }
      const body = yield* decodeTopup({ amount_halalas: halalas })
      const topups = yield* WalletTopups
      const link = yield* topups.createLink(account.id as AccountId, body.amount_halalas)
      const { t, lang, root } = ctx
      const simulated = link.url.startsWith(SimulatedPaymentPages)
      return html(
        t("topupLink"),
        <>
          <dl class="fields">
            <div>
              <dt>{t("amount")}</dt>
              <dd>{formatSar(lang, link.amount_halalas)}</dd>
            </div>
            <div>
              <dt>{t("vat")}</dt>
              <dd>{formatSar(lang, link.vat_halalas)}</dd>
            </div>
            <div>
              <dt>{t("total")}</dt>
              <dd>{formatSar(lang, link.total_halalas)}</dd>
            </div>
            <div>
              <dt>{t("expiresAt")}</dt>
              <dd>{formatDate(lang, link.expires_at)}</dd>
            </div>
            <div>
              <dt>{t("paymentLink")}</dt>
              <dd>
                <code class="text">{link.url}</code>
              </dd>
            </div>
          </dl>
          {simulated
            ? (
              <form method="post" action={`${root}simulator/topups/${link.id}/pay`} class="stack">
                <Csrf token={ctx.csrf} />
                <input type="hidden" name="account" value={account.id} />
                <p class="notice">{t("simulatedPayment")}</p>
                <div>
                  <button type="submit">{t("payInSimulator")}</button>
                </div>
              </form>
            )
            : null}
          <p>
            <a href={`${root}accounts/${account.id}/wallet`}>{t("wallet")}</a>
          </p>
        </>,
        201,
      )
    }),
}

/** The payment simulator's page: pays a top-up link as its payer would, then back to the wallet. */
const paySimulated: ConsolePage = {
  method: "POST",
  path: "/simulator/topups/:id/pay",
  handler: (ctx) =>
    Effect.gen(function* () {
      const id = ctx.params.id ?? ""
      if (!isUuid(id)) return yield* notFound
      const body = yield* decodePay({})
      yield* (yield* WalletTopups).payLink(id, body.save_card === true ? simulatedCard(id) : null)
      const account = ctx.form.get("account") ?? ""
      return redirect(isUuid(account) ? `accounts/${account}/wallet` : "accounts")
    }),
}

export const walletPages: ReadonlyArray<ConsolePage> = [walletPage, topupLink]
export const paymentsSimulatorPages: ReadonlyArray<ConsolePage> = [paySimulated]
