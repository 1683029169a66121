/** @jsxImportSource preact */
/**
 * The simulators' console pages, served only while each simulator is selected (development): the SMS
 * simulator's inbox of a number (`console.simulator.sms.list`) and the simulated clock with its advance
 * (`console.simulator.clock.advance`, running every job that falls due on the way).
 */
import { Clock, Effect, Option } from "effect"
import { fieldsRefused } from "../../../core/pipeline/decode.ts"
import { parseSaudiMobile } from "../../../core/shared/phone.ts"
import { ClockSimulator } from "../../../ports/clock-simulator.ts"
import { SimulatedSmsRepo } from "../../../ports/store/simulator.ts"
import { formatDate } from "../i18n.ts"
import { Csrf } from "../layout.tsx"
import { type ConsolePage, html, redirect } from "../page.ts"

const smsInbox: ConsolePage = {
  method: "GET",
  path: "/simulator/sms",
  nav: { label: "smsInbox", order: 90 },
  handler: (ctx) =>
    Effect.gen(function* () {
      const asked = ctx.req.query.get("to") ?? ""
      const to = asked === "" ? Option.none() : parseSaudiMobile(asked)
      if (asked !== "" && Option.isNone(to)) {
        return yield* fieldsRefused({ to: "a Saudi mobile number" }, { to: "invalid" })
      }
      const texts = Option.isSome(to) ? yield* (yield* SimulatedSmsRepo).listTo(to.value, 100) : []
      const { t, lang, root } = ctx
      return html(
        t("smsInbox"),
        <>
          <form method="get" action={`${root}simulator/sms`} class="stack">
            <div>
              <label for="to">{t("mobileNumber")}</label>
              <input type="text" id="to" name="to" inputmode="tel" dir="ltr" required value={asked} />
            </div>
            <div>
              <button type="submit">{t("show")}</button>
            </div>
          </form>
          {Option.isNone(to) ? null : texts.length === 0 ? <p>{t("noTexts")}</p> : (
            <table>
              <thead>
                <tr>
                  <th scope="col">{t("sentAt")}</th>
                  <th scope="col">{t("text")}</th>
                </tr>
              </thead>
              <tbody>
                {texts.map((m) => (
                  <tr>
                    <td>{formatDate(lang, m.sentAt)}</td>
                    <td class="text sms-text">{m.text}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>,
      )
    }),
}

const clockPage: ConsolePage = {
  method: "GET",
  path: "/simulator/clock",
  nav: { label: "simulatedClock", order: 91 },
  handler: (ctx) =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const { t, lang, root } = ctx
      return html(
        t("simulatedClock"),
        <>
          <p>
            {`${t("now")}: `}
            <span id="clock-now">{formatDate(lang, now)}</span>
          </p>
          <form method="post" action={`${root}simulator/clock`} class="stack">
            <Csrf token={ctx.csrf} />
            <div>
              <label for="minutes">{t("advanceMinutes")}</label>
              <input type="number" id="minutes" name="minutes" min={0} step={1} required />
            </div>
            <div>
              <button type="submit">{t("advance")}</button>
            </div>
          </form>
        </>,
      )
    }),
}

const advance: ConsolePage = {
  method: "POST",
  path: "/simulator/clock",
  handler: (ctx) =>
    Effect.gen(function* () {
      const minutes = ctx.form.get("minutes") ?? ""
      // At most a year at once: the advance runs every job that falls due on the way.
      if (!/^\d{1,6}$/.test(minutes) || Number(minutes) > 366 * 24 * 60) {
        return yield* fieldsRefused({ minutes: "a whole number of minutes, at most a year" }, { minutes: "invalid" })
      }
      yield* (yield* ClockSimulator).advance(Number(minutes) * 60_000)
      return redirect("simulator/clock")
    }),
}

export const smsSimulatorPages: ReadonlyArray<ConsolePage> = [smsInbox]
export const clockSimulatorPages: ReadonlyArray<ConsolePage> = [clockPage, advance]
