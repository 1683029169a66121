/**
 * The verification log of a partner's client application (`GET /v1/partner/applications/{id}/verifications`,
 * DECISIONS 13): its verifications as the events show them, with the application's `external_id`, newest first,
 * the last 90 days, narrowed by `status`, `to` (any accepted Saudi form), `reference`, `since` and `until`.
 */
import { Clock, Effect, Option } from "effect"
import { ApplicationsRepo } from "../../ports/store/accounts.ts"
import { VerificationLogRepo } from "../../ports/store/partner-feed.ts"
import { Lists } from "../limits.ts"
import type { PartnerPrincipal } from "../pipeline/authenticate.ts"
import { makeCursors } from "../pipeline/cursor.ts"
import { InvalidRequest, ServiceNotFound } from "../pipeline/errors.ts"
import type { Millis, SaudiMobile } from "../shared/brands.ts"
import { isUuid } from "../shared/brands.ts"
import { isSandboxMode } from "../shared/key-mode.ts"
import { untracedStacks } from "../shared/tracing.ts"
import type { VerificationStatus } from "../verify/model.ts"
import { verificationJson } from "../verify/wire.ts"

/** How far back the log reads (DECISIONS 13). */
export const verificationLogMs = 90 * 86_400_000

export interface VerificationLogInput {
  readonly id: string
  readonly status?: VerificationStatus | undefined
  /** Already normalized to `+9665XXXXXXXX`. */
  readonly to?: SaudiMobile | undefined
  readonly reference?: string | undefined
  readonly since?: Millis | undefined
  readonly until?: Millis | undefined
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

const refusedCursor = new InvalidRequest({
  message: "`cursor` is not a cursor this list gave: pass a `next_cursor` as it was answered.",
  fields: { cursor: "is not a cursor of this list" },
  errors: { cursor: "invalid" },
})

const serviceNotFound = new ServiceNotFound({})

export class VerificationLog extends Effect.Service<VerificationLog>()("core/VerificationLog", {
  effect: Effect.gen(function* () {
    const applications = yield* ApplicationsRepo
    const repo = yield* VerificationLogRepo
    const cursors = yield* makeCursors

    const list = Effect.fn("VerificationLog.list", untracedStacks)(
      function* (p: PartnerPrincipal, input: VerificationLogInput) {
        const found = yield* applications.findInAccount(p.account.id, input.id)
        if (Option.isNone(found)) return yield* serviceNotFound
        const app = found.value
        if (input.since !== undefined && input.until !== undefined && input.since > input.until) {
          return yield* new InvalidRequest({
            message: "`since` is after `until`.",
            fields: { since: "is after until" },
            errors: { since: "after_until" },
          })
        }
        const now = yield* Clock.currentTimeMillis
        // The cursor belongs to this application and these filters: another's is `400`, not another list's rows.
        const listName = JSON.stringify([
          "partner.verifications",
          app.id,
          isSandboxMode(p.mode),
          input.status ?? null,
          input.to ?? null,
          input.reference ?? null,
          input.since ?? null,
          input.until ?? null,
        ])
        let before: { createdAt: Millis; id: string } | null = null
        if (input.cursor !== undefined) {
          const position = yield* cursors.read(listName, p.account.id, input.cursor)
          const [createdAt, id] = position
          if (position.length !== 2 || typeof createdAt !== "number" || !isUuid(id)) return yield* refusedCursor
          before = { createdAt, id }
        }
        const limit = input.limit ?? Lists.defaultLimit
        const rows = yield* repo.page({
          applicationId: app.id,
          since: Math.max(now - verificationLogMs, input.since ?? 0),
          until: input.until ?? Number.MAX_SAFE_INTEGER,
          status: input.status ?? null,
          to: input.to ?? null,
          reference: input.reference ?? null,
          // Key modes partition what a key sees (DECISIONS 18): a partner test key lists the sandbox ones only.
          sandbox: isSandboxMode(p.mode),
          before,
          limit: limit + 1,
        })
        const shown = rows.slice(0, limit)
        const last = shown[shown.length - 1]
        return {
          data: shown.map((v) => ({ ...verificationJson(v), external_id: app.externalId })),
          next_cursor: rows.length > limit ? cursors.make(listName, p.account.id, [last.createdAt, last.id]) : null,
        }
      },
    )

    return { list } as const
  }),
}) {}
