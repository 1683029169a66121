/** The account API's applications (DECISIONS 10): `{ id, name, status, paused, external_id, created_at }`. */
import { Effect, Either, Schema } from "effect"
import { ApplicationsRepo } from "../../ports/store/accounts.ts"
import { Lists } from "../limits.ts"
import type { AccountPrincipal } from "../pipeline/authenticate.ts"
import { makeCursors } from "../pipeline/cursor.ts"
import { operation } from "../pipeline/operation.ts"
import { isoMillis } from "../shared/riyadh.ts"
import { everyRole } from "./callers.ts"
import { decodeQuery, ListQuery, page, PageOf } from "./lists.ts"
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
      Effect.gen(function* () {
        let after: { createdAt: number; id: string } | null = null
        if (q.cursor !== undefined) {
          const position = cursors.read("applications", p.account.id, q.cursor)
          if (Either.isLeft(position)) return yield* position.left
          after = { createdAt: Number(position.right[0]), id: String(position.right[1]) }
        }
        const limit = q.limit ?? Lists.defaultLimit
        // One more than the page tells whether there is a next one.
        const found = yield* apps.pageInAccount(p.account.id, after, limit + 1)
        const shown = found.slice(0, limit)
        const last = shown[shown.length - 1]
        const next = found.length > limit ? cursors.make("applications", p.account.id, [last.createdAt, last.id]) : null
        return page(shown.map(accountApplicationJson), next)
      })
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
  parameters: [
    { name: "limit", in: "query", description: "1 to 100; default 20", schema: Schema.String, required: false },
    { name: "cursor", in: "query", description: "A `next_cursor` as answered", schema: Schema.String, required: false },
  ],
  body: undefined,
  decode: decodeQuery(ListQuery),
  output: PageOf(AccountApplication),
  errors: [],
  idempotent: false,
  service: AccountApplications,
  run: (s, p, q: typeof ListQuery.Type) => s.list(p, q),
})
