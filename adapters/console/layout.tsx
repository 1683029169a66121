/** @jsxImportSource preact */
/**
 * The console's frame and shared pieces, in JSX rendered to a string (preact-render-to-string): every text and
 * attribute is escaped by construction. No inline script or style: one stylesheet and one small script, both
 * served from `assets/` (the Content-Security-Policy allows nothing else).
 */
import type { ComponentChildren, VNode } from "preact"
import { renderToString } from "preact-render-to-string"
import type { Lang, MessageKey, Translate } from "./i18n.ts"

export interface Frame {
  readonly lang: Lang
  readonly t: Translate
  readonly root: string
  readonly here: string
  readonly title: string
  /** Signed in: the navigation and the sign-out form (with this CSRF token). */
  readonly signedIn?: { readonly csrf: string; readonly nav: ReadonlyArray<{ label: MessageKey; path: string }> }
}

const LanguageSwitch = ({ lang, t, root, here }: Pick<Frame, "lang" | "t" | "root" | "here">) => {
  const other: Lang = lang === "ar" ? "en" : "ar"
  const href = `${root}language?to=${other}&back=${encodeURIComponent(here)}`
  return (
    <a class="lang" href={href} hreflang={other} lang={other}>
      {t("otherLanguage")}
    </a>
  )
}

export const Csrf = ({ token }: { token: string }) => <input type="hidden" name="_csrf" value={token} />

export const Page = (frame: Frame & { children: ComponentChildren }) => {
  const { lang, t, root, title, signedIn } = frame
  return (
    <html lang={lang} dir={lang === "ar" ? "rtl" : "ltr"}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>{`${title} · ${t("console")}`}</title>
        <link rel="stylesheet" href={`${root}assets/console.css`} />
        <script src={`${root}assets/console.js`} defer />
      </head>
      <body>
        <a class="skip" href="#main">{t("skip")}</a>
        <header class="top">
          <a class="brand" href={root}>{t("console")}</a>
          {signedIn === undefined ? null : (
            <nav aria-label={t("console")}>
              <ul>
                {signedIn.nav.map((n) => (
                  <li>
                    <a href={`${root}${n.path}`}>{t(n.label)}</a>
                  </li>
                ))}
              </ul>
            </nav>
          )}
          <LanguageSwitch {...frame} />
          {signedIn === undefined ? null : (
            <form method="post" action={`${root}sign-out`} class="sign-out">
              <Csrf token={signedIn.csrf} />
              <button type="submit" class="link">{t("signOut")}</button>
            </form>
          )}
        </header>
        <main id="main" tabindex={-1}>
          <h1>{title}</h1>
          {frame.children}
        </main>
      </body>
    </html>
  )
}

export const renderDocument = (page: VNode): string => `<!doctype html>${renderToString(page)}`

/** A text shown once (a new key or token) with a copy button, which the script shows when it can copy. */
export const ShownOnce = ({ t, id, secret }: { t: Translate; id: string; secret: string }) => (
  <div class="secret" role="group" aria-labelledby={`${id}-label`}>
    <p id={`${id}-label`} class="notice">{t("shownOnce")}</p>
    <p>
      <code id={id} class="secret-value">{secret}</code>{" "}
      <button type="button" data-copy={id} data-copied={t("copied")} hidden>
        {t("copy")}
      </button>
    </p>
  </div>
)

/** An input value of any JSON shape, readable: texts as they are, objects as lists of their fields. */
export const Value = ({ value, t }: { value: unknown; t: Translate }): VNode => {
  if (value === null || value === undefined) return <span class="muted">{t("nothing")}</span>
  if (typeof value === "string") return <span class="text">{value}</span>
  if (typeof value === "number" || typeof value === "boolean") return <span>{String(value)}</span>
  if (Array.isArray(value)) {
    if (value.length === 0) return <span class="muted">{t("nothing")}</span>
    return (
      <ol class="value-list">
        {value.map((v) => (
          <li>
            <Value value={v} t={t} />
          </li>
        ))}
      </ol>
    )
  }
  const entries = Object.entries(value as Record<string, unknown>)
  if (entries.length === 0) return <span class="muted">{t("nothing")}</span>
  return (
    <dl class="fields">
      {entries.map(([k, v]) => (
        <div>
          <dt>
            <code>{k}</code>
          </dt>
          <dd>
            <Value value={v} t={t} />
          </dd>
        </div>
      ))}
    </dl>
  )
}
