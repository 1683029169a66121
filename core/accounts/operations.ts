/** The account API's operations (account tokens, `{ data }` answers); more join with the Account API issue. */
import { Effect, Option, Schema } from "effect"
import { ApplicationsRepo } from "../../ports/store/accounts.ts"
import { NotFound, notFound } from "../errors.ts"
import { type AnyOperation, operation } from "../pipeline/operation.ts"
import { type ApplicationId, isUuid } from "../shared/brands.ts"
import { unpauseApplication } from "./unpause.ts"
import { ownerOrAdmin } from "./callers.ts"
import { AccountApplication, accountApplicationJson } from "./applications.ts"

const done = { status: 200, envelope: "data" } as const

export const accountOperations = [
  operation({
    name: "applications.unpause",
    summary: "Lifts the pause the protection guard set (`paused`); codes go out again. Answers the application.",
    method: "POST",
    path: "/v1/applications/{application}/unpause",
    caller: ownerOrAdmin,
    answer: done,
    parameters: [{
      name: "application",
      in: "path",
      description: "An application of the token's account",
      schema: Schema.UUID,
      required: true,
    }],
    body: Schema.Struct({}),
    returns: "The application: id, name, status, paused (now false), external_id, created_at.",
    output: AccountApplication,
    errors: [NotFound],
    idempotent: true,
    service: ApplicationsRepo,
    run: (apps, p, input) =>
      Effect.gen(function* () {
        const id = input.params.application
        // An application of another account is `not_found`, as one that does not exist.
        const found = isUuid(id) ? yield* apps.get(id as ApplicationId) : Option.none()
        if (Option.isNone(found) || found.value.accountId !== p.account.id) return yield* notFound
        return accountApplicationJson(yield* unpauseApplication(found.value.id))
      }),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
