/** @jsxImportSource preact */
/**
 * The accounts product's console pages: accounts, their applications, keys and account tokens. Each form is a
 * console operation (core/console/operations.ts), its fields decoded by that operation's Schema and run by the
 * `Console` service; a new key or token is shown once, in the answer to its form, and after that only its
 * prefix (the store keeps the secret's keyed hash, never the secret).
 */
import { Effect } from "effect"
import type { Application } from "../../../core/accounts/model.ts"
import { consoleOperations } from "../../../core/console/operations.ts"
import { Console } from "../../../core/console/service.ts"
import type { Credential } from "../../../core/keys/model.ts"
import { keyPrefix } from "../../../core/shared/key-mode.ts"
import { reasonCodes } from "../../../core/partner/lifecycle.ts"
import { unpauseApplication } from "../../../core/accounts/unpause.ts"
import { described, Field, type FieldErrors, orFormErrors, RefusedSummary } from "../fields.tsx"
import { bodyDecoder, formBody } from "../forms.ts"
import { formatDate, type Translate } from "../i18n.ts"
import { Csrf, ShownOnce } from "../layout.tsx"
import { type ConsolePage, html, type PageContext, redirect, uuidParam } from "../page.ts"
import { roleKey } from "./approvals.tsx"

const decodeAccount = bodyDecoder(consoleOperations, "console.accounts.create")
const decodeApplication = bodyDecoder(consoleOperations, "console.applications.create")
const decodeKey = bodyDecoder(consoleOperations, "console.keys.create")
const decodeToken = bodyDecoder(consoleOperations, "console.account_tokens.create")
const decodeReject = bodyDecoder(consoleOperations, "console.applications.reject")

/** What the console keeps of a secret: its kind's prefix, then the key's id (the secret itself is not kept). */
const prefixOf = (c: Credential) => `${keyPrefix(c.kind === "account_token" ? "account_token" : c.mode!)}…`

const accessText = (c: Credential) => (Array.isArray(c.access) ? c.access.join(", ") : String(c.access))

const accountsPage: ConsolePage = {
  method: "GET",
  path: "/accounts",
  nav: { label: "accounts", order: 20 },
  handler: (ctx) =>
    Effect.gen(function* () {
      const console = yield* Console
      const list = yield* console.recentAccounts
      const { t, root, lang } = ctx
      return html(
        t("accounts"),
        <>
          {list.length === 0 ? <p>{t("noAccounts")}</p> : (
            <table>
              <thead>
                <tr>
                  <th scope="col">{t("name")}</th>
                  <th scope="col">{t("sandboxOnly")}</th>
                  <th scope="col">{t("created")}</th>
                </tr>
              </thead>
              <tbody>
                {list.map((a) => (
                  <tr>
                    <td>
                      <a href={`${root}accounts/${a.id}`} class="text">{a.name}</a>
                    </td>
                    <td>{a.sandboxOnly ? t("yes") : t("no")}</td>
                    <td>{formatDate(lang, a.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h2 id="create-account">{t("createAccount")}</h2>
          <form method="post" action={`${root}accounts`} class="stack" aria-labelledby="create-account">
            <Csrf token={ctx.csrf} />
            <div>
              <label for="account-name">{t("name")}</label>
              <input type="text" id="account-name" name="name" required />
            </div>
            <div class="check">
              <input type="checkbox" id="sandbox-only" name="sandbox_only" value="true" />{" "}
              <label for="sandbox-only">{t("sandboxOnly")}</label>
            </div>
            <div>
              <button type="submit">{t("createAccount")}</button>
            </div>
          </form>
        </>,
      )
    }),
}

const createAccount: ConsolePage = {
  method: "POST",
  path: "/accounts",
  handler: (ctx) =>
    Effect.gen(function* () {
      const console = yield* Console
      const body = yield* decodeAccount(formBody(ctx.form, ["name"], ["sandbox_only"]))
      const created = yield* console.createAccount(body)
      return redirect(`accounts/${created.id}`)
    }),
}

const KeysTable = (
  { list, ctx, back, t }: { list: ReadonlyArray<Credential>; ctx: PageContext; back: string; t: Translate },
) => (
  <table>
    <thead>
      <tr>
        <th scope="col">{t("prefix")}</th>
        <th scope="col">{t("mode")}</th>
        <th scope="col">{t("access")}</th>
        <th scope="col">{t("expiry")}</th>
        <th scope="col">{t("ipAllowlist")}</th>
        <th scope="col">{t("status")}</th>
        <th scope="col">
          <span class="muted">{t("revoke")}</span>
        </th>
      </tr>
    </thead>
    <tbody>
      {list.map((c) => (
        <tr>
          <td>
            <code>{prefixOf(c)}</code> <span class="muted">{c.id.slice(0, 8)}</span>
          </td>
          <td>
            {c.kind === "account_token"
              ? t(roleKey[c.holder?.role ?? "owner"])
              : c.mode === "live"
              ? t("modeLive")
              : c.mode === "test"
              ? t("modeTest")
              : c.mode}
            {c.holder?.email ? <span class="text">{` ${c.holder.email}`}</span> : null}
          </td>
          <td>{accessText(c)}</td>
          <td>{c.expiresAt === null ? t("never") : formatDate(ctx.lang, c.expiresAt)}</td>
          <td class="allowlist">
            {c.ipAllowlist.length === 0
              ? <span class="muted">{t("everyAddress")}</span>
              : <code>{c.ipAllowlist.join(", ")}</code>}
          </td>
          <td>{c.revokedAt === null ? t("active") : t("revoked")}</td>
          <td>
            {c.revokedAt !== null ? null : (
              <form
                method="post"
                action={`${ctx.root}keys/${c.id}/revoke`}
                class="inline"
                data-confirm={t("confirmRevoke")}
              >
                <Csrf token={ctx.csrf} />
                <input type="hidden" name="back" value={back} />
                <button
                  type="submit"
                  class="secondary"
                  aria-label={`${t("revoke")} ${prefixOf(c)} ${c.id.slice(0, 8)}`}
                >
                  {t("revoke")}
                </button>
              </form>
            )}
          </td>
        </tr>
      ))}
    </tbody>
  </table>
)

/** A key form refused: its fields' messages and what was typed. */
interface KeyFormRefusal {
  readonly fields: FieldErrors
  readonly typed: URLSearchParams
}

const statusText = (t: Translate, a: Application) => `${a.status}${a.paused ? ` (${t("paused")})` : ""}`

const accountPage: ConsolePage = {
  method: "GET",
  path: "/accounts/:account",
  handler: (ctx) =>
    Effect.gen(function* () {
      const console = yield* Console
      const id = yield* uuidParam(ctx, "account")
      const account = yield* console.account(id)
      const apps = yield* console.applicationsOf(id)
      const tokens = (yield* console.credentialsOf(id)).filter((c) => c.kind === "account_token")
      const { t, root } = ctx
      return html(
        account.name,
        <>
          <p>
            <a href={`${root}accounts/${account.id}/wallet`}>{t("wallet")}</a>
          </p>
          <h2 id="applications">{t("applications")}</h2>
          {apps.length === 0 ? <p>{t("noApplications")}</p> : (
            <table aria-labelledby="applications">
              <thead>
                <tr>
                  <th scope="col">{t("name")}</th>
                  <th scope="col">{t("status")}</th>
                </tr>
              </thead>
              <tbody>
                {apps.map((a) => (
                  <tr>
                    <td>
                      <a href={`${root}applications/${a.id}`} class="text">{a.name}</a>
                    </td>
                    <td>{statusText(t, a)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h2 id="create-application">{t("createApplication")}</h2>
          <form
            method="post"
            action={`${root}accounts/${account.id}/applications`}
            class="stack"
            aria-labelledby="create-application"
          >
            <Csrf token={ctx.csrf} />
            <div>
              <label for="application-name">{t("name")}</label>
              <input type="text" id="application-name" name="name" required />
            </div>
            <div class="check">
              <input type="checkbox" id="approved" name="approved" value="true" />{" "}
              <label for="approved">{t("approvedNow")}</label>
            </div>
            <div>
              <button type="submit">{t("createApplication")}</button>
            </div>
          </form>
          <h2 id="tokens">{t("accountTokens")}</h2>
          {tokens.length === 0
            ? <p>{t("noTokens")}</p>
            : <KeysTable list={tokens} ctx={ctx} back={`accounts/${account.id}`} t={t} />}
          <h2 id="create-token">{t("createToken")}</h2>
          <form
            method="post"
            action={`${root}accounts/${account.id}/tokens`}
            class="stack"
            aria-labelledby="create-token"
          >
            <Csrf token={ctx.csrf} />
            <div>
              <label for="token-role">{t("role")}</label>
              <select id="token-role" name="role">
                <option value="owner">{t("roleOwner")}</option>
                <option value="admin">{t("roleAdmin")}</option>
                <option value="agent">{t("roleAgent")}</option>
              </select>
            </div>
            <div>
              <label for="token-email">{t("email")}</label>
              <input type="email" id="token-email" name="email" dir="ltr" />
            </div>
            <div>
              <button type="submit">{t("createToken")}</button>
            </div>
          </form>
        </>,
      )
    }),
}

const createApplication: ConsolePage = {
  method: "POST",
  path: "/accounts/:account/applications",
  handler: (ctx) =>
    Effect.gen(function* () {
      const console = yield* Console
      const id = yield* uuidParam(ctx, "account")
      const body = yield* decodeApplication(formBody(ctx.form, ["name"], ["approved"]))
      const created = yield* console.createApplication(id, body)
      return redirect(`applications/${created.id}`)
    }),
}

const createToken: ConsolePage = {
  method: "POST",
  path: "/accounts/:account/tokens",
  handler: (ctx) =>
    Effect.gen(function* () {
      const console = yield* Console
      const id = yield* uuidParam(ctx, "account")
      const body = yield* decodeToken(formBody(ctx.form, ["role", "email"]))
      const created = yield* console.createAccountToken(id, body)
      const { t, root } = ctx
      return html(
        t("newToken"),
        <>
          <ShownOnce t={t} id="new-secret" secret={created.token} />
          <p>
            <a href={`${root}accounts/${id}`}>{t("continue")}</a>
          </p>
        </>,
        201,
      )
    }),
}

/** An application's page: its state and moves, its keys, and the key form (as typed, with its refusals, if any). */
const renderApplication = (ctx: PageContext, appId: string, refused?: KeyFormRefusal) =>
  Effect.gen(function* () {
    const console = yield* Console
    const app = yield* console.application(appId)
    const keys = (yield* console.credentialsOf(app.accountId)).filter((c) => c.applicationId === app.id)
    const { t, root } = ctx
    const ipError = refused?.fields.ip_allowlist
    return html(
      app.name,
      <>
        <dl class="fields">
          <div>
            <dt>{t("status")}</dt>
            <dd id="application-status">{statusText(t, app)}</dd>
          </div>
          <div>
            <dt>{t("account")}</dt>
            <dd>
              <a href={`${root}accounts/${app.accountId}`}>{t("account")}</a>
            </dd>
          </div>
        </dl>
        <ul class="links">
          <li>
            <a href={`${root}applications/${app.id}/verify`}>{t("verifySettings")}</a>
          </li>
          <li>
            <a href={`${root}applications/${app.id}/webhook`}>{t("webhook")}</a>
          </li>
        </ul>
        <form
          method="post"
          action={`${root}applications/${app.id}/${app.paused ? "unpause" : "pause"}`}
          class="stack"
          data-confirm={app.paused ? undefined : t("confirmPause")}
        >
          <Csrf token={ctx.csrf} />
          <p class="muted">{app.paused ? t("unpauseHint") : t("pauseHint")}</p>
          <div>
            <button type="submit" class={app.paused ? undefined : "secondary"}>
              {app.paused ? t("unpauseApplication") : t("pauseApplication")}
            </button>
          </div>
        </form>
        {app.status === "pending" || app.status === "rejected"
          ? (
            <>
              <form method="post" action={`${root}applications/${app.id}/approve`} class="stack">
                <Csrf token={ctx.csrf} />
                <div>
                  <button type="submit">{t("approveApplication")}</button>
                </div>
              </form>
              {app.status !== "pending"
                ? null
                : (
                  <form method="post" action={`${root}applications/${app.id}/reject`} class="stack">
                    <Csrf token={ctx.csrf} />
                    <div>
                      <label for="reason-code">{t("reasonCode")}</label>
                      <select id="reason-code" name="reason_code">
                        {reasonCodes.map((code) => <option key={code} value={code}>{code}</option>)}
                      </select>
                    </div>
                    <div>
                      <label for="reject-note">{t("note")}</label>
                      <textarea id="reject-note" name="note" rows={2} maxlength={1000} />
                    </div>
                    <div>
                      <button type="submit" class="danger">{t("rejectApplication")}</button>
                    </div>
                  </form>
                )}
            </>
          )
          : null}
        <h2 id="keys">{t("keys")}</h2>
        {keys.length === 0
          ? <p>{t("noKeys")}</p>
          : <KeysTable list={keys} ctx={ctx} back={`applications/${app.id}`} t={t} />}
        <h2 id="create-key">{t("createKey")}</h2>
        {refused === undefined ? null : <RefusedSummary text={t("formRefused")} />}
        <form method="post" action={`${root}applications/${app.id}/keys`} class="stack" aria-labelledby="create-key">
          <Csrf token={ctx.csrf} />
          <div>
            <label for="key-mode">{t("mode")}</label>
            <select id="key-mode" name="mode">
              <option value="live" selected={refused?.typed.get("mode") !== "test"}>{t("modeLive")}</option>
              <option value="test" selected={refused?.typed.get("mode") === "test"}>{t("modeTest")}</option>
            </select>
          </div>
          <Field id="key-ip-allowlist" label={t("ipAllowlist")} hint={t("ipAllowlistHint")} error={ipError}>
            <textarea
              id="key-ip-allowlist"
              name="ip_allowlist"
              rows={3}
              dir="ltr"
              spellcheck={false}
              {...described("key-ip-allowlist", true, ipError)}
            >
              {refused?.typed.get("ip_allowlist") ?? ""}
            </textarea>
          </Field>
          <div>
            <button type="submit">{t("createKey")}</button>
          </div>
        </form>
      </>,
      refused === undefined ? undefined : 400,
    )
  })

const applicationPage: ConsolePage = {
  method: "GET",
  path: "/applications/:application",
  handler: (ctx) => Effect.flatMap(uuidParam(ctx, "application"), (id) => renderApplication(ctx, id)),
}

const approveApplication: ConsolePage = {
  method: "POST",
  path: "/applications/:application/approve",
  handler: (ctx) =>
    Effect.gen(function* () {
      const console = yield* Console
      const id = yield* uuidParam(ctx, "application")
      yield* console.approve(id)
      return redirect(`applications/${id}`)
    }),
}

const createKey: ConsolePage = {
  method: "POST",
  path: "/applications/:application/keys",
  handler: (ctx) =>
    Effect.gen(function* () {
      const console = yield* Console
      const id = yield* uuidParam(ctx, "application")
      const typed = formBody(ctx.form, ["mode"])
      const lines = (ctx.form.get("ip_allowlist") ?? "").split(/[\s,]+/).filter((l) => l !== "")
      if (lines.length > 0) typed.ip_allowlist = lines
      const made = yield* orFormErrors(
        Effect.map(Effect.flatMap(decodeKey(typed), (body) => console.createKey(id, body)), (key) => ({ key })),
        (fields) => Effect.map(renderApplication(ctx, id, { fields, typed: ctx.form }), (page) => ({ page })),
      )
      if ("page" in made) return made.page
      const created = made.key
      const { t, root } = ctx
      return html(
        t("newKey"),
        <>
          <ShownOnce t={t} id="new-secret" secret={created.key} />
          <p>
            <a href={`${root}applications/${id}`}>{t("continue")}</a>
          </p>
        </>,
        201,
      )
    }),
}

const rejectApplication: ConsolePage = {
  method: "POST",
  path: "/applications/:application/reject",
  handler: (ctx) =>
    Effect.gen(function* () {
      const console = yield* Console
      const id = yield* uuidParam(ctx, "application")
      yield* console.reject(id, yield* decodeReject(formBody(ctx.form, ["reason_code", "note"])))
      return redirect(`applications/${id}`)
    }),
}

/** Pauses an application as the guard does (`console.applications.pause`): codes stop until it is unpaused. */
const pauseApplication: ConsolePage = {
  method: "POST",
  path: "/applications/:application/pause",
  handler: (ctx) =>
    Effect.gen(function* () {
      const id = yield* uuidParam(ctx, "application")
      yield* (yield* Console).pause(id)
      return redirect(`applications/${id}`)
    }),
}

/**
 * Lifts a pause (the account API's `applications.unpause`, its use case): the operator is the person an
 * approval would ask, so the console's unpause runs at once.
 */
const unpause: ConsolePage = {
  method: "POST",
  path: "/applications/:application/unpause",
  handler: (ctx) =>
    Effect.gen(function* () {
      const id = yield* uuidParam(ctx, "application")
      const app = yield* (yield* Console).application(id)
      yield* unpauseApplication(app.id)
      return redirect(`applications/${id}`)
    }),
}

const revokeKey: ConsolePage = {
  method: "POST",
  path: "/keys/:key/revoke",
  handler: (ctx) =>
    Effect.gen(function* () {
      const console = yield* Console
      const id = yield* uuidParam(ctx, "key")
      yield* console.revokeKey(id)
      const back = ctx.form.get("back") ?? ""
      return redirect(/^(accounts|applications)\/[0-9a-f-]{36}$/.test(back) ? back : "accounts")
    }),
}

export const accountPages: ReadonlyArray<ConsolePage> = [
  accountsPage,
  createAccount,
  accountPage,
  createApplication,
  createToken,
  applicationPage,
  approveApplication,
  rejectApplication,
  createKey,
  pauseApplication,
  unpause,
  revokeKey,
]
