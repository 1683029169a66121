/** @jsxImportSource preact */
/**
 * Verify's console page of an application: its settings as a form over `console.verify_settings.put` (every
 * field decoded by that operation's Schema, so a value out of DECISIONS' bounds is the field's error and nothing
 * is saved), and the protection guard's state: its settings, whether the application is paused, and the rolling
 * hour's count the guard judges (DECISIONS 6), read as the guard reads it.
 */
import { Clock, Effect } from "effect"
import type { Application } from "../../../core/accounts/model.ts"
import { Console } from "../../../core/console/service.ts"
import { GuardDefaults, VerifyLimits } from "../../../core/limits.ts"
import type { Millis } from "../../../core/shared/brands.ts"
import { verifyConsoleOperations } from "../../../core/verify/console-operations.ts"
import { VerifyConsole } from "../../../core/verify/console.ts"
import { guardEpoch, guardSince } from "../../../core/verify/guard.ts"
import type { VerifySettings } from "../../../core/verify/model.ts"
import { Verify } from "../../../core/verify/service.ts"
import { VerifySendsRepo } from "../../../ports/store/verify.ts"
import { described, Field, type FieldErrors, orFormErrors, RefusedSummary } from "../fields.tsx"
import { bodyDecoder } from "../forms.ts"
import { formatNumber, formatSar, type MessageKey } from "../i18n.ts"
import { Csrf } from "../layout.tsx"
import { type ConsolePage, html, type PageAnswer, type PageContext, redirect, uuidParam } from "../page.ts"

const decodeSettings = bodyDecoder(verifyConsoleOperations, "console.verify_settings.put")

/** The six settings of DECISIONS 3, in the form's order, with their bounds (shown as each field's hint). */
const bounded: ReadonlyArray<{ name: keyof VerifySettings; label: MessageKey; min: number; max: number }> = [
  { name: "code_length", label: "codeLength", ...VerifyLimits.codeLength },
  { name: "code_lifetime_minutes", label: "codeLifetimeMinutes", ...VerifyLimits.codeLifetimeMinutes },
  { name: "max_attempts", label: "maxAttempts", ...VerifyLimits.maxAttempts },
  { name: "hourly_cap_per_destination", label: "hourlyCapPerDestination", ...VerifyLimits.hourlyCapPerDestination },
  { name: "max_per_ip_per_hour", label: "maxPerIpPerHour", ...VerifyLimits.maxPerIpPerHour },
]

/** A typed number as the operation takes it: whole digits as a number, anything else as typed (the Schema says no). */
const numberOf = (typed: string): number | string => (/^-?\d{1,15}$/.test(typed) ? Number(typed) : typed)

/** The form's fields as the operation's body; an empty setting is not given, an empty spend cap is none. */
const changeOf = (form: URLSearchParams): Record<string, unknown> => {
  const body: Record<string, unknown> = {}
  for (const { name } of bounded) {
    const typed = (form.get(name) ?? "").trim()
    if (typed !== "") body[name] = numberOf(typed)
  }
  const cap = (form.get("daily_spend_cap_halalas") ?? "").trim()
  body.daily_spend_cap_halalas = cap === "" ? null : numberOf(cap)
  const guard: Record<string, unknown> = { enabled: form.has("guard.enabled") }
  for (const name of ["min_sends", "min_verified_percent"]) {
    const typed = (form.get(`guard.${name}`) ?? "").trim()
    if (typed !== "") guard[name] = numberOf(typed)
  }
  body.guard = guard
  return body
}

/** A field's id in the page (`guard.min_sends` is `guard-min_sends`). */
const idOf = (name: string) => `setting-${name.replace(".", "-")}`

const applicationOf = (ctx: PageContext) =>
  Effect.gen(function* () {
    return yield* (yield* Console).application(yield* uuidParam(ctx, "application"))
  })

/** The page: the guard's state, then the settings form (as saved, or as typed with its refusals). */
const render = (
  ctx: PageContext,
  app: Application,
  refused?: { readonly fields: FieldErrors; readonly typed: URLSearchParams },
) =>
  Effect.gen(function* () {
    const saved = yield* (yield* Verify).settingsOf(app)
    const now = (yield* Clock.currentTimeMillis) as Millis
    const stats = yield* (yield* VerifySendsRepo).guardStats(app.id, guardEpoch(app), guardSince(now))
    const { t, root, lang } = ctx
    const value = (name: string, current: number | null) =>
      refused !== undefined ? (refused.typed.get(name) ?? "") : current === null ? "" : String(current)
    const errorOf = (name: string) => refused?.fields[name]
    const percent = stats.sends === 0 ? null : Math.floor((stats.verified * 100) / stats.sends)
    const guardOn = refused !== undefined ? refused.typed.has("guard.enabled") : saved.guard.enabled
    const number = (name: string, label: string, current: number | null, hint: string) => {
      const id = idOf(name)
      const error = errorOf(name)
      return (
        <Field id={id} label={label} hint={hint} error={error}>
          <input type="number" id={id} name={name} value={value(name, current)} {...described(id, true, error)} />
        </Field>
      )
    }
    const answer: PageAnswer = html(
      t("verifySettingsOf", { name: app.name }),
      <>
        <p>
          <a href={`${root}applications/${app.id}`}>{t("backToApplication")}</a>
        </p>
        {ctx.req.query.get("saved") === "1" && refused === undefined
          ? <p class="ok" role="status">{t("settingsSaved")}</p>
          : null}
        <h2 id="guard">{t("guardState")}</h2>
        <dl class="fields" aria-labelledby="guard">
          <div>
            <dt>{t("sendingState")}</dt>
            <dd id="paused-state">{app.paused ? t("pausedNow") : t("notPaused")}</dd>
          </div>
          <div>
            <dt>{t("guardEnabled")}</dt>
            <dd id="guard-enabled">{saved.guard.enabled ? t("yes") : t("no")}</dd>
          </div>
          <div>
            <dt>{t("guardRule")}</dt>
            <dd>
              {t("guardRuleText", {
                min_sends: saved.guard.min_sends,
                percent: saved.guard.min_verified_percent,
              })}
            </dd>
          </div>
          <div>
            <dt>{t("lastHour")}</dt>
            <dd id="guard-hour">
              {t("lastHourText", { sent: stats.sends, verified: stats.verified })}
              {percent === null ? null : ` (${formatNumber(lang, percent)}%)`}
            </dd>
          </div>
        </dl>
        <h2 id="settings">{t("verifySettings")}</h2>
        {refused === undefined ? null : <RefusedSummary text={t("formRefused")} />}
        <form
          method="post"
          action={`${root}applications/${app.id}/verify`}
          class="stack"
          aria-labelledby="settings"
          novalidate
        >
          <Csrf token={ctx.csrf} />
          {bounded.map((b) =>
            number(
              b.name,
              t(b.label),
              saved[b.name] as number,
              t("between", { min: b.min, max: b.max }),
            )
          )}
          {number(
            "daily_spend_cap_halalas",
            t("dailySpendCap"),
            saved.daily_spend_cap_halalas,
            saved.daily_spend_cap_halalas === null
              ? t("spendCapHint")
              : `${t("spendCapHint")} ${formatSar(lang, saved.daily_spend_cap_halalas)}`,
          )}
          <fieldset>
            <legend>{t("guard")}</legend>
            <div class="check">
              <input type="checkbox" id="guard-enabled-input" name="guard.enabled" value="true" checked={guardOn} />
              {" "}
              <label for="guard-enabled-input">{t("guardEnabled")}</label>
            </div>
            {number(
              "guard.min_sends",
              t("guardMinSends"),
              saved.guard.min_sends,
              t("atLeast", { min: 1, default: GuardDefaults.minSends }),
            )}
            {number(
              "guard.min_verified_percent",
              t("guardMinVerifiedPercent"),
              saved.guard.min_verified_percent,
              t("between", { min: 0, max: 100 }),
            )}
          </fieldset>
          <div>
            <button type="submit">{t("saveSettings")}</button>
          </div>
        </form>
      </>,
      refused === undefined ? undefined : 400,
    )
    return answer
  })

const verifyPage: ConsolePage = {
  method: "GET",
  path: "/applications/:application/verify",
  handler: (ctx) => Effect.flatMap(applicationOf(ctx), (app) => render(ctx, app)),
}

const saveSettings: ConsolePage = {
  method: "POST",
  path: "/applications/:application/verify",
  handler: (ctx) =>
    Effect.gen(function* () {
      const app = yield* applicationOf(ctx)
      return yield* orFormErrors(
        Effect.gen(function* () {
          const change = yield* decodeSettings(changeOf(ctx.form))
          yield* (yield* VerifyConsole).putVerifySettings(app.id, change)
          return redirect(`applications/${app.id}/verify?saved=1`)
        }),
        (fields) => render(ctx, app, { fields, typed: ctx.form }),
      )
    }),
}

export const verifyPages: ReadonlyArray<ConsolePage> = [verifyPage, saveSettings]
