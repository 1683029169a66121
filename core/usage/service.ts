/**
 * The client usage read (`clients.usage.show`, DECISIONS 12 and 16): per application of the account, the codes
 * sent (charged SMS not refunded), the codes verified and their cost (charges less refunds), live and partner
 * modes only, busiest first, one page at a time, with the totals of every matching row, the price per code and
 * the period. A partner account's applications are its clients, so the same read is the partner's billing.
 * Money (`*_halalas`) is absent for agents (DECISIONS 11).
 */
import { Clock, Effect } from "effect"
import { usageNeedle, UsageRepo } from "../../ports/store/usage.ts"
import { roleLimited } from "../accounts/callers.ts"
import { Lists, Prices } from "../limits.ts"
import type { AccountPrincipal } from "../pipeline/authenticate.ts"
import { makeCursors } from "../pipeline/cursor.ts"
import { InvalidRequest } from "../pipeline/errors.ts"
import { type AccountId, type ApplicationId, isUuid } from "../shared/brands.ts"
import { untracedStacks } from "../shared/tracing.ts"
import { type Period, type PeriodInput, usagePeriod } from "./period.ts"

export interface UsageInput extends PeriodInput {
  readonly q?: string | undefined
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

/**
 * The list a cursor belongs to: the period and `q` it was made for, so a cursor of another period or search
 * is refused (`400`) rather than continuing a different list.
 */
const listOf = (period: Period, needle: string | null) =>
  `clients.usage|${period.from}|${period.to}|${needle === null ? "" : needle}`

const refusedCursor = new InvalidRequest({
  message: "`cursor` is not a cursor this list gave: pass a `next_cursor` as it was answered.",
  fields: { cursor: "is not a cursor of this list" },
  errors: { cursor: "invalid" },
})

export class Usage extends Effect.Service<Usage>()("core/Usage", {
  effect: Effect.gen(function* () {
    const repo = yield* UsageRepo
    const cursors = yield* makeCursors

    /** The read of `accountId`'s usage, money included (the console's; `show` leaves money out for agents). */
    const read = Effect.fn("Usage.read", untracedStacks)(function* (accountId: AccountId, input: UsageInput) {
      const now = yield* Clock.currentTimeMillis
      const period = yield* usagePeriod(input, now)
      const needle = input.q === undefined || input.q === "" ? null : usageNeedle(input.q)
      const list = listOf(period, needle)
      let after: ApplicationId | null = null
      if (input.cursor !== undefined) {
        // The position is the last row's application id only: the cursor is readable base64, and an agent's
        // cursor must not carry the money its page leaves out. The store finds that row's place again.
        const position = yield* cursors.read(list, accountId, input.cursor)
        const id = position[0]
        if (position.length !== 1 || typeof id !== "string" || !isUuid(id)) return yield* refusedCursor
        after = id as ApplicationId
      }
      const limit = input.limit ?? Lists.defaultLimit
      const found = yield* repo.page({
        accountId,
        since: period.since,
        until: period.until,
        q: needle,
        limit: limit + 1,
        after,
      })
      const rows = found.rows.slice(0, limit)
      const next = found.rows.length > limit
        ? cursors.make(list, accountId, [rows[rows.length - 1].applicationId])
        : null
      // Money is left out for agents by the rule every read answers through (DECISIONS 11, 18).
      return {
        data: {
          period: { from: period.from, to: period.to, month: period.month },
          price_per_code_halalas: Prices.verifySmsHalalas,
          rows: rows.map((r) => ({
            application_id: r.applicationId,
            external_id: r.externalId,
            name: r.name,
            codes_sent: r.codesSent,
            codes_verified: r.codesVerified,
            cost_halalas: r.costHalalas,
          })),
          totals: {
            applications: found.totals.applications,
            codes_sent: found.totals.codesSent,
            codes_verified: found.totals.codesVerified,
            cost_halalas: found.totals.costHalalas,
          },
        },
        next_cursor: next,
      }
    })

    const show = (p: AccountPrincipal, input: UsageInput) =>
      Effect.map(read(p.account.id as AccountId, input), (usage) => roleLimited(p, usage))

    return { show, read } as const
  }),
}) {}
