/** `account.audit.list` (DECISIONS 9.3, 10): what was done to the account, newest first. */
import { Effect, Either, Schema } from "effect"
import { AuditRepo } from "../../ports/store/audit.ts"
import { everyRole } from "../accounts/callers.ts"
import { decodeQuery, ListQuery, page, PageOf } from "../accounts/lists.ts"
import { Lists } from "../limits.ts"
import type { AccountPrincipal } from "../pipeline/authenticate.ts"
import { makeCursors } from "../pipeline/cursor.ts"
import { operation } from "../pipeline/operation.ts"
import { auditJson } from "./model.ts"

const AuditOutput = Schema.Struct({
  id: Schema.UUID,
  at: Schema.String,
  actor: Schema.Struct({
    type: Schema.Literal("app", "member"),
    id: Schema.optional(Schema.NullOr(Schema.String)),
    name: Schema.NullOr(Schema.String),
  }),
  application_id: Schema.NullOr(Schema.String),
  action: Schema.String,
  details: Schema.Unknown,
}).annotations({ identifier: "AuditEntry" })

export class AccountAudit extends Effect.Service<AccountAudit>()("core/AccountAudit", {
  effect: Effect.gen(function* () {
    const audit = yield* AuditRepo
    const cursors = yield* makeCursors
    const list = (p: AccountPrincipal, q: typeof ListQuery.Type) =>
      Effect.gen(function* () {
        let after: { at: number; id: string } | null = null
        if (q.cursor !== undefined) {
          const position = cursors.read("audit", p.account.id, q.cursor)
          if (Either.isLeft(position)) return yield* position.left
          after = { at: Number(position.right[0]), id: String(position.right[1]) }
        }
        const limit = q.limit ?? Lists.defaultLimit
        const found = yield* audit.page(p.account.id, after, limit + 1)
        const shown = found.slice(0, limit)
        const last = shown[shown.length - 1]
        const next = found.length > limit ? cursors.make("audit", p.account.id, [last.at, last.id]) : null
        return page(shown.map(auditJson), next)
      })
    return { list } as const
  }),
}) {}

export const auditOperations = [
  operation({
    name: "account.audit.list",
    summary: "What was done to the account, newest first: connected apps' writes and people's account-API writes.",
    returns: "A page of audit entries: id, at, actor, application_id, action, details.",
    method: "GET",
    path: "/v1/account/audit",
    caller: everyRole,
    answer: { status: 200, envelope: "data" },
    parameters: [
      { name: "limit", in: "query", description: "1 to 100; default 20", schema: Schema.String, required: false },
      {
        name: "cursor",
        in: "query",
        description: "A `next_cursor` as answered",
        schema: Schema.String,
        required: false,
      },
    ],
    body: undefined,
    decode: decodeQuery(ListQuery),
    output: PageOf(AuditOutput),
    errors: [],
    idempotent: false,
    service: AccountAudit,
    run: (s, p, q: typeof ListQuery.Type) => s.list(p, q),
  }),
] as const
