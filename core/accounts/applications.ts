/** The account API's applications (DECISIONS 10): `{ id, name, status, paused, external_id, created_at }`. */
import { Effect, Schema } from "effect"
import { ApplicationsRepo } from "../../ports/store/accounts.ts"
import type { AccountPrincipal } from "../pipeline/authenticate.ts"
import { makeCursors } from "../pipeline/cursor.ts"
import { operation } from "../pipeline/operation.ts"
import { isoMillis } from "../shared/riyadh.ts"
import { everyRole } from "./callers.ts"
import { decodeQuery, keysetPage, listParameters, ListQuery, PageOf } from "./lists.ts"
import type { Application } from "./model.ts"

export const AccountApplication = Schema.Struct({
  id: Schema.UUID,
  name: Schema.String,
  status: Schema.Literal("pending", "active", "rejected", "suspended", "disabled", "archived"),
  paused: Schema.Boolean,
  external_id: Schema.NullOr(Schema.String),
  created_at: Schema.String,
}).annotations({ identifier: "AccountApplication" })

export const accountApplicationJson = (a: Application) => ({
  id: a.id,
  name: a.name,
  status: a.status,
  paused: a.paused,
  external_id: a.externalId,
  created_at: isoMillis(a.createdAt),
})

export class AccountApplications extends Effect.Service<AccountApplications>()("core/AccountApplications", {
  effect: Effect.gen(function* () {
    const apps = yield* ApplicationsRepo
    const cursors = yield* makeCursors
    const list = (p: AccountPrincipal, q: typeof ListQuery.Type) =>
      keysetPage(
        cursors,
        "applications",
        p.account.id,
        q,
        (after, limit) =>
          apps.pageInAccount(p.account.id, after && { createdAt: Number(after[0]), id: String(after[1]) }, limit),
        (a) => [a.createdAt, a.id],
        accountApplicationJson,
      )
    return { list } as const
  }),
}) {}

export const applicationsListOperation = operation({
  name: "applications.applications.list",
  summary: "The account's applications, newest first.",
  returns: "A page of the account's applications: id, name, status, paused, external_id, created_at.",
  method: "GET",
  path: "/v1/applications",
  caller: everyRole,
  answer: { status: 200, envelope: "data" },
  parameters: listParameters,
  body: undefined,
  decode: decodeQuery(ListQuery),
  output: PageOf(AccountApplication),
  errors: [],
  idempotent: false,
  service: AccountApplications,
  run: (s, p, q: typeof ListQuery.Type) => s.list(p, q),
})
