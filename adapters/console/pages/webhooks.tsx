/** @jsxImportSource preact */
/**
 * The webhooks' console pages for an application: its endpoint (set as `console.applications.webhook.put` sets
 * it, its URL decoded by that operation's Schema; the signing secret shown once, when the endpoint is first made),
 * the signing secret rotated (`console.applications.webhook.rotate_secret`, the new one shown once), a test event (`console.applications.webhook.test`), the delivery log with each attempt
 * (`console.webhook_deliveries.list`) and a replay (`console.webhook_deliveries.replay`).
 */
import { Effect, Option } from "effect"
import { WebhookConsole } from "../../../core/webhooks/console.ts"
import { isUuid } from "../../../core/shared/brands.ts"
import { webhookOperations } from "../../../core/webhooks/operations.ts"
import { WebhookPolicy } from "../../../core/webhooks/url-policy.ts"
import { bodyDecoder, formBody } from "../forms.ts"
import { formatDate } from "../i18n.ts"
import { Csrf, ShownOnce } from "../layout.tsx"
import { type ConsolePage, html, type PageContext, redirect, uuidParam } from "../page.ts"

const decodeEndpoint = bodyDecoder(webhookOperations, "console.applications.webhook.put")
const decodeRehearsal = bodyDecoder(webhookOperations, "console.applications.webhook.test")
const decodeRotation = bodyDecoder(webhookOperations, "console.applications.webhook.rotate_secret")

const applicationParam = (ctx: PageContext) => uuidParam(ctx, "application")

const webhookPage: ConsolePage = {
  method: "GET",
  path: "/applications/:application/webhook",
  handler: (ctx) =>
    Effect.gen(function* () {
      const webhooks = yield* WebhookConsole
      const id = yield* applicationParam(ctx)
      const endpoint = yield* webhooks.endpointOf("application", id)
      const log = Option.isSome(endpoint) ? yield* webhooks.list({ application: id, limit: 50 }) : []
      const { t, lang, root } = ctx
      return html(
        t("webhook"),
        <>
          <p>
            <a href={`${root}applications/${id}`}>{t("application")}</a>
          </p>
          <h2 id="endpoint">{t("endpoint")}</h2>
          <form method="post" action={`${root}applications/${id}/webhook`} class="stack" aria-labelledby="endpoint">
            <Csrf token={ctx.csrf} />
            <div>
              <label for="url">{t("endpointUrl")}</label>
              <input
                type="text"
                id="url"
                name="url"
                inputmode="url"
                dir="ltr"
                required
                value={Option.isSome(endpoint) ? endpoint.value.url : ""}
              />
            </div>
            <div>
              <button type="submit">{t("saveEndpoint")}</button>
            </div>
          </form>
          {Option.isNone(endpoint) ? null : (
            <>
              <form method="post" action={`${root}applications/${id}/webhook/test`} class="stack">
                <Csrf token={ctx.csrf} />
                <div>
                  <button type="submit" class="secondary">{t("sendTestEvent")}</button>
                </div>
              </form>
              <h2 id="signing-secret">{t("signingSecret")}</h2>
              <p id="rotate-intro">{t("rotateSecretIntro")}</p>
              <form
                method="post"
                action={`${root}applications/${id}/webhook/secret/rotate`}
                class="stack"
                aria-labelledby="signing-secret"
                aria-describedby="rotate-intro"
                data-confirm={t("confirmRotate")}
              >
                <Csrf token={ctx.csrf} />
                <div>
                  <button type="submit" class="secondary">{t("rotateSecret")}</button>
                </div>
              </form>
            </>
          )}
          <h2 id="deliveries">{t("deliveries")}</h2>
          {log.length === 0 ? <p>{t("noDeliveries")}</p> : (
            <table aria-labelledby="deliveries">
              <thead>
                <tr>
                  <th scope="col">{t("event")}</th>
                  <th scope="col">{t("status")}</th>
                  <th scope="col">{t("attempts")}</th>
                  <th scope="col">{t("created")}</th>
                  <th scope="col">
                    <span class="muted">{t("replay")}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {log.map((d) => (
                  <tr>
                    <td>
                      <code>{d.event}</code>
                      {d.test ? <span class="muted">{` (${t("testEvent")})`}</span> : null}
                    </td>
                    <td class="delivery-status">{d.status}</td>
                    <td>
                      {d.attempts.length === 0 ? <span class="muted">{t("nothing")}</span> : (
                        <ol class="value-list">
                          {d.attempts.map((a) => (
                            <li>
                              {formatDate(lang, a.at)}:{" "}
                              {a.status_code === null ? (a.error ?? "") : String(a.status_code)}
                            </li>
                          ))}
                        </ol>
                      )}
                    </td>
                    <td>{formatDate(lang, d.created_at)}</td>
                    <td>
                      <form method="post" action={`${root}webhook-deliveries/${d.id}/replay`} class="inline">
                        <Csrf token={ctx.csrf} />
                        <input type="hidden" name="application" value={id} />
                        <button
                          type="submit"
                          class="secondary"
                          aria-label={`${t("replay")} ${d.event} ${d.id.slice(0, 8)}`}
                        >
                          {t("replay")}
                        </button>
                      </form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>,
      )
    }),
}

const putEndpoint: ConsolePage = {
  method: "POST",
  path: "/applications/:application/webhook",
  handler: (ctx) =>
    Effect.gen(function* () {
      const webhooks = yield* WebhookConsole
      const id = yield* applicationParam(ctx)
      const before = yield* webhooks.endpointOf("application", id)
      const body = yield* decodeEndpoint(formBody(ctx.form, ["url"]))
      const policy = yield* WebhookPolicy
      const saved = yield* webhooks.putEndpoint("application", id, body, policy.allowPrivate)
      // The signing secret is made with the endpoint: shown that once, then never again.
      if (Option.isSome(before)) return redirect(`applications/${id}/webhook`)
      const { t, root } = ctx
      return html(
        t("signingSecret"),
        <>
          <ShownOnce t={t} id="new-secret" secret={saved.secret} />
          <p>
            <a href={`${root}applications/${id}/webhook`}>{t("continue")}</a>
          </p>
        </>,
        201,
      )
    }),
}

const sendTest: ConsolePage = {
  method: "POST",
  path: "/applications/:application/webhook/test",
  handler: (ctx) =>
    Effect.gen(function* () {
      const webhooks = yield* WebhookConsole
      const id = yield* applicationParam(ctx)
      yield* webhooks.rehearse("application", id, yield* decodeRehearsal({}))
      return redirect(`applications/${id}/webhook`)
    }),
}

/** A new signing secret, shown this once; the old one signs nothing more. */
const rotateSecret: ConsolePage = {
  method: "POST",
  path: "/applications/:application/webhook/secret/rotate",
  handler: (ctx) =>
    Effect.gen(function* () {
      const webhooks = yield* WebhookConsole
      const id = yield* applicationParam(ctx)
      yield* decodeRotation({})
      const rotated = yield* webhooks.rotateSecret("application", id)
      const { t, root } = ctx
      return html(
        t("newSigningSecret"),
        <>
          <ShownOnce t={t} id="new-secret" secret={rotated.secret} />
          <p>
            <a href={`${root}applications/${id}/webhook`}>{t("continue")}</a>
          </p>
        </>,
      )
    }),
}

const replay: ConsolePage = {
  method: "POST",
  path: "/webhook-deliveries/:delivery/replay",
  handler: (ctx) =>
    Effect.gen(function* () {
      const webhooks = yield* WebhookConsole
      const id = yield* uuidParam(ctx, "delivery")
      yield* webhooks.replay(id)
      const application = ctx.form.get("application") ?? ""
      return redirect(isUuid(application) ? `applications/${application}/webhook` : "accounts")
    }),
}

export const webhookPages: ReadonlyArray<ConsolePage> = [webhookPage, putEndpoint, rotateSecret, sendTest, replay]
