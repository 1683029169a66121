/** @jsxImportSource preact */
/**
 * The approvals product's console pages: the pending list, and `/console/approvals/{id}` (the URL of a 428's
 * `human_action`): the operation in words, who asked, the input, when it expires, and Approve / Deny with a
 * note while it is pending. The decision is the console's operation's (`Approvals.decide`), its note decoded by
 * that operation's Schema.
 */
import { Effect, Either, Schema } from "effect"
import type { ApprovalStatus } from "../../../core/approvals/model.ts"
import { DecisionBody } from "../../../core/approvals/operations.ts"
import { Approvals } from "../../../core/approvals/service.ts"
import { fieldsRefused } from "../../../core/pipeline/decode.ts"
import { formatDate, type MessageKey } from "../i18n.ts"
import { Csrf, Value } from "../layout.tsx"
import { type ConsolePage, html, redirect, uuidParam } from "../page.ts"

const statusKey: Record<ApprovalStatus, MessageKey> = {
  pending: "statusPending",
  approved: "statusApproved",
  denied: "statusDenied",
  used: "statusUsed",
  expired: "statusExpired",
}

export const roleKey = { owner: "roleOwner", admin: "roleAdmin", agent: "roleAgent" } as const

const pendingList: ConsolePage = {
  method: "GET",
  path: "/approvals",
  nav: { label: "approvals", order: 10 },
  handler: (ctx) =>
    Effect.gen(function* () {
      const approvals = yield* Approvals
      const list = yield* approvals.pending
      const { t, lang, root } = ctx
      return html(
        t("pendingApprovals"),
        list.length === 0 ? <p>{t("noPending")}</p> : (
          <table>
            <thead>
              <tr>
                <th scope="col">{t("operation")}</th>
                <th scope="col">{t("askedAt")}</th>
                <th scope="col">{t("expiresAt")}</th>
              </tr>
            </thead>
            <tbody>
              {list.map((a) => (
                <tr>
                  <td>
                    <a href={`${root}approvals/${a.id}`}>
                      <code>{a.operation}</code>
                    </a>
                  </td>
                  <td>{formatDate(lang, a.createdAt)}</td>
                  <td>{formatDate(lang, a.expiresAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ),
      )
    }),
}

const approvalPage: ConsolePage = {
  method: "GET",
  path: "/approvals/:id",
  handler: (ctx) =>
    Effect.gen(function* () {
      const approvals = yield* Approvals
      const id = yield* uuidParam(ctx, "id")
      const shown = yield* approvals.forConsole(id)
      const { t, lang, root } = ctx
      const a = shown.approval
      const role = shown.requester === null ? null : t(roleKey[shown.requester.role])
      return html(
        `${t("approval")}: ${a.operation}`,
        <>
          {shown.summary === null ? null : <p class="lead">{shown.summary}</p>}
          <dl class="fields">
            <div>
              <dt>{t("operation")}</dt>
              <dd>
                <code>{a.operation}</code>
              </dd>
            </div>
            <div>
              <dt>{t("status")}</dt>
              <dd id="approval-status">{t(statusKey[shown.status])}</dd>
            </div>
            <div>
              <dt>{t("account")}</dt>
              <dd>
                <a href={`${root}accounts/${a.accountId}`}>{shown.account?.name ?? a.accountId}</a>
              </dd>
            </div>
            <div>
              <dt>{t("askedBy")}</dt>
              <dd>
                {shown.requestedBy === null ? <span class="muted">{t("unknownPerson")}</span> : (
                  <>
                    <span class="text">{shown.requester?.email ?? shown.requestedBy}</span>
                    {role === null ? null : <span>{` (${t("role")}: ${role})`}</span>}
                    <br />
                    <span class="muted">
                      {`${t("member")}: `}
                      <code>{shown.requestedBy}</code>
                    </span>
                  </>
                )}
              </dd>
            </div>
            <div>
              <dt>{t("askedAt")}</dt>
              <dd>{formatDate(lang, a.createdAt)}</dd>
            </div>
            <div>
              <dt>{t("expiresAt")}</dt>
              <dd>{formatDate(lang, a.expiresAt)}</dd>
            </div>
            {a.decidedAt === null ? null : (
              <div>
                <dt>{t("decidedAt")}</dt>
                <dd>{formatDate(lang, a.decidedAt)}</dd>
              </div>
            )}
            {a.note === null ? null : (
              <div>
                <dt>{t("notePrevious")}</dt>
                <dd class="text">{a.note}</dd>
              </div>
            )}
          </dl>
          <h2>{t("input")}</h2>
          <dl class="fields">
            <div>
              <dt>{t("pathInput")}</dt>
              <dd>
                <Value value={a.input.path} t={t} />
              </dd>
            </div>
            <div>
              <dt>{t("queryInput")}</dt>
              <dd>
                <Value value={a.input.query} t={t} />
              </dd>
            </div>
            <div>
              <dt>{t("bodyInput")}</dt>
              <dd>
                <Value value={a.input.body} t={t} />
              </dd>
            </div>
          </dl>
          {shown.status === "pending"
            ? (
              <form method="post" action={`${root}approvals/${a.id}/decide`} class="stack">
                <Csrf token={ctx.csrf} />
                <div>
                  <label for="note">{t("note")}</label>
                  <textarea id="note" name="note" rows={3} maxlength={1000} />
                </div>
                <div class="actions">
                  <button type="submit" name="decision" value="approve">{t("approve")}</button>
                  <button type="submit" name="decision" value="deny" class="danger">{t("deny")}</button>
                </div>
              </form>
            )
            : (
              <p class="notice" role="status">
                {t("decidedNothing", { status: t(statusKey[shown.status]) })}
              </p>
            )}
        </>,
      )
    }),
}

const decide: ConsolePage = {
  method: "POST",
  path: "/approvals/:id/decide",
  handler: (ctx) =>
    Effect.gen(function* () {
      const approvals = yield* Approvals
      const id = yield* uuidParam(ctx, "id")
      const decision = ctx.form.get("decision")
      const note = (ctx.form.get("note") ?? "").trim()
      const body = Schema.decodeUnknownEither(DecisionBody)({ note: note === "" ? null : note })
      if (Either.isLeft(body)) {
        return yield* fieldsRefused({ note: "at most 1000 characters" }, { note: "too_long" })
      }
      if (decision !== "approve" && decision !== "deny") {
        return yield* fieldsRefused({ decision: "approve or deny" }, { decision: "invalid" })
      }
      yield* approvals.decide(id, decision === "approve" ? "approved" : "denied", body.right.note ?? null)
      return redirect(`approvals/${id}`)
    }),
}

export const approvalPages: ReadonlyArray<ConsolePage> = [pendingList, approvalPage, decide]
