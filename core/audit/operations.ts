/** `account.audit.list` (DECISIONS 9.3, 10): what was done to the account, newest first. */
import { Effect, Schema } from "effect"
import { AuditRepo } from "../../ports/store/audit.ts"
import { everyRole, roleLimited } from "../accounts/callers.ts"
import { decodeQuery, keysetPage, listParameters, ListQuery, PageOf } from "../accounts/lists.ts"
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
      keysetPage(
        cursors,
        "audit",
        p.account.id,
        q,
        (after, limit) => audit.page(p.account.id, after && { at: Number(after[0]), id: String(after[1]) }, limit),
        (e) => [e.at, e.id],
        // An agent sees the entries without amounts and a buyer's identity (DECISIONS 18).
        (e) => roleLimited(p, auditJson(e)),
      )
    return { list } as const
  }),
}) {}

export const auditOperations = [
  operation({
    name: "account.audit.list",
    summary: "What was done to the account, newest first: connected apps' writes and people's account-API writes.",
    returns: "A page of audit entries: id, at, actor, application_id, action, details (for agents, details " +
      "without amounts and a buyer's name, address and VAT number).",
    method: "GET",
    path: "/v1/account/audit",
    caller: everyRole,
    answer: { status: 200, envelope: "data" },
    parameters: listParameters,
    body: undefined,
    decode: decodeQuery(ListQuery),
    output: PageOf(AuditOutput),
    errors: [],
    idempotent: false,
    service: AccountAudit,
    run: (s, p, q: typeof ListQuery.Type) => s.list(p, q),
  }),
] as const
