/** @jsxImportSource preact */
/**
 * The console's pages as routes of the platform, under `/console/` beside its JSON API (`/console/v1/...`): the
 * frame's own pages (sign-in, sign-out, the language switch, the overview, the two assets) and every product's
 * `pages`, each run through the same steps: the language, the session (a GET without one goes to the sign-in
 * page and back), a POST's size, type and CSRF token, the security headers, and a page for every refusal.
 * Links and redirects are relative, so the pages work under any prefix an embedding app mounts them at.
 */
import { Cause, Clock, Effect, Option } from "effect"
import type { VNode } from "preact"
import { type ApiError, errorBody, isApiError, statusOf } from "../../core/errors.ts"
import { ConsolePages } from "../../core/limits.ts"
import type { Params, Route } from "../../core/pipeline/handler.ts"
import { retryAfterSeconds, windowStart } from "../../core/pipeline/rate-limit.ts"
import type { ApiAnswer, ApiRequest } from "../../core/pipeline/request.ts"
import { Secrets } from "../../ports/secrets.ts"
import { CredentialsRepo } from "../../ports/store/credentials.ts"
import { RateLimitRepo } from "../../ports/store/rate-limit.ts"
import { ConsoleSessionsRepo } from "../../ports/store/console-sessions.ts"
import type { Millis } from "../../core/shared/brands.ts"
import { consoleCss, consoleJs } from "./assets.ts"
import { fromAcceptLanguage, isLang, type Lang, type MessageKey, type Translate, translator } from "./i18n.ts"
import { Csrf, Page, renderDocument } from "./layout.tsx"
import { type ConsolePage, html, type PageAnswer, type PageContext } from "./page.ts"
import { cookieNames, parseCookies, type Session, sessions, setCookie } from "./session.ts"

/** No inline script or style, nothing from elsewhere, no framing, forms post only here. */
export const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

const pageHeaders = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": contentSecurityPolicy,
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
} as const

const encoder = new TextEncoder()

/** The way from a page's path to the console's root: `/console/approvals/x` is `../`, `/console` is `console/`. */
export const rootOf = (path: string): string => {
  const directory = path.slice(0, path.lastIndexOf("/") + 1).split("/").filter((s) => s !== "")
  return directory.length === 0 ? "console/" : directory.length === 1 ? "./" : "../".repeat(directory.length - 1)
}

/** A page's path under the console's root (`/console/approvals/x` is `approvals/x`). */
const hereOf = (path: string): string => path.replace(/^\/console\/?/, "")

/** A way back the console itself named: a relative path of plain segments (no scheme, no `//`, no `..`). */
export const safeBack = (back: string | null): string =>
  back !== null && back.length <= 200 && /^(?:[A-Za-z0-9_-]+\/)*[A-Za-z0-9_-]*$/.test(back) ? back : ""

const languageOf = (req: ApiRequest, cookies: ReadonlyMap<string, string>): Lang => {
  const chosen = cookies.get(cookieNames.lang)
  return isLang(chosen) ? chosen : fromAcceptLanguage(req.header("accept-language"))
}

const formOf = (req: ApiRequest): URLSearchParams | undefined => {
  const type = req.header("content-type")?.split(";")[0].trim().toLowerCase()
  return type === "application/x-www-form-urlencoded" ? new URLSearchParams(req.body ?? "") : undefined
}

export interface ConsoleOptions {
  /** `PUBLIC_URL`: behind https, the cookies are `Secure`. */
  readonly publicUrl?: string
  readonly consoleToken: string
}

/** The console's routes: the frame's pages and `pages` (every selected product's). */
export const consoleRoutes = (
  options: ConsoleOptions,
  pages: ReadonlyArray<ConsolePage>,
): Effect.Effect<
  ReadonlyArray<Route<any>>,
  never,
  Secrets | CredentialsRepo | RateLimitRepo | ConsoleSessionsRepo
> =>
  Effect.gen(function* () {
    const secrets = yield* Secrets
    const credentials = yield* CredentialsRepo
    const windows = yield* RateLimitRepo
    const ended = yield* ConsoleSessionsRepo
    const consoleHash = secrets.hash(options.consoleToken)
    const store = sessions(secrets, consoleHash)
    const alwaysSecure = options.publicUrl?.startsWith("https:") === true
    const secure = (req: ApiRequest) => alwaysSecure || req.header("x-forwarded-proto") === "https"

    /** The cookie's session, unless it was signed out (in any process: the store's record of sign-outs). */
    const sessionOf = (b: { readonly cookies: ReadonlyMap<string, string>; readonly now: number }) =>
      Effect.gen(function* () {
        const session = store.read(b.cookies.get(cookieNames.session), b.now)
        if (session === undefined || (yield* ended.ended(session.id, b.now as Millis))) return undefined
        return session
      })

    const nav = pages.flatMap((p) => p.nav === undefined ? [] : [{ ...p.nav, path: p.path.slice(1) }])
      .sort((a, b) => a.order - b.order)

    interface Basics {
      readonly lang: Lang
      readonly t: Translate
      readonly root: string
      readonly here: string
      readonly cookies: ReadonlyMap<string, string>
      readonly now: number
    }
    const basics = (req: ApiRequest) =>
      Effect.map(Clock.currentTimeMillis, (now): Basics => {
        const cookies = parseCookies(req.header("cookie"))
        const lang = languageOf(req, cookies)
        return { lang, t: translator(lang), root: rootOf(req.path), here: hereOf(req.path), cookies, now }
      })

    const document = (
      b: Basics,
      status: number,
      title: string,
      body: VNode,
      session?: { readonly csrf: string },
      extra?: Record<string, string>,
    ): ApiAnswer => ({
      status,
      headers: { ...pageHeaders, ...extra },
      body: encoder.encode(renderDocument(
        <Page
          lang={b.lang}
          t={b.t}
          root={b.root}
          here={b.here}
          title={title}
          signedIn={session === undefined ? undefined : { csrf: session.csrf, nav }}
        >
          {body}
        </Page>,
      )),
    })

    const see = (to: string, extra?: Record<string, string>): ApiAnswer => ({
      status: 303,
      headers: { location: to, "cache-control": "no-store", ...extra },
      body: new Uint8Array(0),
    })

    /** A file a page answers (a PDF): its own type, opened in the browser, never cached, never sniffed. */
    const fileAnswer = (f: Extract<PageAnswer, { _tag: "File" }>): ApiAnswer => ({
      status: 200,
      headers: {
        "content-type": f.contentType,
        "content-disposition": `inline; filename="${f.fileName.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
        "x-content-type-options": "nosniff",
        "cache-control": "no-store",
      },
      body: f.body,
    })

    /** A page that says what happened, and offers the way back. */
    const message = (b: Basics, status: number, key: MessageKey, session?: { csrf: string }, detail?: string) =>
      document(
        b,
        status,
        b.t(key),
        <>
          <p class="error" role="alert">{b.t(key)}</p>
          {detail === undefined ? null : <p class="text">{detail}</p>}
          <p>
            <a href={b.root}>{b.t("backHome")}</a>
          </p>
        </>,
        session,
      )

    const refusal = (b: Basics, e: ApiError, session: { csrf: string }) => {
      const body = errorBody(e)
      const fields = typeof body.fields === "object" && body.fields !== null
        ? Object.entries(body.fields as Record<string, unknown>)
        : []
      const status = statusOf(e)
      const key: MessageKey = status === 404 ? "notFound" : "refused"
      return document(
        b,
        status,
        b.t(key),
        <>
          <p class="error" role="alert">{b.t(key)}</p>
          {typeof body.message === "string" ? <p class="text">{body.message}</p> : null}
          {fields.length === 0 ? null : (
            <>
              <p>{b.t("fieldsRefused")}</p>
              <ul>
                {fields.map(([name, why]) => (
                  <li>
                    <code>{name}</code>: <span class="text">{String(why)}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
          <p>
            <a href={b.root}>{b.t("backHome")}</a>
          </p>
        </>,
        session,
      )
    }

    /** The frame's steps around a page that needs a session. */
    const signedInPage = (page: ConsolePage): Route<any> => ({
      method: page.method,
      path: `/console${page.path === "/" ? "" : page.path}`,
      handler: (req: ApiRequest, params: Params) =>
        Effect.gen(function* () {
          const b = yield* basics(req)
          const session = yield* sessionOf(b)
          if (session === undefined) {
            return page.method === "GET"
              ? see(`${b.root}sign-in${b.here === "" ? "" : `?next=${encodeURIComponent(b.here)}`}`)
              : message(b, 401, "sessionEnded")
          }
          const csrf = store.csrf(session.id)
          let form = new URLSearchParams()
          if (page.method === "POST") {
            // The form's size is the body's bytes, before it is parsed (UTF-8: at most 3 bytes a UTF-16 unit).
            const body = req.body ?? ""
            if (body.length > ConsolePages.maxFormBytes || encoder.encode(body).length > ConsolePages.maxFormBytes) {
              return message(b, 413, "formTooLarge", { csrf })
            }
            const parsed = formOf(req)
            if (parsed === undefined || !store.csrfMatches(session.id, parsed.get("_csrf"))) {
              return message(b, 403, "formExpired", { csrf })
            }
            form = parsed
          }
          const ctx: PageContext = {
            req,
            params,
            lang: b.lang,
            t: b.t,
            root: b.root,
            here: b.here,
            csrf,
            form,
            now: b.now,
          }
          return yield* page.handler(ctx).pipe(
            Effect.map((answer: PageAnswer) =>
              answer._tag === "Redirect"
                ? see(`${b.root}${answer.to}`)
                : answer._tag === "File"
                ? fileAnswer(answer)
                : document(b, answer.status ?? 200, answer.title, answer.body, { csrf })
            ),
            Effect.catchAllCause((cause) => {
              const failure = Cause.failureOption(cause)
              if (Option.isSome(failure) && isApiError(failure.value)) {
                return Effect.succeed(refusal(b, failure.value, { csrf }))
              }
              return Effect.sync(() => {
                console.error(`[${req.requestId}] console page ${page.method} ${page.path}\n${Cause.pretty(cause)}`)
                return message(b, 500, "somethingWrong", { csrf }, `${b.t("requestId")}: ${req.requestId}`)
              })
            }),
          )
        }),
    })

    const signInForm = (b: Basics, id: string, next: string, error?: string) => (
      <>
        {error === undefined ? null : <p class="error" role="alert" id="sign-in-error">{error}</p>}
        <p>{b.t("signInIntro")}</p>
        <form method="post" action={`${b.root}sign-in`} class="stack">
          <Csrf token={store.csrf(id)} />
          <input type="hidden" name="next" value={next} />
          <div>
            <label for="token">{b.t("consoleToken")}</label>
            <input
              type="password"
              id="token"
              name="token"
              required
              autocomplete="current-password"
              spellcheck={false}
              aria-describedby={error === undefined ? undefined : "sign-in-error"}
            />
          </div>
          <div>
            <button type="submit">{b.t("signIn")}</button>
          </div>
        </form>
      </>
    )

    /** The sign-in form's own id (a random cookie): its CSRF token is this id's. */
    const signInId = (b: Basics) =>
      Effect.map(secrets.randomBytes(16), (random) => {
        const known = b.cookies.get(cookieNames.signIn)
        if (store.isId(known)) return { id: known, cookie: undefined }
        const id = [...random].map((x) => x.toString(16).padStart(2, "0")).join("")
        return { id, cookie: id }
      })
    const signInCookie = (req: ApiRequest, id: string | undefined): Record<string, string> =>
      id === undefined
        ? {}
        : { "set-cookie": setCookie(cookieNames.signIn, id, { secure: secure(req), maxAgeSeconds: 3600 }) }

    const signInGet: Route<any> = {
      method: "GET",
      path: "/console/sign-in",
      handler: (req) =>
        Effect.gen(function* () {
          const b = yield* basics(req)
          const next = safeBack(req.query.get("next"))
          if ((yield* sessionOf(b)) !== undefined) return see(`${b.root}${next}`)
          const { id, cookie } = yield* signInId(b)
          return document(b, 200, b.t("signIn"), signInForm(b, id, next), undefined, signInCookie(req, cookie))
        }),
    }

    const signInPost: Route<any> = {
      method: "POST",
      path: "/console/sign-in",
      handler: (req) =>
        Effect.gen(function* () {
          const b = yield* basics(req)
          // An address's wrong tokens are counted in the API's rate windows; over the limit, every attempt from it
          // is refused until the window turns (the right token too: else the limit would tell a guess right).
          const address = secrets.hash(`console-sign-in:${req.ip ?? "unknown"}`)
          const window = windowStart(b.now) as Millis
          if ((yield* windows.countOf(address, window)) >= ConsolePages.signInAttempts) {
            const seconds = retryAfterSeconds(b.now)
            return document(
              b,
              429,
              b.t("signIn"),
              <p class="error" role="alert">{b.t("tooManyAttempts", { seconds })}</p>,
              undefined,
              { "retry-after": String(seconds) },
            )
          }
          const body = req.body ?? ""
          if (body.length > ConsolePages.maxFormBytes) return message(b, 413, "formTooLarge")
          const form = formOf(req)
          const known = b.cookies.get(cookieNames.signIn)
          const { id, cookie } = yield* signInId(b)
          if (form === undefined || !store.isId(known) || !store.csrfMatches(known, form.get("_csrf"))) {
            return document(
              b,
              403,
              b.t("signIn"),
              signInForm(b, id, "", b.t("formExpired")),
              undefined,
              signInCookie(req, cookie),
            )
          }
          const next = safeBack(form.get("next"))
          const presented = form.get("token") ?? ""
          if (!secrets.equal(secrets.hash(presented), consoleHash)) {
            yield* credentials.present(address, window)
            return document(b, 401, b.t("signIn"), signInForm(b, id, next, b.t("wrongToken")))
          }
          const { value } = store.issue(yield* secrets.randomBytes(16), b.now)
          return see(`${b.root}${next}`, {
            "set-cookie": setCookie(cookieNames.session, value, {
              secure: secure(req),
              maxAgeSeconds: Math.floor(ConsolePages.sessionMs / 1000),
            }),
          })
        }),
    }

    const signOut: Route<any> = {
      method: "POST",
      path: "/console/sign-out",
      handler: (req) =>
        Effect.gen(function* () {
          const b = yield* basics(req)
          const session: Session | undefined = yield* sessionOf(b)
          const form = formOf(req)
          if (session !== undefined && form !== undefined && store.csrfMatches(session.id, form.get("_csrf"))) {
            store.signOut(session, b.now)
            yield* ended.end(session.id, session.expiresAt as Millis, b.now as Millis)
          } else if (session !== undefined) {
            return message(b, 403, "formExpired", { csrf: store.csrf(session.id) })
          }
          return see(`${b.root}sign-in`, {
            "set-cookie": setCookie(cookieNames.session, "", { secure: secure(req), maxAgeSeconds: 0 }),
          })
        }),
    }

    const language: Route<any> = {
      method: "GET",
      path: "/console/language",
      handler: (req) =>
        Effect.map(basics(req), (b) => {
          const to = req.query.get("to")
          const back = `${b.root}${safeBack(req.query.get("back"))}`
          if (!isLang(to)) return see(back)
          return see(back, {
            "set-cookie": setCookie(cookieNames.lang, to, { secure: secure(req), maxAgeSeconds: 365 * 24 * 3600 }),
          })
        }),
    }

    const asset = (name: string, type: string, text: string): Route<any> => {
      const bytes = encoder.encode(text)
      return {
        method: "GET",
        path: `/console/assets/${name}`,
        handler: () =>
          Effect.succeed({
            status: 200,
            headers: {
              "content-type": type,
              "x-content-type-options": "nosniff",
              "cache-control": "public, max-age=3600",
            },
            body: bytes,
          }),
      }
    }

    const overview: ConsolePage = {
      method: "GET",
      path: "/",
      handler: (ctx) =>
        Effect.succeed(html(
          ctx.t("home"),
          <ul class="overview">
            {nav.map((n) => (
              <li>
                <a href={`${ctx.root}${n.path}`}>{ctx.t(n.label)}</a>
              </li>
            ))}
          </ul>,
        )),
    }

    return [
      asset("console.css", "text/css; charset=utf-8", consoleCss),
      asset("console.js", "text/javascript; charset=utf-8", consoleJs),
      signInGet,
      signInPost,
      signOut,
      language,
      ...[overview, ...pages].map(signedInPage),
    ]
  })
