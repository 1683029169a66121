/** @jsxImportSource preact */
/**
 * The wallet's console pages: an account's wallet as `wallet.show` reads it (balance, state, codes left, the
 * month's spend and projection), a usage chart by month and application over the usage read
 * (`clients.usage.show`'s use case, money included), the low-balance alert and auto top-up set as
 * `console.wallet.settings` sets them, proformas issued as `wallet.proformas.create` issues them (listed as
 * `console.proformas.list` lists them, each with its PDF as `wallet.proformas.pdf` makes it), and a top-up link
 * made as `wallet.topups.link` makes one. Every form is decoded by its operation's Schema; a refused field is shown
 * beside the field, with the operation's bound in riyals. While the payment simulator is selected, its page pays
 * the link as the payer would (`console.simulator.topups.pay`).
 */
import { Effect, Option } from "effect"
import type { VNode } from "preact"
import { Console } from "../../../core/console/service.ts"
import { isApiError } from "../../../core/errors.ts"
import { Fields as FieldLimits, Lists, Wallet } from "../../../core/limits.ts"
import { fieldsRefused } from "../../../core/pipeline/decode.ts"
import { InvalidRequest } from "../../../core/pipeline/errors.ts"
import { isUuid } from "../../../core/shared/brands.ts"
import { paymentsSimulatorOperations, simulatedCard } from "../../../core/simulators/payments.ts"
import { allowedMonths } from "../../../core/usage/period.ts"
import { Usage } from "../../../core/usage/service.ts"
import { walletAccountOperations } from "../../../core/wallet/account-operations.ts"
import { WalletConsole } from "../../../core/wallet/console.ts"
import { walletConsoleOperations } from "../../../core/wallet/operations.ts"
import { readWallet, type WalletState } from "../../../core/wallet/read.ts"
import { WalletTopups } from "../../../core/wallet/topups.ts"
import type { AccountId, Millis } from "../../../core/shared/brands.ts"
import { SimulatedPaymentPages } from "../../payments/simulator.ts"
import { bodyDecoder } from "../forms.ts"
import {
  formatDate,
  formatMonth,
  formatNumber,
  formatSar,
  type Lang,
  type MessageKey,
  type Translate,
} from "../i18n.ts"
import { Csrf } from "../layout.tsx"
import { type ConsolePage, file, html, type PageContext, redirect, uuidParam } from "../page.ts"

const decodeTopup = bodyDecoder(walletAccountOperations, "wallet.topups.link")
const decodeProforma = bodyDecoder(walletAccountOperations, "wallet.proformas.create")
const decodeSettings = bodyDecoder(walletConsoleOperations, "console.wallet.settings")
const decodePay = bodyDecoder(paymentsSimulatorOperations, "console.simulator.topups.pay")

const stateKey: Record<WalletState, MessageKey> = { ok: "walletOk", low: "walletLow", out: "walletOut" }
const proformaStatusKey: Record<string, MessageKey> = {
  open: "proformaOpen",
  paid: "proformaPaid",
  expired: "proformaExpired",
}

/** Arabic-Indic and Persian digits as the ASCII digits they are (a person may type either). */
const asciiDigits = (text: string): string =>
  text.replace(/[\u0660-\u0669\u06F0-\u06F9]/g, (d) => String((d.charCodeAt(0) & 0xf) % 10))

/** Riyals as a person writes them (`100`, `100.5`, `100.50`, `١٠٠٫٥`) to halalas; undefined when it is not such a number. */
export const halalasOf = (riyals: string): number | undefined => {
  // \u066b: the Arabic decimal separator, escaped so that the built bundle stays ASCII (one byte a character).
  const m = /^\s*(\d{1,9})(?:[.,\u066b](\d{1,2}))?\s*$/.exec(asciiDigits(riyals))
  if (m === null) return undefined
  return Number(m[1]) * 100 + Number((m[2] ?? "0").padEnd(2, "0"))
}

/** Halalas as an input's value: `1000` is `10.00` (what `halalasOf` reads back). */
const riyalsInput = (halalas: number): string =>
  `${Math.trunc(halalas / 100)}.${String(halalas % 100).padStart(2, "0")}`

const accountParam = (ctx: PageContext) =>
  Effect.gen(function* () {
    return yield* (yield* Console).account(yield* uuidParam(ctx, "account"))
  })

/** A form's refused fields (by the form's field names) and the texts it was sent with, shown again. */
interface FormState {
  readonly form: "settings" | "proforma"
  readonly errors: Readonly<Record<string, string>>
  readonly values: Readonly<Record<string, string>>
}

/**
 * An operation's refusal as the form's errors: each refused field of the body (`auto_topup.amount_halalas`) named
 * by the form's field it came from, with `says` the sentence the page shows (its bound in riyals); a field the
 * page does not know keeps the operation's own message.
 */
const formErrors = (
  e: InvalidRequest,
  names: Readonly<Record<string, readonly [field: string, says: (message: string) => string]>>,
): Record<string, string> => {
  const errors: Record<string, string> = {}
  const first = Object.values(names)[0]?.[0] ?? "form"
  for (const [name, message] of Object.entries(e.fields ?? {})) {
    const known = names[name]
    if (known !== undefined) errors[known[0]] = known[1](String(message))
    else errors[first] = String(message)
  }
  return errors
}

/** A text field with its label, its error beside it (announced with the field) and the value it was sent with. */
const TextField = (
  props: {
    readonly id: string
    readonly label: string
    readonly value?: string
    readonly error?: string
    readonly required?: boolean
    readonly inputmode?: "decimal" | "numeric" | "text"
    readonly autocomplete?: string
  },
) => (
  <div>
    <label for={props.id}>{props.label}</label>
    <input
      type="text"
      id={props.id}
      name={props.id}
      value={props.value ?? ""}
      inputmode={props.inputmode}
      autocomplete={props.autocomplete}
      required={props.required}
      aria-invalid={props.error === undefined ? undefined : "true"}
      aria-describedby={props.error === undefined ? undefined : `${props.id}-error`}
    />
    {props.error === undefined ? null : <p class="field-error" id={`${props.id}-error`}>{props.error}</p>}
  </div>
)

/** The summary above a refused form: nothing was changed, the fields say why. */
const FormAlert = ({ t, state, form }: { t: Translate; state?: FormState; form: FormState["form"] }) =>
  state?.form === form ? <p class="error" role="alert">{t("fieldErrors")}</p> : null

// ---------------------------------------------------------------------------------------------------------------
// The usage chart: bars per month (this Riyadh month and the two before), one colour per application.

/** Okabe and Ito's colour-blind-safe colours (less the yellow, too pale on white), then grey for the rest. */
const palette = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"] as const
const otherColour = "#6b7580"
const other = "other"

interface UsageRow {
  readonly application_id: string
  readonly name: string
  readonly codes_sent: number
  readonly codes_verified: number
  readonly cost_halalas?: number | undefined
}
interface MonthUsage {
  readonly month: string
  readonly rows: ReadonlyArray<UsageRow>
}
interface Series {
  readonly key: string
  readonly name: string
  readonly colour: string
}

/** Each month the usage read allows (oldest first) with every row of it: the read's pages, followed. */
const usageByMonth = (accountId: AccountId, now: number) =>
  Effect.gen(function* () {
    const usage = yield* Effect.serviceOption(Usage)
    if (Option.isNone(usage)) return undefined
    const months: Array<MonthUsage> = []
    for (const month of allowedMonths(now as Millis)) {
      const rows: Array<UsageRow> = []
      let cursor: string | undefined
      for (let page = 0; page < 10; page++) {
        const read = yield* usage.value.read(accountId, {
          month,
          limit: Lists.maxLimit,
          ...(cursor === undefined ? {} : { cursor }),
        })
        rows.push(...read.data.rows)
        if (read.next_cursor === null) break
        cursor = read.next_cursor
      }
      months.push({ month, rows })
    }
    return months
  })

/** The applications by their cost over the months, busiest first: the first six a colour each, the rest grey. */
const seriesOf = (months: ReadonlyArray<MonthUsage>, t: Translate) => {
  const totals = new Map<string, { name: string; cost: number }>()
  for (const m of months) {
    for (const r of m.rows) {
      const seen = totals.get(r.application_id) ?? { name: r.name, cost: 0 }
      totals.set(r.application_id, { name: seen.name, cost: seen.cost + (r.cost_halalas ?? 0) })
    }
  }
  const ranked = [...totals.entries()].sort((a, b) =>
    b[1].cost - a[1].cost || (a[1].name < b[1].name ? -1 : a[1].name > b[1].name ? 1 : 0)
  )
  const series: Array<Series> = ranked.slice(0, palette.length).map(([key, v], i) => ({
    key,
    name: v.name,
    colour: palette[i],
  }))
  if (ranked.length > palette.length) series.push({ key: other, name: t("otherApplications"), colour: otherColour })
  const keyOf = (applicationId: string) => series.some((s) => s.key === applicationId) ? applicationId : other
  return { series, keyOf }
}

/** The smallest of 1, 2, 2.5 or 5 times a power of ten at least `n` (the chart's top line). */
const niceCeiling = (n: number): number => {
  if (n <= 0) return 100
  const power = 10 ** Math.floor(Math.log10(n))
  return [1, 2, 2.5, 5, 10].map((f) => f * power).find((v) => v >= n)!
}

const Swatch = ({ colour }: { colour: string }) => (
  <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" focusable="false">
    <rect width="14" height="14" rx="2" fill={colour} />
  </svg>
)

/**
 * The chart, drawn on the server as SVG (no script, no style: presentation attributes only), right to left in
 * Arabic; a table beside it says the same in words and numbers for whoever does not see it.
 */
const UsageChart = ({ t, lang, months }: { t: Translate; lang: Lang; months: ReadonlyArray<MonthUsage> }) => {
  const used = months.filter((m) => m.rows.length > 0)
  if (used.length === 0) return <p id="usage-none">{t("noUsage")}</p>
  const { series, keyOf } = seriesOf(months, t)
  const width = 640, height = 260, top = 16, bottom = 40, axis = 96, end = 12
  const plotWidth = width - axis - end, plotHeight = height - top - bottom
  const rtl = lang === "ar"
  /** A box's left edge, mirrored in Arabic: the months read from right to left. */
  const left = (x: number, w: number) => (rtl ? width - x - w : x)
  const perMonth = months.map((m) => {
    const values = new Map<string, number>()
    for (const r of m.rows) {
      values.set(keyOf(r.application_id), (values.get(keyOf(r.application_id)) ?? 0) + (r.cost_halalas ?? 0))
    }
    return {
      month: m.month,
      bars: series.filter((s) => values.has(s.key)).map((s) => ({ s, value: values.get(s.key)! })),
    }
  })
  const ceiling = niceCeiling(Math.max(0, ...perMonth.flatMap((m) => m.bars.map((b) => b.value))))
  const y = (value: number) => top + plotHeight - (value / ceiling) * plotHeight
  const slot = plotWidth / months.length
  const sar = (h: number) => formatSar(lang, h)
  return (
    <>
      <div class="chart">
        <svg
          xmlns="http://www.w3.org/2000/svg"
          viewBox={`0 0 ${width} ${height}`}
          role="img"
          aria-labelledby="usage-chart-title usage-chart-desc"
          direction="ltr"
          font-size="12"
          font-family="system-ui, sans-serif"
          id="usage-chart"
        >
          <title id="usage-chart-title">{t("usageChart")}</title>
          <desc id="usage-chart-desc">{t("usageChartDesc")}</desc>
          {[0, ceiling / 2, ceiling].map((v) => (
            <g class="chart-tick">
              <line
                x1={left(axis, 0)}
                x2={left(axis + plotWidth, 0)}
                y1={y(v)}
                y2={y(v)}
                stroke={v === 0 ? "#505a66" : "#c9d1d9"}
                stroke-width="1"
              />
              <text
                x={rtl ? width - 2 : axis - 6}
                y={y(v) + 4}
                text-anchor="end"
                fill="#1b1f24"
              >
                {sar(Math.round(v))}
              </text>
            </g>
          ))}
          {perMonth.map((m, i) => (
            <text
              x={left(axis + slot * i, slot) + slot / 2}
              y={height - bottom + 18}
              text-anchor="middle"
              fill="#1b1f24"
            >
              {formatMonth(lang, m.month)}
            </text>
          ))}
          {perMonth.filter((m) => m.bars.length > 0).map((m) => {
            const i = months.findIndex((x) => x.month === m.month)
            const inner = slot * 0.7
            const barWidth = inner / m.bars.length
            return (
              <g class="chart-month" data-month={m.month}>
                {m.bars.map((b, j) => {
                  const h = Math.max(b.value > 0 ? 1 : 0, top + plotHeight - y(b.value))
                  return (
                    <rect
                      class="chart-bar"
                      data-application={b.s.key}
                      x={left(axis + slot * i + (slot - inner) / 2 + barWidth * j, barWidth)}
                      y={top + plotHeight - h}
                      width={Math.max(1, barWidth - 2)}
                      height={h}
                      fill={b.s.colour}
                    >
                      <title>
                        {t("barLabel", {
                          application: b.s.name,
                          month: formatMonth(lang, m.month),
                          amount: sar(b.value),
                        })}
                      </title>
                    </rect>
                  )
                })}
              </g>
            )
          })}
        </svg>
        <ul class="legend" aria-label={t("legend")}>
          {series.map((s) => (
            <li>
              <Swatch colour={s.colour} />
              <span class="text">{s.name}</span>
            </li>
          ))}
        </ul>
      </div>
      <table id="usage-table">
        <caption>{t("usageTable")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("month")}</th>
            <th scope="col">{t("application")}</th>
            <th scope="col" class="num">{t("codesSent")}</th>
            <th scope="col" class="num">{t("codesVerified")}</th>
            <th scope="col" class="num">{t("cost")}</th>
          </tr>
        </thead>
        <tbody>
          {used.flatMap((m) =>
            m.rows.map((r) => (
              <tr data-month={m.month}>
                <td>{formatMonth(lang, m.month)}</td>
                <td class="text">{r.name}</td>
                <td class="num">{formatNumber(lang, r.codes_sent)}</td>
                <td class="num">{formatNumber(lang, r.codes_verified)}</td>
                <td class="num">{sar(r.cost_halalas ?? 0)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </>
  )
}

// ---------------------------------------------------------------------------------------------------------------

const walletBody = (ctx: PageContext, accountId: AccountId, state?: FormState) =>
  Effect.gen(function* () {
    const account = yield* (yield* Console).account(accountId)
    const w = yield* readWallet(account.id)
    const proformas = yield* (yield* WalletConsole).listProformas(account.id, Lists.maxLimit)
    const usage = yield* usageByMonth(account.id, ctx.now)
    const { t, lang, root } = ctx
    const sar = (h: number) => formatSar(lang, h)
    const base = `${root}accounts/${account.id}/wallet`
    const settings = state?.form === "settings" ? state : undefined
    const proforma = state?.form === "proforma" ? state : undefined
    const sv = (name: string, current: string) => settings === undefined ? current : (settings.values[name] ?? "")
    const body: VNode = (
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
            <dd id="wallet-alert">{sar(w.low_balance_alert_halalas)}</dd>
          </div>
          <div>
            <dt>{t("autoTopup")}</dt>
            <dd id="wallet-auto-topup">
              {w.auto_topup.enabled
                ? t("autoTopupOn", {
                  amount: sar(w.auto_topup.amount_halalas),
                  threshold: sar(w.auto_topup.threshold_halalas),
                })
                : t("no")}
            </dd>
          </div>
          <div>
            <dt>{t("card")}</dt>
            <dd>{w.card === null ? t("noCard") : `${w.card.brand} •••• ${w.card.last4}`}</dd>
          </div>
        </dl>
        {usage === undefined ? null : (
          <>
            <h2 id="usage">{t("usageChart")}</h2>
            <UsageChart t={t} lang={lang} months={usage} />
          </>
        )}
        <h2 id="topup">{t("topup")}</h2>
        <form method="post" action={`${base}/topups`} class="stack" aria-labelledby="topup">
          <Csrf token={ctx.csrf} />
          <div>
            <label for="amount">{t("amountSar")}</label>
            <input type="text" id="amount" name="amount" inputmode="decimal" required />
          </div>
          <div>
            <button type="submit">{t("makeTopupLink")}</button>
          </div>
        </form>
        <h2 id="settings">{t("walletSettings")}</h2>
        <form method="post" action={`${base}/settings`} class="stack" aria-labelledby="settings" novalidate>
          <Csrf token={ctx.csrf} />
          <FormAlert t={t} state={state} form="settings" />
          <TextField
            id="low_balance_alert"
            label={t("lowBalanceAlertSar")}
            inputmode="decimal"
            required
            value={sv("low_balance_alert", riyalsInput(w.low_balance_alert_halalas))}
            error={settings?.errors.low_balance_alert}
          />
          <div class="check">
            <input
              type="checkbox"
              id="auto_topup_enabled"
              name="auto_topup_enabled"
              checked={settings === undefined ? w.auto_topup.enabled : settings.values.auto_topup_enabled === "on"}
            />{" "}
            <label for="auto_topup_enabled">{t("autoTopupEnabled")}</label>
          </div>
          <TextField
            id="auto_topup_threshold"
            label={t("autoTopupThresholdSar")}
            inputmode="decimal"
            required
            value={sv("auto_topup_threshold", riyalsInput(w.auto_topup.threshold_halalas))}
            error={settings?.errors.auto_topup_threshold}
          />
          <TextField
            id="auto_topup_amount"
            label={t("autoTopupAmountSar")}
            inputmode="decimal"
            required
            value={sv("auto_topup_amount", riyalsInput(w.auto_topup.amount_halalas))}
            error={settings?.errors.auto_topup_amount}
          />
          <div>
            <button type="submit">{t("saveSettings")}</button>
          </div>
        </form>
        <h2 id="proformas">{t("proformas")}</h2>
        <p>{t("proformasIntro")}</p>
        <form method="post" action={`${base}/proformas`} class="stack" aria-labelledby="proformas" novalidate>
          <Csrf token={ctx.csrf} />
          <FormAlert t={t} state={state} form="proforma" />
          <TextField
            id="proforma_amount"
            label={t("proformaAmountSar")}
            inputmode="decimal"
            required
            value={proforma?.values.proforma_amount}
            error={proforma?.errors.proforma_amount}
          />
          <TextField
            id="buyer_name"
            label={t("buyerName")}
            required
            autocomplete="organization"
            value={proforma?.values.buyer_name}
            error={proforma?.errors.buyer_name}
          />
          <TextField
            id="vat_number"
            label={t("vatNumber")}
            inputmode="numeric"
            value={proforma?.values.vat_number}
            error={proforma?.errors.vat_number}
          />
          <TextField
            id="buyer_address"
            label={t("buyerAddress")}
            autocomplete="street-address"
            value={proforma?.values.buyer_address}
            error={proforma?.errors.buyer_address}
          />
          <div>
            <button type="submit">{t("createProforma")}</button>
          </div>
        </form>
        {proformas.length === 0 ? <p>{t("noProformas")}</p> : (
          <table id="proformas-list" aria-labelledby="proformas">
            <thead>
              <tr>
                <th scope="col">{t("proformaNumber")}</th>
                <th scope="col">{t("buyerName")}</th>
                <th scope="col" class="num">{t("total")}</th>
                <th scope="col">{t("status")}</th>
                <th scope="col">{t("issuedAt")}</th>
                <th scope="col">{t("expiresAt")}</th>
                <th scope="col">{t("pdf")}</th>
              </tr>
            </thead>
            <tbody>
              {proformas.map((p) => (
                <tr>
                  <td>
                    <code>{p.number}</code>
                  </td>
                  <td class="text">{p.buyer.name}</td>
                  <td class="num">{sar(p.total_halalas)}</td>
                  <td>{t(proformaStatusKey[p.status] ?? "proformaOpen")}</td>
                  <td>{formatDate(lang, p.issued_at)}</td>
                  <td>{formatDate(lang, p.expires_at)}</td>
                  <td>
                    <a
                      href={`${base}/proformas/${p.id}/pdf`}
                      type="application/pdf"
                      aria-label={t("pdfOf", { number: p.number })}
                    >
                      {t("pdf")}
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p>
          <a href={`${root}accounts/${account.id}`}>{t("account")}</a>
        </p>
      </>
    )
    return html(`${t("wallet")}: ${account.name}`, body, state === undefined ? undefined : 400)
  })

const walletPage: ConsolePage = {
  method: "GET",
  path: "/accounts/:account/wallet",
  handler: (ctx) => Effect.flatMap(accountParam(ctx), (account) => walletBody(ctx, account.id)),
}

/** The form's texts, as sent (shown again beside its errors). */
const valuesOf = (form: URLSearchParams, names: ReadonlyArray<string>): Record<string, string> =>
  Object.fromEntries(names.map((n) => [n, form.get(n) ?? ""]))

/** Each riyal field read to halalas; an empty one or one not written as riyals is the field's error. */
const riyalFields = (t: Translate, values: Readonly<Record<string, string>>, names: ReadonlyArray<string>) => {
  const errors: Record<string, string> = {}
  const halalas: Record<string, number> = {}
  for (const name of names) {
    const text = values[name] ?? ""
    if (text.trim() === "") errors[name] = t("requiredField")
    else {
      const h = halalasOf(text)
      if (h === undefined) errors[name] = t("riyalsFormat")
      else halalas[name] = h
    }
  }
  return { errors, halalas }
}

/** The operation's refusal (`400 invalid_request`) as this form's errors, the page shown again; else as it is. */
const refusedAsForm = <A,>(
  ctx: PageContext,
  accountId: AccountId,
  form: FormState["form"],
  values: Readonly<Record<string, string>>,
  names: Readonly<Record<string, readonly [string, (message: string) => string]>>,
  effect: Effect.Effect<A, unknown, any>,
) =>
  Effect.catchIf(
    effect,
    (e): e is InvalidRequest => isApiError(e) && e instanceof InvalidRequest,
    (e) => walletBody(ctx, accountId, { form, values, errors: formErrors(e, names) }),
  )

const settingsFields = ["low_balance_alert", "auto_topup_threshold", "auto_topup_amount"] as const

const putSettings: ConsolePage = {
  method: "POST",
  path: "/accounts/:account/wallet/settings",
  handler: (ctx) =>
    Effect.gen(function* () {
      const account = yield* accountParam(ctx)
      const { t, lang } = ctx
      const values = {
        ...valuesOf(ctx.form, settingsFields),
        auto_topup_enabled: ctx.form.has("auto_topup_enabled") ? "on" : "",
      }
      const { errors, halalas } = riyalFields(t, values, settingsFields)
      if (Object.keys(errors).length > 0) {
        return yield* walletBody(ctx, account.id, { form: "settings", values, errors })
      }
      const upTo = t("atMostSar", { max: formatSar(lang, Wallet.maxThresholdHalalas) })
      const amountBounds = t("betweenSar", {
        min: formatSar(lang, Wallet.topupHalalas.min),
        max: formatSar(lang, Wallet.topupHalalas.max),
      })
      return yield* refusedAsForm(
        ctx,
        account.id,
        "settings",
        values,
        {
          low_balance_alert_halalas: ["low_balance_alert", () => upTo],
          "auto_topup.threshold_halalas": ["auto_topup_threshold", () => upTo],
          "auto_topup.amount_halalas": ["auto_topup_amount", () => amountBounds],
        },
        Effect.gen(function* () {
          const body = yield* decodeSettings({
            low_balance_alert_halalas: halalas.low_balance_alert,
            auto_topup: {
              enabled: values.auto_topup_enabled === "on",
              threshold_halalas: halalas.auto_topup_threshold,
              amount_halalas: halalas.auto_topup_amount,
            },
          })
          yield* (yield* WalletConsole).updateSettings(account.id, body)
          return redirect(`accounts/${account.id}/wallet`)
        }),
      )
    }),
}

const proformaFields = ["proforma_amount", "buyer_name", "vat_number", "buyer_address"] as const

const createProforma: ConsolePage = {
  method: "POST",
  path: "/accounts/:account/wallet/proformas",
  handler: (ctx) =>
    Effect.gen(function* () {
      const account = yield* accountParam(ctx)
      const { t, lang } = ctx
      const values = valuesOf(ctx.form, proformaFields)
      const { errors, halalas } = riyalFields(t, values, ["proforma_amount"])
      if (values.buyer_name.trim() === "") errors.buyer_name = t("requiredField")
      if (Object.keys(errors).length > 0) {
        return yield* walletBody(ctx, account.id, { form: "proforma", values, errors })
      }
      const optional = (name: string) => (values[name].trim() === "" ? undefined : values[name].trim())
      return yield* refusedAsForm(
        ctx,
        account.id,
        "proforma",
        values,
        {
          amount_halalas: ["proforma_amount", () =>
            t("betweenSar", {
              min: formatSar(lang, Wallet.topupHalalas.min),
              max: formatSar(lang, Wallet.topupHalalas.max),
            })],
          // Too long or a control character: the bound; a character the PDF cannot show: the operation's words.
          "buyer.name": [
            "buyer_name",
            (m) => m.startsWith("has characters") ? m : t("textTooLong", { max: FieldLimits.maxNameLength }),
          ],
          "buyer.vat_number": ["vat_number", () => t("vatNumberFormat")],
          "buyer.address": [
            "buyer_address",
            (m) => m.startsWith("has characters") ? m : t("textTooLong", { max: 500 }),
          ],
        },
        Effect.gen(function* () {
          const body = yield* decodeProforma({
            amount_halalas: halalas.proforma_amount,
            buyer: {
              name: values.buyer_name,
              ...(optional("vat_number") === undefined ? {} : { vat_number: optional("vat_number") }),
              ...(optional("buyer_address") === undefined ? {} : { address: optional("buyer_address") }),
            },
          })
          yield* (yield* WalletTopups).createProforma(account.id, body)
          return redirect(`accounts/${account.id}/wallet`)
        }),
      )
    }),
}

/** A proforma's PDF, as `wallet.proformas.pdf` makes it (another account's proforma: `not_found`). */
const proformaPdf: ConsolePage = {
  method: "GET",
  path: "/accounts/:account/wallet/proformas/:id/pdf",
  handler: (ctx) =>
    Effect.gen(function* () {
      const account = yield* accountParam(ctx)
      const pdf = yield* (yield* WalletTopups).proformaPdf(account.id, ctx.params.id ?? "")
      return file("application/pdf", `${pdf.number}.pdf`, pdf.bytes)
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
      const id = yield* uuidParam(ctx, "id")
      const body = yield* decodePay({})
      yield* (yield* WalletTopups).payLink(id, body.save_card === true ? simulatedCard(id) : null)
      const account = ctx.form.get("account") ?? ""
      return redirect(isUuid(account) ? `accounts/${account}/wallet` : "accounts")
    }),
}

export const walletPages: ReadonlyArray<ConsolePage> = [walletPage, topupLink, putSettings, createProforma, proformaPdf]
export const paymentsSimulatorPages: ReadonlyArray<ConsolePage> = [paySimulated]
