/** @jsxImportSource preact */
/**
 * Partner clients in review (DECISIONS 13, 14): every partner account's `pending` client applications, each with
 * its logo, brand (name, website), the partner, and what changed (the `changed` of its latest
 * `service.review_requested` in the partner's feed; none: a new application), then the console's two moves over
 * their operations: approve (`console.applications.approve`) and reject with a reason code of the pinned list
 * (`console.applications.reject`, its body decoded by that operation's Schema).
 */
import { Clock, Effect } from "effect"
import type { Account } from "../../../core/accounts/model.ts"
import { consoleOperations } from "../../../core/console/operations.ts"
import { Console } from "../../../core/console/service.ts"
import { ConsolePages } from "../../../core/limits.ts"
import { feedRetentionMs } from "../../../core/partner/feed.ts"
import { isAppealable, reasonCodes, type ReviewChange } from "../../../core/partner/lifecycle.ts"
import type { Millis } from "../../../core/shared/brands.ts"
import { AccountsRepo } from "../../../ports/store/accounts.ts"
import { type PartnerApplicationRow, PartnerApplicationsRepo } from "../../../ports/store/partner.ts"
import { type FeedPage, type FeedPosition, PartnerFeedRepo } from "../../../ports/store/partner-feed.ts"
import { described, Field, type FieldErrors, orFormErrors, RefusedSummary } from "../fields.tsx"
import { bodyDecoder, formBody } from "../forms.ts"
import { formatDate, type MessageKey, type Translate } from "../i18n.ts"
import { Csrf } from "../layout.tsx"
import { type ConsolePage, html, type PageContext, redirect, uuidParam } from "../page.ts"

const decodeReject = bodyDecoder(consoleOperations, "console.applications.reject")

/** How many feed pages of one partner the list reads for `changed` (the feed keeps 30 days). */
const feedPagesRead = 20

const changeKey: Record<ReviewChange, MessageKey> = {
  name: "changedName",
  website: "changedWebsite",
  logo: "changedLogo",
  appeal: "changedAppeal",
}

const reasonKey: Record<(typeof reasonCodes)[number], MessageKey> = {
  website_unreachable: "reasonWebsiteUnreachable",
  brand_mismatch: "reasonBrandMismatch",
  logo_unsuitable: "reasonLogoUnsuitable",
  incomplete_information: "reasonIncompleteInformation",
  prohibited_business: "reasonProhibitedBusiness",
  impersonation: "reasonImpersonation",
  duplicate_application: "reasonDuplicateApplication",
}

interface Requested {
  readonly changed: ReadonlyArray<ReviewChange>
  readonly at: string
}

/** The latest review request of each application of a partner, from its feed (oldest first: the last one wins). */
const reviewRequests = (accountId: Account["id"], now: number) =>
  Effect.gen(function* () {
    const feed = yield* PartnerFeedRepo
    const found = new Map<string, Requested>()
    let after: FeedPosition | null = null
    for (let i = 0; i < feedPagesRead; i++) {
      const page: FeedPage = yield* feed.page({
        accountId,
        after,
        since: (now - feedRetentionMs) as Millis,
        types: ["service.review_requested"],
        limit: 100,
      })
      for (const e of page.entries) {
        const id = e.data.application_id
        const changed = e.data.changed
        if (typeof id !== "string" || !Array.isArray(changed)) continue
        found.set(id, {
          changed: changed.filter((c): c is ReviewChange => typeof c === "string" && c in changeKey),
          at: typeof e.data.occurred_at === "string" ? e.data.occurred_at : new Date(e.createdAt).toISOString(),
        })
      }
      if (page.entries.length < 100) break
      after = page.entries[page.entries.length - 1].position
    }
    return found
  })

interface InReview {
  readonly partner: Account
  readonly row: PartnerApplicationRow
  readonly requested: Requested | undefined
}

/** Every partner's pending clients, the newest partners first. */
const inReview = Effect.gen(function* () {
  const accounts = yield* AccountsRepo
  const partnerApps = yield* PartnerApplicationsRepo
  const now = yield* Clock.currentTimeMillis
  const partners = (yield* accounts.recent(ConsolePages.listMax)).filter((a) => a.partner)
  const list: Array<InReview> = []
  for (const partner of partners) {
    const rows = yield* partnerApps.page(
      partner.id,
      { status: "pending", externalId: null, q: null },
      null,
      ConsolePages.listMax,
    )
    if (rows.length === 0) continue
    const requested = yield* reviewRequests(partner.id, now)
    for (const row of rows) list.push({ partner, row, requested: requested.get(row.application.id) })
  }
  return list
})

/** What changed, in words: the fields of the latest review request, or a new application. */
const WhatChanged = ({ t, lang, item }: { t: Translate; lang: PageContext["lang"]; item: InReview }) => {
  if (item.requested === undefined) {
    return <span>{item.row.application.approvedAt === null ? t("newApplication") : t("changeNotRecorded")}</span>
  }
  return (
    <span>
      {item.requested.changed.map((c) => t(changeKey[c])).join(t("listSeparator"))}{" "}
      <span class="muted">({formatDate(lang, item.requested.at)})</span>
    </span>
  )
}

const websiteLink = (website: string | null) =>
  website === null
    ? null
    : /^https?:\/\//i.test(website)
    ? <a href={website} rel="noopener noreferrer nofollow" class="text">{website}</a>
    : <span class="text">{website}</span>

/** A refused rejection: the application's id, its fields' messages and what was typed. */
interface RejectRefusal {
  readonly id: string
  readonly fields: FieldErrors
  readonly typed: URLSearchParams
}

const render = (ctx: PageContext, refused?: RejectRefusal) =>
  Effect.map(inReview, (list) => {
    const { t, root, lang } = ctx
    return html(
      t("partnerReviews"),
      <>
        <p>{t("partnerReviewsIntro")}</p>
        {list.length === 0 ? <p id="no-reviews">{t("noReviews")}</p> : (
          <ul class="reviews">
            {list.map((item) => {
              const app = item.row.application
              const profile = item.row.profile
              const mine = refused !== undefined && refused.id === app.id ? refused : undefined
              const reasonId = `reason-${app.id}`
              const noteId = `note-${app.id}`
              const headingId = `review-${app.id}`
              return (
                <li class="review" aria-labelledby={headingId}>
                  <h2 id={headingId} class="text">{app.name}</h2>
                  <div class="review-body">
                    {profile.logo === null ? <span class="logo none muted">{t("noLogo")}</span> : (
                      <img
                        class="logo"
                        src={`${root}../v1/logos/${profile.logo.sha256}.${profile.logo.ext}`}
                        alt={t("logoOf", { name: app.name })}
                        width={64}
                        height={64}
                      />
                    )}
                    <dl class="fields">
                      <div>
                        <dt>{t("website")}</dt>
                        <dd>{websiteLink(profile.website) ?? <span class="muted">{t("nothing")}</span>}</dd>
                      </div>
                      <div>
                        <dt>{t("partner")}</dt>
                        <dd>
                          <a href={`${root}accounts/${item.partner.id}`} class="text">{item.partner.name}</a>
                        </dd>
                      </div>
                      <div>
                        <dt>{t("externalId")}</dt>
                        <dd>
                          {app.externalId === null
                            ? <span class="muted">{t("nothing")}</span>
                            : <code class="text">{app.externalId}</code>}
                        </dd>
                      </div>
                      <div>
                        <dt>{t("whatChanged")}</dt>
                        <dd class="what-changed">
                          <WhatChanged t={t} lang={lang} item={item} />
                        </dd>
                      </div>
                      <div>
                        <dt>{t("sending")}</dt>
                        <dd>{app.approvedAt === null ? t("notYetApproved") : t("approvedBeforeSends")}</dd>
                      </div>
                    </dl>
                  </div>
                  <div class="actions">
                    <form method="post" action={`${root}reviews/${app.id}/approve`} class="inline">
                      <Csrf token={ctx.csrf} />
                      <button type="submit">
                        {t("approveApplication")}
                        <span class="sr-only">{`: ${app.name}`}</span>
                      </button>
                    </form>
                  </div>
                  {mine === undefined ? null : <RefusedSummary text={t("formRefused")} />}
                  <form method="post" action={`${root}reviews/${app.id}/reject`} class="stack">
                    <Csrf token={ctx.csrf} />
                    <Field id={reasonId} label={t("reasonCode")} error={mine?.fields.reason_code}>
                      <select
                        id={reasonId}
                        name="reason_code"
                        {...described(reasonId, false, mine?.fields.reason_code)}
                      >
                        {reasonCodes.map((code) => (
                          <option value={code} selected={mine?.typed.get("reason_code") === code}>
                            {`${t(reasonKey[code])} (${isAppealable(code) ? t("appealable") : t("final")})`}
                          </option>
                        ))}
                      </select>
                    </Field>
                    <Field id={noteId} label={t("note")} error={mine?.fields.note}>
                      <textarea id={noteId} name="note" rows={2} {...described(noteId, false, mine?.fields.note)}>
                        {mine?.typed.get("note") ?? ""}
                      </textarea>
                    </Field>
                    <div>
                      <button type="submit" class="danger">
                        {t("rejectApplication")}
                        <span class="sr-only">{`: ${app.name}`}</span>
                      </button>
                    </div>
                  </form>
                </li>
              )
            })}
          </ul>
        )}
      </>,
      refused === undefined ? undefined : 400,
    )
  })

const applicationId = (ctx: PageContext) => uuidParam(ctx, "application")

const reviewsPage: ConsolePage = {
  method: "GET",
  path: "/reviews",
  nav: { label: "partnerReviews", order: 25 },
  handler: (ctx) => render(ctx),
}

const approve: ConsolePage = {
  method: "POST",
  path: "/reviews/:application/approve",
  handler: (ctx) =>
    Effect.gen(function* () {
      yield* (yield* Console).approve(yield* applicationId(ctx))
      return redirect("reviews")
    }),
}

const reject: ConsolePage = {
  method: "POST",
  path: "/reviews/:application/reject",
  handler: (ctx) =>
    Effect.gen(function* () {
      const id = yield* applicationId(ctx)
      const console = yield* Console
      yield* console.application(id)
      return yield* orFormErrors(
        Effect.gen(function* () {
          yield* console.reject(id, yield* decodeReject(formBody(ctx.form, ["reason_code", "note"])))
          return redirect("reviews")
        }),
        (fields) => render(ctx, { id, fields, typed: ctx.form }),
      )
    }),
}

export const partnerPages: ReadonlyArray<ConsolePage> = [reviewsPage, approve, reject]
